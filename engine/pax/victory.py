"""The victory squares (L3-L6, and the promo Age of Byzantine card): whether a bank meets one
now, how it is described, and the abilities that bend the counts.

Prestige counts Old Maids (I2, L2). Opponents are the other banks still in the game, and a
"2-player game" is one with two banks left (R-P09). Ability substitutions:
- Renaissance: Academia / Epicurean Swerve add a Republic each; Artistic Geometry, Romantic
  Realism and Consent of the Governed add the owner's Patron prestige to Law, once per card.
- Globalization: Sahn-i Seman Medrese / Faith vs. Reason add the owner's Patron prestige to
  the concession count, once per card.
- Holy supremacy: Circassian Mamluks adds its owner's Patron prestige to the green bishops;
  under Zionist State every green pirate is also a red bishop, and a red token of each
  Reformist theocracy its border touches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.core.table import Event, Table
from engine.pax.abilities import (
    Ability,
    ability_count,
    ability_event,
    anyone_has,
    has_ability,
    holders,
)
from engine.pax.catalog import PROMO_SQUARES, RELIGIONS, SQUARES
from engine.pax.model import (
    cat,
    concession_owner,
    is_promo_map,
    plural,
    prestige,
    token_colour,
    token_kind,
)

TWO_ACTIONS = {
    "holy": Ability.HOLY_DECLARATION_COSTS_TWO_ACTIONS,
    "imperial": Ability.IMPERIAL_DECLARATION_COSTS_TWO_ACTIONS,
    "globalization": Ability.GLOBALIZATION_DECLARATION_COSTS_TWO_ACTIONS,
}


def victory_squares(t: Table) -> tuple[str, ...]:
    """The four squares, and the Age of Byzantine card on the promo map."""
    return (*SQUARES, *PROMO_SQUARES) if is_promo_map(t) else SQUARES


def declaration_cost(t: Table, bank: str, square: str) -> int:
    """E6: one action, or both actions of the turn under a red-text two-action ability."""
    ability = TWO_ACTIONS.get(square)
    return 2 if ability is not None and has_ability(t, bank, ability) else 1


# --- counts -----------------------------------------------------------------------------------


def squares(t: Table, bank: str, side: str) -> int:
    """Empire squares a bank holds on `side` ("king" or "republic"), vassals included."""
    return sum(1 for data in t.state["empires"].values()
               if data["ruler"] == bank and data["side"] == side)


def concessions(t: Table, bank: str) -> int:
    return sum(1 for border_id in t.state["borders"] if concession_owner(t, border_id) == bank)


def _patron_bonus(t: Table, bank: str, ability: Ability) -> int:
    return prestige(t, bank, "patron") * ability_count(t, bank, ability)


def republics(t: Table, bank: str) -> int:
    return squares(t, bank, "republic") + ability_count(
        t, bank, Ability.COUNTS_AS_REPUBLIC_FOR_RENAISSANCE)


def law(t: Table, bank: str) -> int:
    return prestige(t, bank, "law") + _patron_bonus(
        t, bank, Ability.PATRON_COUNTS_AS_LAW_FOR_RENAISSANCE)


def global_concessions(t: Table, bank: str) -> int:
    return concessions(t, bank) + _patron_bonus(
        t, bank, Ability.PATRON_COUNTS_AS_CONCESSIONS_FOR_GLOBALIZATION)


def _green_pirates(t: Table) -> list[str]:
    return [b for b, c in t.state["borders"].items() if c.get("pirate") == "pirate:islamic"]


def bishop_counts(t: Table) -> Counter[str]:
    """L3 (1): bishops by colour, with the abilities that add to them."""
    counts = Counter(t.state["bishops"].values())
    for bank in holders(t, Ability.PATRON_COUNTS_AS_GREEN_BISHOPS_FOR_HOLY):
        counts["islamic"] += prestige(t, bank, "patron")
    if anyone_has(t, Ability.GREEN_PIRATES_COUNT_AS_RED_FOR_SUPREMACY):
        counts["reformist"] += len(_green_pirates(t))
    return counts


def theocracy_counts(t: Table) -> Counter[str]:
    """L3 (2), THEOCRACY: per religion, its unrepressed knights and rooks in cities of its own
    theocracies, plus its pirates once for each bordering theocracy of that religion."""
    counts: Counter[str] = Counter()
    religion = {e: d["religion"] for e, d in t.state["empires"].items()}
    for city_id, tok in t.state["cities"].items():
        colour = token_colour(tok)
        if token_kind(tok) in ("knight", "rook") and religion[cat(t).cities[city_id].empire] == colour:
            counts[colour] += 1
    green_as_red = anyone_has(t, Ability.GREEN_PIRATES_COUNT_AS_RED_FOR_SUPREMACY)
    for border_id, content in t.state["borders"].items():
        pirate = content.get("pirate")
        if pirate is None:
            continue
        colour = token_colour(pirate)
        touching = [religion[e] for e in cat(t).borders[border_id].empires]
        counts[colour] += touching.count(colour)
        if green_as_red and colour == "islamic":
            counts["reformist"] += touching.count("reformist")
    return counts


def supreme_religion(t: Table) -> str | None:
    """SUPREMACY: the religion with more bishops, and more matching tokens in its
    theocracies, than the other two combined."""
    bishops = bishop_counts(t)
    for religion in RELIGIONS:
        others = [r for r in RELIGIONS if r != religion]
        if bishops[religion] > sum(bishops[r] for r in others):
            # the tokens are counted only for the one religion that can lead the bishops
            tokens = theocracy_counts(t)
            return religion if tokens[religion] > sum(tokens[r] for r in others) else None
    return None


def leading_theocracy(t: Table) -> str | None:
    """Age of Byzantine: the religion with strictly the most theocracies (None on a tie)."""
    counts = Counter(d["religion"] for d in t.state["empires"].values()
                     if d["religion"] != "medieval")
    ranked = counts.most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return str(ranked[0][0])


# --- the squares ------------------------------------------------------------------------------


def _beats(t: Table, bank: str, measure: dict[str, int], margin: int) -> bool:
    """`bank` leads every opponent by at least `margin` on `measure`."""
    mine = measure[bank]
    return all(mine >= measure[other] + margin for other in t.state["order"] if other != bank)


def imperial_margin(t: Table) -> int:
    return 3 if len(t.state["order"]) == 2 else 2


def _leads(t: Table, bank: str, measure: Callable[[str], int], margin: int) -> bool:
    """`_beats` on `measure` taken lazily: every measure counts things (never below 0), so a
    bank under `margin` leads no one and the opponents need not be counted."""
    mine = measure(bank)
    if mine < margin:
        return False
    return all(mine >= measure(other) + margin for other in t.state["order"] if other != bank)


def meets(t: Table, bank: str, square: str) -> bool:
    """Whether `bank` meets the conditions of a victory square now (L3-L6)."""
    if square == "holy":
        religion = supreme_religion(t)
        return religion is not None and _leads(t, bank, lambda b: prestige(t, b, religion), 1)
    if square == "imperial":
        return _leads(t, bank, lambda b: squares(t, b, "king"), imperial_margin(t))
    if square == "globalization":
        return _leads(t, bank, lambda b: global_concessions(t, b), 2) and \
            _leads(t, bank, lambda b: prestige(t, b, "discovery"), 1)
    if square == "renaissance":
        return _leads(t, bank, lambda b: republics(t, b), 1) and \
            _leads(t, bank, lambda b: law(t, b), 2)
    if square == "byzantine":
        theocracy = leading_theocracy(t)
        return theocracy is not None and \
            _leads(t, bank, lambda b: squares(t, b, "king"), 1) and \
            _leads(t, bank, lambda b: prestige(t, b, theocracy), 1)
    raise ValueError(f"unknown victory square {square}")


def _short(t: Table, bank: str, measure: dict[str, int], margin: int) -> int:
    """How much `bank` must gain on `measure` to lead every opponent by `margin` (0: it does)."""
    others = [measure[o] for o in t.state["order"] if o != bank]
    return max(0, max(others, default=0) + margin - measure[bank])


def _supremacy_short(t: Table, religion: str) -> int:
    """How far `religion` is from SUPREMACY: bishops and tokens it lacks over the others."""
    bishops, tokens = bishop_counts(t), theocracy_counts(t)
    others = [r for r in RELIGIONS if r != religion]
    return sum(max(0, sum(c[r] for r in others) + 1 - c[religion]) for c in (bishops, tokens))


def _theocracy_short(t: Table, religion: str) -> int:
    """How many theocracies `religion` lacks to lead the others strictly (Age of Byzantine)."""
    counts = Counter(d["religion"] for d in t.state["empires"].values()
                     if d["religion"] != "medieval")
    return max(0, max((counts[r] for r in RELIGIONS if r != religion), default=0) + 1
               - counts[religion])


def shortfall(t: Table, bank: str, square: str) -> int:
    """How far `bank` is from meeting `square` (L3-L6), in counts it lacks: 0 exactly when
    `meets` holds. Self-play's victory-seeking bot steers by it."""
    order = list(t.state["order"])
    if square == "holy":
        return min(_supremacy_short(t, r) + _short(t, bank, {b: prestige(t, b, r) for b in order},
                                                  1) for r in RELIGIONS)
    if square == "imperial":
        return _short(t, bank, {b: squares(t, b, "king") for b in order}, imperial_margin(t))
    if square == "globalization":
        return _short(t, bank, {b: global_concessions(t, b) for b in order}, 2) + \
            _short(t, bank, {b: prestige(t, b, "discovery") for b in order}, 1)
    if square == "renaissance":
        return _short(t, bank, {b: republics(t, b) for b in order}, 1) + \
            _short(t, bank, {b: law(t, b) for b in order}, 2)
    if square == "byzantine":
        kings = _short(t, bank, {b: squares(t, b, "king") for b in order}, 1)
        return kings + min(_theocracy_short(t, r) + _short(
            t, bank, {b: prestige(t, b, r) for b in order}, 1) for r in RELIGIONS)
    raise ValueError(f"unknown victory square {square}")


def _count(number: int, word: str) -> str:
    return f"{number} {word}{'s' * (number != 1)}"


def describe(t: Table, bank: str, square: str) -> str:
    """Why the declaration wins, for the final report."""
    if square == "holy":
        religion = supreme_religion(t) or "none"
        return (f"with {religion} supreme and {prestige(t, bank, religion)} {religion.title()} "
                "prestige")
    if square == "imperial":
        return f"with {_count(squares(t, bank, 'king'), 'King')}"
    if square == "globalization":
        return (f"with {_count(global_concessions(t, bank), 'concession')} and "
                f"{prestige(t, bank, 'discovery')} Discovery prestige")
    if square == "byzantine":
        religion = leading_theocracy(t) or "none"
        return (f"with {_count(squares(t, bank, 'king'), 'King')} and "
                f"{prestige(t, bank, religion)} {religion.title()} prestige")
    return (f"with {_count(republics(t, bank), 'Republic')} and "
            f"{law(t, bank)} Law prestige")


def victory_words(t: Table, bank: str, square: str) -> tuple[str, dict[str, Any]]:
    """The game-over message of a declared square and its arguments: what `describe` says, as
    data (the id tells singular from plural, and a square without a religion apart)."""
    if square in ("holy", "byzantine"):
        religion = supreme_religion(t) if square == "holy" else leading_theocracy(t)
        args: dict[str, Any] = {"prestige": prestige(t, bank, religion or "none")}
        if religion is not None:
            args["religion"] = religion
        none = "" if religion else ".no_religion"
        if square == "holy":
            return f"pax.end.holy{none}", args
        kings = squares(t, bank, "king")
        return f"pax.end.byzantine{none}.{plural(kings)}", {**args, "kings": kings}
    if square == "imperial":
        kings = squares(t, bank, "king")
        return f"pax.end.imperial.{plural(kings)}", {"kings": kings}
    if square == "globalization":
        count = global_concessions(t, bank)
        return f"pax.end.globalization.{plural(count)}", {
            "concessions": count, "discovery": prestige(t, bank, "discovery")}
    count = republics(t, bank)
    return f"pax.end.renaissance.{plural(count)}", {"republics": count, "law": law(t, bank)}


def ability_notes(t: Table, bank: str, square: str) -> list[Event]:
    """The abilities that added to the winning counts, as events."""
    notes: list[tuple[Ability, int, str]] = []
    if square == "renaissance":
        notes.append((Ability.COUNTS_AS_REPUBLIC_FOR_RENAISSANCE, republics(t, bank)
                      - squares(t, bank, "republic"), "pax.victory.count.republics"))
        notes.append((Ability.PATRON_COUNTS_AS_LAW_FOR_RENAISSANCE, law(t, bank)
                      - prestige(t, bank, "law"), "pax.victory.count.patron_law"))
    if square == "globalization":
        notes.append((Ability.PATRON_COUNTS_AS_CONCESSIONS_FOR_GLOBALIZATION,
                      global_concessions(t, bank) - concessions(t, bank),
                      "pax.victory.count.patron_concessions"))
    if square == "holy":
        green = sum(prestige(t, b, "patron")
                    for b in holders(t, Ability.PATRON_COUNTS_AS_GREEN_BISHOPS_FOR_HOLY))
        notes.append((Ability.PATRON_COUNTS_AS_GREEN_BISHOPS_FOR_HOLY, green,
                      "pax.victory.count.patron_green_bishops"))
        pirates = len(_green_pirates(t)) if anyone_has(
            t, Ability.GREEN_PIRATES_COUNT_AS_RED_FOR_SUPREMACY) else 0
        notes.append((Ability.GREEN_PIRATES_COUNT_AS_RED_FOR_SUPREMACY, pirates,
                      "pax.victory.count.green_pirates"))
    ability = TWO_ACTIONS.get(square)
    events = [ability_event(a, msg, square=square, count=n) for a, n, msg in notes if n > 0]
    if ability is not None and declaration_cost(t, bank, square) == 2:
        events.append(ability_event(ability, "pax.victory.two_actions", square=square))
    return events
