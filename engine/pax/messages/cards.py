"""A Pax Renaissance card in plain words: what each op, one-shot and comet does (our own words).

Reports and `pbem cards` show a card as a player reads it, never as catalog ids: the ops come
from the op catalog's rows (type, region, religion, targets), the one-shot from the card's
parameters. Each op type and one-shot type has one sentence here; a test checks that every op
and one-shot in the data has words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.words import join_words, render

# What each op type does, said once; {region}, {religion} and {targets} come from the op row.
OPS: dict[str, str] = {
    "behead": "Behead: kill a tableau card of this card's location",
    "campaign": "Campaign: this king's knights attack an adjacent empire (a win makes it a vassal)",
    "commerce": "Commerce: take 1 florin from the {region:title} market",
    "corsair": "Corsair: move one of the {religion} pirates to an adjacent sea border, "
               "killing a concession or pirate there",
    "inquisitor": "Inquisitor: move the {religion} bishop to a nearby card (two bishops "
                  "kill each other)",
    "repress": "Repress: move a {targets:or} from this location's map to its empire square; "
               "gain 1 florin",
    "siege": "Siege: kill a knight, rook or pirate in this location",
    "tax": "Tax: tax a concession here; its owner pays 1 florin or it is repressed, then a "
           "levy is raised",
    "vote": "Vote: with the most concessions on its borders, take or flip an empire "
            "square of the {region:title} (regime change)",
}

# What playing the card triggers (its one-shot), by type; the card's parameters fill it in.
ONE_SHOTS: dict[str, str] = {
    "apostasy": "Apostasy: whoever holds both {religions:and} prestige discards those cards",
    "conspiracy": "Conspiracy: a civil war (agents, repressed knights and rooks, pirates) for "
                  "a regime change",
    "coronation": "Coronation: marry a king of {suitors:or} (a regime change)",
    "crusade": "Crusade: the {attacker} holy war against {defenders:and} for a regime change and a "
               "theocracy",
    "jihad": "Jihad: the {attacker} holy war against {defenders:and} for a regime change and a "
             "theocracy",
    "peasant_revolt": "Peasant revolt: a civil war (agents, concessions, repressed pawns, "
                      "pirates) for a regime change",
    "reformation": "Reformation: the {attacker} holy war against {defenders:and} for a regime change "
                   "and a theocracy",
    "trade_shift": "Trade shift: the {emporium} route's busted disk moves on",
}

COMET = ("Comet: buying it discards it (even with a full hand) and lets you activate an "
         "inactive victory square")


def _words(value: Any, last: str = "and") -> str:
    if isinstance(value, list | tuple):
        return join_words([_words(v) for v in value], last)
    return str(value).replace("_", " ")


def _title(name: str) -> str:
    return " ".join(w if w in ("of", "the") else w.capitalize() for w in name.split(" "))


def op_args(row: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of an op's words (message `pax.card.op.<type>`), from its op catalog row."""
    return {"region": _words(row.get("region", "")), "religion": _words(row.get("religion", "")),
            "targets": [_words(target) for target in row.get("targets", [])]}


def op_words(row: Mapping[str, Any]) -> str:
    """One op in words, from its op catalog row."""
    return render({"msg": f"pax.card.op.{row['type']}", "args": op_args(row)}, MESSAGES)


def one_shot_args(shot: Mapping[str, Any], empire_names: Mapping[str, str]) -> dict[str, Any]:
    """The arguments of a one-shot's words (message `pax.card.oneshot.<type>`)."""
    args: dict[str, Any] = {key: _words(value) for key, value in shot.items()}
    for key in ("religions", "defenders"):
        if key in shot:
            args[key] = [_words(v) for v in shot[key]]
    if "suitors" in shot:
        args["suitors"] = [empire_names.get(s, _title(_words(s))) for s in shot["suitors"]]
    if "emporium" in shot:
        args["emporium"] = _title(_words(shot["emporium"]))
    return args


def one_shot_words(shot: Mapping[str, Any] | None, empire_names: Mapping[str, str]) -> str | None:
    """A card's one-shot in words, or None."""
    if not shot:
        return None
    return render({"msg": f"pax.card.oneshot.{shot['type']}",
                   "args": one_shot_args(shot, empire_names)}, MESSAGES)


# The card words as a message catalog part (engine.pax.messages), so the edge can render them
# in another language like any event.
MESSAGES: dict[str, str] = {
    **{f"pax.card.op.{kind}": text for kind, text in OPS.items()},
    **{f"pax.card.oneshot.{kind}": text for kind, text in ONE_SHOTS.items()},
    "pax.card.comet": COMET,
    "pax.card.queen_of": "queen of {empire}",  # a crowned queen beside her King
    "pax.card.vassal_of": "vassal of {empire}",  # a vassal empire under its suzerain
}


def prestige_words(prestige: Sequence[str]) -> str:
    """'catholic, law' or 'none'."""
    return ", ".join(prestige) if prestige else "none"
