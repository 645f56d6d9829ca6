"""Why a main-turn line is not legal now, citing the rule (the `Action.explain` hook).

Each function returns the reason in plain words, or None when the line is not about that
action or nothing better than "not a legal order" can be said (the legal lines are listed
anyway). Reasons are error text for the sender, not events.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.choice import clean_line
from engine.core.errors import Reason, Verbatim, because
from engine.core.table import Table
from engine.pax.abilities import hand_limit
from engine.pax.actions.common import ACTIONS_PER_TURN
from engine.pax.actions.ops.node import can_run
from engine.pax.explain_places import explain_tax_answer
from engine.pax.messages.reasons import REASONS
from engine.pax.model import card, card_name, is_square, player, prestige, side_cards, tableau
from engine.pax.notation import PaxNamer
from engine.pax.victory import (
    global_concessions,
    imperial_margin,
    law,
    leading_theocracy,
    republics,
    squares,
    supreme_religion,
    victory_squares,
)


def _market_card(t: Table, words: str) -> tuple[str, str, int] | None:
    """The one market card (side, column) the words name, legal to buy or not."""
    namer = PaxNamer(t)
    scored: list[tuple[int, str, str, int]] = []
    for side, row in t.state["market"].items():
        for column, slot in enumerate(row):
            if slot["card"]:
                here = namer.score("card", slot["card"], words)
                if here:
                    scored.append((here, slot["card"], side, column))
    if not scored:
        return None
    top = max(s[0] for s in scored)
    best = [s for s in scored if s[0] == top]
    return (best[0][1], best[0][2], best[0][3]) if len(best) == 1 else None


def _owned_card(t: Table, cards: list[str], words: str) -> str | None:
    namer = PaxNamer(t)
    scored = [(namer.score("card", c, words), c) for c in cards]
    scored = [s for s in scored if s[0]]
    if not scored:
        return None
    top = max(s[0] for s in scored)
    best = [c for s, c in scored if s == top]
    return best[0] if len(best) == 1 else None


def _why(key: str, **fields: object) -> Reason:
    return because(REASONS, f"reason:pax.{key}", **fields)


def explain_buy(t: Table, bank: str, words: str) -> Reason | None:
    found = _market_card(t, words)
    if found is None:
        return None
    card_id, side, column = found
    me = player(t, bank)
    name = card_name(t, card_id)
    comet = card(t, card_id).kind == "comet"
    if column == 0:
        if comet:
            return _why("comet_left", card=name, side=side)
        return _why("fair_card", card=name, slot=Verbatim(f"{side} 0"))
    if card_id in t.state["turn"]["usury"]:
        return _why("usury", card=name)
    if column > me["florins"]:
        return _why("cost", card=name, slot=Verbatim(f"{side} {column}"), column=column,
                    bank=bank, florins=me["florins"])
    limit = hand_limit(t, bank)
    if limit is not None and len(me["hand"]) >= limit and not comet:
        return _why("hand_full", cards=len(me["hand"]), limit=limit)
    return None


def explain_card_use(t: Table, bank: str, verb: str, words: str) -> Reason | None:
    """`play` or `sell` of a card the bank does not hold where the verb needs it."""
    me = player(t, bank)
    everywhere = sorted(set(t.catalog.cards) - {c for c in t.catalog.cards if is_square(c)})
    card_id = _owned_card(t, everywhere, words)
    if card_id is None:
        return None
    name = card_name(t, card_id)
    if verb == "play" and card_id not in me["hand"]:
        return _why("play_tableau" if card_id in tableau(t, bank) else "play_not_hand",
                    card=name)
    if verb == "sell" and card_id not in me["hand"] + tableau(t, bank) + me["old_maids"]:
        return _why("sell_not_yours", card=name)
    return None


def explain_ops(t: Table, bank: str, words: str) -> Reason | None:
    side = words.strip()
    if side not in ("east", "west"):
        return None
    if f"ops_{side}" in t.state["turn"]["used"]:
        return _why("ops_used", side=side)
    if not side_cards(t, bank, side):
        return _why("ops_empty", side=side)
    if not can_run(t, bank, side):
        return _why("ops_no_target", side=side)
    return None


def _measure(key: str, **fields: object) -> Reason:
    return _why(f"measure.{key}", **fields)


def _shortfall(t: Table, bank: str, label: Reason, measure: Callable[[str], int], margin: int
               ) -> Reason | None:
    """'Law prestige: 2, needs 4 (2 more than medici's 2)' when `bank` falls short."""
    mine = measure(bank)
    rivals = [(measure(b), b) for b in t.state["order"] if b != bank]
    if not rivals:
        return None
    best, rival = max(rivals)
    if mine >= best + margin:
        return None
    fields = {"label": label, "mine": mine, "needed": best + margin, "rival": Verbatim(rival),
              "best": best}
    return _why("shortfall_by", margin=margin, **fields) if margin > 1 else \
        _why("shortfall", **fields)


def victory_problems(t: Table, bank: str, square: str) -> list[Reason]:
    """Each condition of a victory square (L3-L6) that `bank` fails now, with the numbers."""
    checks: list[Reason | None]
    if square == "holy":
        religion = supreme_religion(t)
        if religion is None:
            return [_why("no_supreme_religion")]
        supreme: str = religion
        checks = [_shortfall(t, bank, _measure("prestige", kind=supreme),
                             lambda b: prestige(t, b, supreme), 1)]
    elif square == "imperial":
        checks = [_shortfall(t, bank, _measure("kings"), lambda b: squares(t, b, "king"),
                             imperial_margin(t))]
    elif square == "globalization":
        checks = [_shortfall(t, bank, _measure("concessions"),
                             lambda b: global_concessions(t, b), 2),
                  _shortfall(t, bank, _measure("discovery_prestige"),
                             lambda b: prestige(t, b, "discovery"), 1)]
    elif square == "renaissance":
        checks = [_shortfall(t, bank, _measure("republics"), lambda b: republics(t, b), 1),
                  _shortfall(t, bank, _measure("law_prestige"), lambda b: law(t, b), 2)]
    elif square == "byzantine":
        religion = leading_theocracy(t)
        if religion is None:
            return [_why("no_leading_theocracy")]
        leading: str = religion
        checks = [_shortfall(t, bank, _measure("kings"), lambda b: squares(t, b, "king"), 1),
                  _shortfall(t, bank, _measure("prestige", kind=leading),
                             lambda b: prestige(t, b, leading), 1)]
    else:
        return []
    return [c for c in checks if c]


RULE = {"holy": "L3", "imperial": "L4", "globalization": "L5", "renaissance": "L6",
        "byzantine": "Age of Byzantine"}


def explain_victory(t: Table, bank: str, words: str) -> str | Reason | None:
    square = next((s for s in victory_squares(t) if words.strip() in (s, s[:-1])), None)
    if square is None:
        return None
    if t.state["victory"][square] != "active":
        return _why("square_inactive", square=square)
    if "victory" in t.state["turn"]["used"]:
        return _why("victory_used")
    problems = victory_problems(t, bank, square)
    if problems:
        rule = Verbatim(RULE[square])
        if len(problems) == 1:
            return _why("victory_not_met", square=square, rule=rule, problems=problems[0])
        return _why("victory_not_met_both", square=square, rule=rule, first=problems[0],
                    second=problems[1])
    if t.state["turn"]["actions"]:
        return _why("victory_actions")
    return None


def explain_turn(t: Table, bank: str, line: str) -> str | Reason | None:
    words = clean_line(line).split()
    if not words:
        return None
    verb, rest = words[0], " ".join(words[1:])
    if verb in ("buy", "play", "sell", "ops", "fair", "victory") and \
            t.state["turn"]["actions"] >= ACTIONS_PER_TURN:
        return _why("actions_used")
    if verb == "buy":
        return explain_buy(t, bank, rest)
    if verb in ("play", "sell"):
        return explain_card_use(t, bank, verb, rest)
    if verb == "ops":
        return explain_ops(t, bank, rest)
    if verb == "victory":
        return explain_victory(t, bank, rest)
    if verb == "standing":
        return explain_tax_answer(t, bank, line)
    if verb == "fair" and rest in ("east", "west") and t.state["market"][rest][0]["card"] is None:
        return _why("no_fair_card", side=rest)
    return None
