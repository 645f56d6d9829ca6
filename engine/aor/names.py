"""How Age of Renaissance things are named in order lines (aor-pbem.md section 9), and the
canonical words used when writing lines.

Provinces, commodities, Advances (also by letter), groups, regions (by numeral) and cards go by
name, accents and case free. A hand card may also be named by its label; a secret answer (the
card returned at 8.1, the card given by Written Record) takes the label only. Players go by id,
or by capital once capitals are chosen. Numbers may be negative (`tokens -3`).
"""

from __future__ import annotations

from functools import lru_cache

from engine.aor.catalog import Catalog
from engine.core.choice import Choice, fold
from engine.core.table import Table

EXACT, CLOSE, WORDS, PART = 4, 3, 2, 1


def name_score(words: str, name: str) -> int:
    folded = fold(name)
    if words == folded:
        return EXACT
    if f" {words} " in f" {folded} ":
        return WORDS
    if len(words) >= 3 and words in folded:
        return PART
    return 0


def best(words: str, *names: str) -> int:
    return max((name_score(words, n) for n in names if n), default=0)


# --- canonical words ------------------------------------------------------------------------------


def province_name(catalog: Catalog, where: str) -> str:
    return catalog.provinces[where].name


def card_name(catalog: Catalog, card: str) -> str:
    return catalog.cards[card].name


def advance_name(catalog: Catalog, advance: str) -> str:
    return catalog.advances[advance].name


def region_name(region: str) -> str:
    return region.upper() if len(region) <= 4 else region.replace("_", " ")


def choice(verb: str, line: str, *pairs: tuple[str, str]) -> Choice:
    """A choice from (value, kind) pairs."""
    if len(pairs) == 1:  # most choices: one argument (option lists build thousands)
        (value, kind), = pairs
        return Choice(verb, (value,), (kind,), line)
    return Choice(verb, tuple(v for v, _ in pairs), tuple(k for _, k in pairs), line)


@lru_cache(maxsize=8192)
def counted_choice(verb: str, n: int, where: str = "", name: str = "") -> Choice:
    """`VERB N`, or `VERB N NAME` for the province `where`: bids and placements are rebuilt
    by the thousand per game, and a Choice is immutable, so each is built once."""
    if not where:
        return Choice(verb, (str(n),), ("number",), f"{verb} {n}")
    return Choice(verb, (str(n), where), ("number", "province"), f"{verb} {n} {name}")


@lru_cache(maxsize=1024)
def counted_choices(verb: str, numbers: range, where: str = "", name: str = "") -> tuple[Choice, ...]:
    """counted_choice for each of `numbers`: a whole list of bids or placements, built once."""
    return tuple(counted_choice(verb, n, where, name) for n in numbers)


def simple(line: str) -> Choice:
    """A line with no arguments (`pass`, `done`, `no swap`, `buy card`)."""
    return Choice(line, (), (), line)


class AorNamer:
    """Scores how well words name a value of a kind; built per table (hands change)."""

    def __init__(self, t: Table) -> None:
        self.catalog: Catalog = t.catalog
        self.state = t.state
        self.labels: dict[str, str] = {}
        for data in t.state["players"].values():
            self.labels.update(data["hand"])

    def score(self, kind: str, value: str, words: str) -> int:
        c = self.catalog
        if kind in ("number", "label", "word"):
            return EXACT if words == fold(value) else 0
        if kind == "card":
            return self._card(value, words)
        if kind == "province":
            return best(words, c.provinces[value].name, value)
        if kind == "commodity":
            return best(words, c.commodities[value].name, value)
        if kind == "advance":
            data = c.advances[value]
            return EXACT if words == data.letter.lower() else best(words, data.name, value)
        if kind == "leader":
            return best(words, c.cards[value].name, value)
        if kind == "with_leader":
            head, _, rest = words.partition(" ")
            return best(rest, c.cards[value].name, value) if head == "with" and rest else 0
        if kind == "player":
            capital = self.state["players"][value]["capital"]
            names = [value] + ([c.provinces[capital].name] if capital else [])
            return EXACT if any(words == fold(n) for n in names) else 0
        if kind == "group":
            return best(words, value)
        if kind == "region":
            return best(words, value, c.regions[value].name, f"region {value}")
        return 0

    def _card(self, label: str, words: str) -> int:
        """A hand card by its label, or by the card's name; another label holding an
        identical card names it too (R36: identical cards are interchangeable)."""
        if words == fold(label):
            return EXACT
        card = self.labels.get(label)
        if card is None:
            return 0
        other = self.labels.get(words)
        if other is not None and self.catalog.cards[other].name == self.catalog.cards[card].name:
            return CLOSE
        return best(words, self.catalog.cards[card].name, card)

    def known(self, kind: str, words: str) -> bool:
        c = self.catalog
        pools: dict[str, list[str]] = {
            "province": list(c.provinces), "commodity": list(c.commodities),
            "advance": list(c.advances), "card": list(self.labels), "label": list(self.labels),
            "leader": [k for k, v in c.cards.items() if v.kind == "leader"],
            "with_leader": [k for k, v in c.cards.items() if v.kind == "leader"],
            "player": list(self.state["players"]), "group": list(c.groups),
            "region": list(c.regions),
        }
        if kind in ("number", "word"):
            return bool(words)
        return any(self.score(kind, value, words) for value in pools.get(kind, []))


def named(t: Table, kind: str, words: str) -> str | None:
    """The one value of `kind` (province, advance, leader) best named by `words`, if any."""
    found = candidates(t, kind, words)
    return found[0] if len(found) == 1 else None


def candidates(t: Table, kind: str, words: str) -> list[str]:
    """The values of `kind` best named by `words` (several when the words are ambiguous)."""
    catalog: Catalog = t.catalog
    pools = {"province": list(catalog.provinces), "advance": list(catalog.advances),
             "leader": [k for k, v in catalog.cards.items() if v.kind == "leader"]}
    namer = AorNamer(t)
    scored = [(namer.score(kind, value, fold(words)), value) for value in pools[kind]]
    top = max((score for score, _ in scored), default=0)
    return [value for score, value in scored if score == top and top]
