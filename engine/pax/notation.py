"""How Pax Renaissance things are named in order lines (orders.md section 3)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache, cached_property

from engine.core.choice import fold
from engine.core.table import Table
from engine.pax.catalog import Catalog
from engine.pax.model import card_name, card_ops, city_name

EMPIRE_ALIASES = {
    "holy_roman_empire": ("hre", "holy roman empire", "holy roman", "empire"),
    "papal_states": ("papal", "papal states", "papacy"),
    "ottoman": ("ottoman", "ottoman empire", "ottomans"),
    "mamluk": ("mamluk", "mamluks", "mameluke"),
}
START_BORDER_CITIES = {
    "augsburg": "border_france_holy_roman_empire",
    "florence": "border_aragon_papal_states",
    "lisbon": "border_england_portugal",
    "alexandria": "border_mamluk_ottoman",
}
RELIGION_WORDS = {
    "catholic": ("catholic", "gold"),
    "islamic": ("islamic", "green", "muslim"),
    "reformist": ("reformist", "red", "protestant"),
}
SQUARE_WORDS = {"holy": ("holy",), "imperial": ("imperial",),
                "globalization": ("globalization", "globalisation"),
                "renaissance": ("renaissance",),
                "byzantine": ("byzantine", "age of byzantine")}
EXACT, WORDS, PART = 4, 2, 1


@cache
def empire_names(catalog: Catalog) -> dict[str, str]:
    """Every accepted folded name of an empire -> its id (do not mutate the result)."""
    names: dict[str, str] = {}
    for empire in catalog.empires.values():
        for alias in (empire.id, empire.name, *EMPIRE_ALIASES.get(empire.id, ())):
            names[fold(alias)] = empire.id
    return names


def short_empire(catalog: Catalog, empire_id: str) -> str:
    """The short word used in canonical lines: 'hre', 'papal', 'england'."""
    aliases = EMPIRE_ALIASES.get(empire_id)
    return aliases[0] if aliases else empire_id


def border_line_name(catalog: Catalog, border_id: str) -> str:
    first, second = catalog.borders[border_id].empires
    return f"{short_empire(catalog, first)}-{short_empire(catalog, second)}"


def city_line_name(t: Table, city_id: str) -> str:
    """A city in canonical lines: 'paris', and 'constantinople 2' where the three cities of
    Constantinople are named apart (engine.pax.model.city_name)."""
    return fold(city_name(t, city_id))


def _name_score(words: str, name: str) -> int:
    folded = fold(name)
    if words == folded:
        return EXACT
    if f" {words} " in f" {folded} ":
        return WORDS
    if words in folded and len(words) >= 3:
        return PART
    return 0


class PaxNamer:
    """Scores how well a span of words names a value; built per table (market slots move)."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.catalog: Catalog = t.catalog
        self.empires = empire_names(self.catalog)

    @cached_property
    def slots(self) -> dict[str, str]:
        """The market's cards by slot ('west 3'), read when a card is first named (a line
        that is an option's own line is matched without the namer)."""
        return {f"{side} {index}": slot["card"] for side, row in self.t.state["market"].items()
                for index, slot in enumerate(row) if slot["card"]}

    def score(self, kind: str, value: str, words: str) -> int:
        result: int = _SCORERS[kind](self, value, words)  # a line scores every option's names
        return result

    def known(self, kind: str, words: str) -> bool:
        """Whether `words` names anything of `kind` (a qualifier that names another place
        contradicts a line; one that names nothing is simply not part of it)."""
        pools: dict[str, Iterable[str]] = {"city": self.catalog.cities, "border": self.catalog.borders,
                 "in": self.catalog.empires, "empire": self.catalog.empires,
                 "side": ("agent", "repressed", "east", "west", "both")}
        pool = pools.get(kind)
        if pool is None:
            return True
        return any(self.score(kind, value, words) for value in pool)

    def _card(self, value: str, words: str) -> int:
        if words == fold(value) or self.slots.get(words) == value:
            return EXACT
        if value.startswith("empire_square_"):
            empire_id = self.catalog.empire_of_square(value)
            if self.empires.get(words) == empire_id:
                return EXACT
            square = self.catalog.squares[empire_id]
            return max(_name_score(words, square.king.name),
                       _name_score(words, square.republic.name),
                       _name_score(words, card_name(self.t, value)))
        return _name_score(words, self.catalog.cards[value].name)

    def _empire(self, value: str, words: str) -> int:
        return EXACT if self.empires.get(words) == value else 0

    def _city(self, value: str, words: str) -> int:
        """The city's name, its id ('constantinople 2'), or the id in one word
        ('constantinople2'); a bare 'constantinople' names each of its three cities."""
        city = self.catalog.cities[value]
        if words in (fold(city.name), fold(value), fold(value).replace(" ", "")):
            return EXACT
        return 0

    def _border(self, value: str, words: str) -> int:
        if START_BORDER_CITIES.get(words) == value or words == fold(value):
            return EXACT
        first, second = self.catalog.borders[value].empires
        for split in range(1, len(words.split())):
            parts = words.split()
            left, right = " ".join(parts[:split]), " ".join(parts[split:])
            pair = {self.empires.get(left), self.empires.get(right)}
            if pair == {first, second}:
                return EXACT
        return 0

    def _token(self, value: str, words: str) -> int:
        kind, colour = value.split(":", 1)
        parts = words.split()
        if not parts or parts[0] != kind and parts[-1] != kind:
            return 0
        rest = [p for p in parts if p != kind]
        if not rest:
            return WORDS
        if rest == [colour] or " ".join(rest) in RELIGION_WORDS.get(colour, ()):
            return EXACT
        return 0

    def _square(self, value: str, words: str) -> int:
        return EXACT if words in SQUARE_WORDS[value] else 0

    def _side(self, value: str, words: str) -> int:
        return EXACT if words == value else 0

    # --- kinds added for ops, standing answers and victories (issue 5) ----------------------

    def _card_op(self, value: str, words: str) -> int:
        """`CARD OP` in an op line, value "card_id/op_id"; the op word may be left out when
        the card has only one op (orders.md section 4)."""
        card_id, op_id = value.split("/", 1)
        word = str(self.catalog.ops[op_id]["type"])
        if words.endswith(" " + word):
            named = self._card(card_id, words[: -len(word) - 1])
            if named:
                return named + EXACT
        if len({self.catalog.ops[o]["type"] for o in card_ops(self.t, card_id)}) == 1:
            return self._card(card_id, words)
        return 0

    def _slot(self, value: str, words: str) -> int:
        """A market slot, 'west 3' (the face-down trade-fair card is 'west 0')."""
        return EXACT if words == value else 0

    def _in(self, value: str, words: str) -> int:
        """'in EMPIRE': the empire a "The East"/"The West" card acts in."""
        parts = words.split(" ", 1)
        if len(parts) == 2 and parts[0] == "in" and self.empires.get(parts[1]) == value:
            return EXACT
        return 0

    def _religion(self, value: str, words: str) -> int:
        """A religion, in an ability line such as 'apostasy catholic reformist'."""
        return EXACT if words == value or words in RELIGION_WORDS.get(value, ()) else 0

    def _answer(self, value: str, words: str) -> int:
        """Fixed words, such as a standing answer 'taxed pay 3'."""
        return EXACT if words == value else 0


# Each kind's scorer, `_KIND` above, looked up once here rather than per name scored.
_SCORERS: dict[str, Callable[[PaxNamer, str, str], int]] = {
    name[1:]: scorer for name, scorer in vars(PaxNamer).items()
    if name.startswith("_") and not name.startswith("__") and callable(scorer)}
