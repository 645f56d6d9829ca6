"""Why a line inside a Pax decision is not legal, citing the rule (the `Action.explain` hook):
an op line of the ops decision (E4, F, LOCATION), an agent's placement (E2.2), a levy (G4) and
a tax answer (F4). Each returns the reason in plain words, or None when nothing better than
"not a legal order" can be said (the legal lines are listed anyway)."""

from __future__ import annotations

from engine.core.choice import clean_line
from engine.core.errors import Reason, Verbatim, because
from engine.core.table import Table
from engine.pax.abilities import usable_ops
from engine.pax.messages.reasons import REASONS
from engine.pax.model import (
    card_location,
    card_name,
    card_ops,
    cat,
    city_name,
    describe_token,
    location_empires,
    player,
    side_cards,
    tableau,
)
from engine.pax.notation import EXACT, PaxNamer
from engine.pax.places import city_slots, empty_cities

# The section of each op type, and the ops whose targets lie in the acting card's Location.
OP_RULE = {"inquisitor": "F1", "commerce": "F2", "behead": "F3", "tax": "F4", "repress": "F5",
           "vote": "F6", "corsair": "F7", "siege": "F8", "campaign": "F9"}
LOCAL_OPS = {"siege": ("city",), "tax": ("border",), "repress": ("city", "border")}


def _why(key: str, **fields: object) -> Reason:
    return because(REASONS, f"reason:pax.{key}", **fields)


def _location_words(t: Table, card_id: str) -> str:
    location = card_location(t, card_id)
    if location in ("east", "west"):
        return f"the {location.title()}"
    return cat(t).empires[location].name if location else "no Location"


def _places(t: Table, words: list[str]) -> list[tuple[str, str]]:
    """Every (kind, id) of a city, border or empire that a span of `words` names exactly,
    longest spans first ('constantinople 2' before the bare 'constantinople')."""
    namer = PaxNamer(t)
    found: list[tuple[str, str]] = []
    pools = (("city", cat(t).cities), ("border", cat(t).borders), ("empire", cat(t).empires))
    for size in range(len(words), 0, -1):
        for start in range(len(words) - size + 1):
            span = " ".join(words[start:start + size])
            for kind, pool in pools:
                found += [(kind, v) for v in pool if namer.score(kind, v, span) >= EXACT]
    return found


def _empires_of(t: Table, kind: str, value: str) -> tuple[str, ...]:
    if kind == "city":
        return (cat(t).cities[value].empire,)
    if kind == "border":
        return tuple(cat(t).borders[value].empires)
    return (value,)


def _place_name(t: Table, kind: str, value: str) -> str:
    if kind == "city":
        return city_name(t, value)
    if kind == "border":
        return cat(t).borders[value].name
    return cat(t).empires[value].name


def _outside(t: Table, card_id: str, words: list[str], kinds: tuple[str, ...]
             ) -> tuple[str, str] | None:
    """The place of `kinds` the words name when every such place lies outside the card's
    Location; an `in EMPIRE` qualifier is left to the line matcher (R-514)."""
    if "in" in words:
        return None
    home = set(location_empires(t, card_location(t, card_id)))
    named = [(k, v) for k, v in _places(t, words) if k in kinds]
    if not named or any(home & set(_empires_of(t, k, v)) for k, v in named):
        return None
    return named[0]


def _named_card(t: Table, cards: list[str], words: list[str]) -> tuple[str, int] | None:
    """The card the longest leading span of `words` names, and how many words it took."""
    namer = PaxNamer(t)
    for end in range(len(words), 0, -1):
        span = " ".join(words[:end])
        scored = [(namer.score("card", c, span), c) for c in cards]
        top = max((s for s, _ in scored), default=0)
        best = [c for s, c in scored if s and s == top]
        if len(best) == 1:
            return best[0], end
    return None


def explain_op(t: Table, bank: str, side: str, used: list[str], line: str) -> Reason | None:
    words = clean_line(line).split()
    if len(words) < 2 or words[0] != "op":
        return None
    mine = tableau(t, bank)
    found = _named_card(t, sorted(set(mine) | set(player(t, bank)["hand"])), words[1:])
    if found is None:
        return None
    card_id, taken = found
    name, rest = card_name(t, card_id), words[1 + taken:]
    sides = ("east", "west") if side == "both" else (side,)
    if card_id not in mine:
        return _why("op_in_hand", card=name)
    if not any(card_id in side_cards(t, bank, s) for s in sides):
        return _why("op_wrong_side", card=name, side=side)
    if card_id in used:
        return _why("op_used", card=name)
    types = {str(cat(t).ops[o]["type"]): o for o in card_ops(t, card_id)}
    if not types:
        return _why("no_ops", card=name)
    word = rest[0] if rest and rest[0] in OP_RULE else None
    if word is None and len(types) == 1:
        word = next(iter(types))
    elif word is not None:
        rest = rest[1:]
    if word is None:
        return None
    if word not in types:
        return _why("no_such_op", card=name, op=Verbatim(word),
                    ops=Verbatim(", ".join(sorted(types))))
    if types[word] not in usable_ops(t, card_id):
        return _why("silenced", card=name)
    if word in LOCAL_OPS and (out := _outside(t, card_id, rest, LOCAL_OPS[word])):
        kind, value = out
        return _why("op_outside", place=_place_name(t, kind, value), card=name,
                    location=_location_words(t, card_id), rule=OP_RULE[word])
    return None


def explain_agent(t: Table, bank: str, args: dict[str, object], line: str) -> Reason | None:
    """An agent's placement (E2.2): its kind, the card's Location, a full city or border."""
    words = clean_line(line).split()
    if not words or words[0] == "skip":
        return None
    kind, card_id = str(args["type"]), str(args["card"])
    if words[0] in ("knight", "rook", "pirate", "pawn", "bishop") and words[0] != kind:
        return _why("agent_kind", kind=kind, line=Verbatim(f"{kind} PLACE"))
    if words[0] != kind or kind == "bishop":
        return None
    places = [(k, v) for k, v in _places(t, words[1:])
              if k == ("city" if kind in ("knight", "rook") else "border")]
    if not places:
        return None
    where_kind, where = places[0]
    place = _place_name(t, where_kind, where)
    home = set(location_empires(t, card_location(t, card_id)))
    if not home & set(_empires_of(t, where_kind, where)):
        return _why("agent_outside", place=place, card=card_name(t, card_id),
                    location=_location_words(t, card_id))
    if where in list(args.get("placed") or []):  # type: ignore[call-overload]
        return _why("agent_twice", place=place)
    florins = player(t, bank)["florins"]
    if where_kind == "city":
        occupant = t.state["cities"].get(where)
        if where not in [c for e in home for c in city_slots(t, e)]:
            return _why("busted", place=place)
        if occupant is not None and florins < 1:
            return _why("city_full_repress", place=place, token=describe_token(occupant),
                        bank=bank)
        return None
    content = t.state["borders"].get(where, {})
    if kind == "pirate" and not cat(t).borders[where].sea:
        return _why("land_border", place=place)
    if kind == "pawn" and "pirate" in content:
        return _why("pirate_border", place=place)
    if kind == "pawn" and "concession" in content and florins < 1:
        return _why("concession_repress", place=place, bank=bank)
    return None


def explain_levy(t: Table, empire_id: str, line: str) -> Reason | None:
    """A levy (G4, F4) goes into an empty city of the empire that raises it."""
    words = clean_line(line).split()
    if not words or words[0] != "levy":
        return None
    cities = [v for k, v in _places(t, words[1:]) if k == "city"]
    if not cities:
        return None
    city = cities[0]
    name, empire = city_name(t, city), cat(t).empires[empire_id].name
    if cat(t).cities[city].empire != empire_id:
        return _why("levy_other_empire", city=name, empire=empire)
    if city in t.state["cities"] and city not in empty_cities(t, empire_id):
        return _why("levy_full", city=name, token=describe_token(t.state["cities"][city]))
    return None


def explain_tax_answer(t: Table, bank: str, line: str) -> Reason | None:
    """F4: paying needs a florin; standing thresholds are 2 to 5."""
    words = clean_line(line).split()
    if words == ["pay"] and player(t, bank)["florins"] < 1:
        return _why("tax_no_florin", bank=bank)
    if words[:3] == ["standing", "taxed", "pay"] and len(words) == 4:
        return _why("standing_range", line=Verbatim(f"standing taxed pay {words[3]}"))
    return None
