"""Why a main-turn line is not legal now, citing the rule (the `Action.explain` hook).

Each function returns the reason in plain words, or None when the line is not about that
action or nothing better than "not a legal order" can be said (the legal lines are listed
anyway). Reasons are error text for the sender, not events.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.choice import clean_line
from engine.core.table import Table
from engine.pax.abilities import hand_limit
from engine.pax.actions.ops.node import can_run
from engine.pax.explain_places import explain_tax_answer
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

ACTIONS_PER_TURN = 2  # D1


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


def explain_buy(t: Table, bank: str, words: str) -> str | None:
    found = _market_card(t, words)
    if found is None:
        return None
    card_id, side, column = found
    me = player(t, bank)
    name = card_name(t, card_id)
    comet = card(t, card_id).kind == "comet"
    if column == 0:
        if comet:
            return (f"{name} has reached the leftmost slot of the {side} row: a comet there is "
                    "flipped and can no longer be bought (L1, Cometa Aster)")
        return f"{name} is the face-down trade-fair card ({side} 0), which cannot be bought (E1)"
    if card_id in t.state["turn"]["usury"]:
        return (f"usury: you paid a florin onto {name} this turn, so you may not buy it (E1)")
    if column > me["florins"]:
        return (f"{name} ({side} {column}) costs {column} florins and {bank} holds "
                f"{me['florins']} (E1)")
    limit = hand_limit(t, bank)
    if limit is not None and len(me["hand"]) >= limit and not comet:
        return (f"your hand is full: {len(me['hand'])} cards, the hand limit is {limit}; only a "
                "comet may be bought now (E1, HAND)")
    return None


def explain_card_use(t: Table, bank: str, verb: str, words: str) -> str | None:
    """`play` or `sell` of a card the bank does not hold where the verb needs it."""
    me = player(t, bank)
    everywhere = sorted(set(t.catalog.cards) - {c for c in t.catalog.cards if is_square(c)})
    card_id = _owned_card(t, everywhere, words)
    if card_id is None:
        return None
    name = card_name(t, card_id)
    if verb == "play" and card_id not in me["hand"]:
        where = "in your tableau" if card_id in tableau(t, bank) else "not in your hand"
        return f"{name} is {where}; only a card in your hand can be played (E2)"
    if verb == "sell" and card_id not in me["hand"] + tableau(t, bank) + me["old_maids"]:
        return (f"{name} is not yours: you may sell a card from your hand, tableau or Old Maids "
                "(E3)")
    return None


def explain_ops(t: Table, bank: str, words: str) -> str | None:
    side = words.strip()
    if side not in ("east", "west"):
        return None
    if f"ops_{side}" in t.state["turn"]["used"]:
        return f"the {side} ops have already been activated this turn (E4: once per side)"
    if not side_cards(t, bank, side):
        return f"your {side} tableau has no cards, so it has no ops to activate (E4)"
    if not can_run(t, bank, side):
        return (f"no card in your {side} tableau has an op with a legal target in its Location "
                "now (E4, LOCATION)")
    return None


def _shortfall(t: Table, bank: str, label: str, measure: Callable[[str], int], margin: int
               ) -> str | None:
    """'Law prestige: 2, needs 4 (2 more than medici's 2)' when `bank` falls short."""
    mine = measure(bank)
    rivals = [(measure(b), b) for b in t.state["order"] if b != bank]
    if not rivals:
        return None
    best, rival = max(rivals)
    if mine >= best + margin:
        return None
    more = f"{margin} more than" if margin > 1 else "more than"
    return f"{label}: {mine}, needs {best + margin} ({more} {rival}'s {best})"


def victory_problems(t: Table, bank: str, square: str) -> list[str]:
    """Each condition of a victory square (L3-L6) that `bank` fails now, with the numbers."""
    checks: list[str | None]
    if square == "holy":
        religion = supreme_religion(t)
        if religion is None:
            return ["no religion is supreme (L3: most bishops and most tokens in its "
                    "theocracies, each more than both other religions combined)"]
        supreme: str = religion
        checks = [_shortfall(t, bank, f"{supreme} prestige",
                             lambda b: prestige(t, b, supreme), 1)]
    elif square == "imperial":
        checks = [_shortfall(t, bank, "Kings", lambda b: squares(t, b, "king"),
                             imperial_margin(t))]
    elif square == "globalization":
        checks = [_shortfall(t, bank, "concessions", lambda b: global_concessions(t, b), 2),
                  _shortfall(t, bank, "Discovery prestige",
                             lambda b: prestige(t, b, "discovery"), 1)]
    elif square == "renaissance":
        checks = [_shortfall(t, bank, "Republics", lambda b: republics(t, b), 1),
                  _shortfall(t, bank, "Law prestige", lambda b: law(t, b), 2)]
    elif square == "byzantine":
        religion = leading_theocracy(t)
        if religion is None:
            return ["no religion has strictly the most theocracies (R-612)"]
        leading: str = religion
        checks = [_shortfall(t, bank, "Kings", lambda b: squares(t, b, "king"), 1),
                  _shortfall(t, bank, f"{leading} prestige",
                             lambda b: prestige(t, b, leading), 1)]
    else:
        return []
    return [c for c in checks if c]


RULE = {"holy": "L3", "imperial": "L4", "globalization": "L5", "renaissance": "L6",
        "byzantine": "Age of Byzantine"}


def explain_victory(t: Table, bank: str, words: str) -> str | None:
    square = next((s for s in victory_squares(t) if words.strip() in (s, s[:-1])), None)
    if square is None:
        return None
    if t.state["victory"][square] != "active":
        return f"the {square} victory square is not active; a comet activates it (L1, E6)"
    if "victory" in t.state["turn"]["used"]:
        return "a victory can be declared once per turn (E6)"
    problems = victory_problems(t, bank, square)
    if problems:
        return f"{square} victory not met ({RULE[square]}): " + "; ".join(problems)
    if t.state["turn"]["actions"]:
        return ("this victory needs both actions of the turn, and one is already used "
                "(E6, R-607)")
    return None


def explain_turn(t: Table, bank: str, line: str) -> str | None:
    words = clean_line(line).split()
    if not words:
        return None
    verb, rest = words[0], " ".join(words[1:])
    if verb in ("buy", "play", "sell", "ops", "fair", "victory") and \
            t.state["turn"]["actions"] >= ACTIONS_PER_TURN:
        return "both actions of this turn are used; send 'end' (D1)"
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
        return (f"the {rest} row has no face-down trade-fair card in slot 0 to convene "
                "(E5, G1)")
    return None
