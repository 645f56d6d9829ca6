"""The four victory squares (L3-L6): whether a bank meets one now, and how it is described.

Prestige counts Old Maids (I2, L2). Opponents are the other banks still in the game, and a
"2-player game" is one with two banks left (R-P09).
"""

from __future__ import annotations

from collections import Counter

from engine.core.table import Table
from engine.pax.catalog import RELIGIONS
from engine.pax.model import cat, concession_owner, prestige, token_colour, token_kind

# --- counts -----------------------------------------------------------------------------------


def squares(t: Table, bank: str, side: str) -> int:
    """Empire squares a bank holds on `side` ("king" or "republic"), vassals included."""
    return sum(1 for data in t.state["empires"].values()
               if data["ruler"] == bank and data["side"] == side)


def concessions(t: Table, bank: str) -> int:
    return sum(1 for border_id in t.state["borders"] if concession_owner(t, border_id) == bank)


def bishop_counts(t: Table) -> Counter[str]:
    """L3 (1): bishops by colour; every bishop in play sits on a tableau card or a throne."""
    return Counter(t.state["bishops"].values())


def theocracy_counts(t: Table) -> Counter[str]:
    """L3 (2), THEOCRACY: per religion, its unrepressed knights and rooks in cities of its own
    theocracies, plus its pirates once for each bordering theocracy of that religion."""
    counts: Counter[str] = Counter()
    religion = {e: d["religion"] for e, d in t.state["empires"].items()}
    for city_id, tok in t.state["cities"].items():
        colour = token_colour(tok)
        if token_kind(tok) in ("knight", "rook") and religion[cat(t).cities[city_id].empire] == colour:
            counts[colour] += 1
    for border_id, content in t.state["borders"].items():
        pirate = content.get("pirate")
        if pirate is None:
            continue
        colour = token_colour(pirate)
        counts[colour] += sum(1 for e in cat(t).borders[border_id].empires if religion[e] == colour)
    return counts


def supreme_religion(t: Table) -> str | None:
    """SUPREMACY: the religion with more bishops, and more matching tokens in its
    theocracies, than the other two combined."""
    bishops, tokens = bishop_counts(t), theocracy_counts(t)
    for religion in RELIGIONS:
        others = [r for r in RELIGIONS if r != religion]
        if bishops[religion] > sum(bishops[r] for r in others) and \
                tokens[religion] > sum(tokens[r] for r in others):
            return religion
    return None


# --- the squares ------------------------------------------------------------------------------


def _beats(t: Table, bank: str, measure: dict[str, int], margin: int) -> bool:
    """`bank` leads every opponent by at least `margin` on `measure`."""
    mine = measure[bank]
    return all(mine >= measure[other] + margin for other in t.state["order"] if other != bank)


def imperial_margin(t: Table) -> int:
    return 3 if len(t.state["order"]) == 2 else 2


def meets(t: Table, bank: str, square: str) -> bool:
    """Whether `bank` meets the conditions of a victory square now (L3-L6)."""
    order = list(t.state["order"])
    if square == "holy":
        religion = supreme_religion(t)
        return religion is not None and _beats(
            t, bank, {b: prestige(t, b, religion) for b in order}, 1)
    if square == "imperial":
        return _beats(t, bank, {b: squares(t, b, "king") for b in order}, imperial_margin(t))
    if square == "globalization":
        return _beats(t, bank, {b: concessions(t, b) for b in order}, 2) and \
            _beats(t, bank, {b: prestige(t, b, "discovery") for b in order}, 1)
    if square == "renaissance":
        return _beats(t, bank, {b: squares(t, b, "republic") for b in order}, 1) and \
            _beats(t, bank, {b: prestige(t, b, "law") for b in order}, 2)
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
        return (f"with {_count(concessions(t, bank), 'concession')} and "
                f"{prestige(t, bank, 'discovery')} Discovery prestige")
    return (f"with {_count(squares(t, bank, 'republic'), 'Republic')} and "
            f"{prestige(t, bank, 'law')} Law prestige")
