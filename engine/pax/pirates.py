"""A pirate arriving on a sea border (E2.2c agent placement, F7 corsair): it kills the
concession or pirate there, except a concession whose owner's concessions cannot be killed by
pirates (Tersâne-i Âmire, Dalmatian Merchant Marine): the two then share the border (PIRATE,
Arsenal/Dalmatians). Losing the ability kills such a concession (engine.pax.upkeep)."""

from __future__ import annotations

from engine.core.table import Event, Table
from engine.pax.abilities import Ability, ability_event, has_ability
from engine.pax.model import cat, concession_owner, describe_token, remove_from_border


def pirate_arrives(t: Table, tok: str, border_id: str) -> tuple[list[str], list[Event]]:
    """Put the pirate there; returns the tokens it killed and the ability events."""
    border = cat(t).borders[border_id].name
    events: list[Event] = []
    victims: list[str] = []
    content = t.state["borders"].get(border_id, {})
    for role in list(content):
        owner = concession_owner(t, border_id) if role == "concession" else None
        if owner is not None and has_ability(t, owner, Ability.CONCESSIONS_IMMUNE_TO_PIRATES):
            events.append(ability_event(Ability.CONCESSIONS_IMMUNE_TO_PIRATES, "pax.pirate.immune",
                                        owner=owner, border=border, pirate=describe_token(tok)))
            continue
        victims.append(content[role])
        remove_from_border(t, border_id, role)
    t.state["borders"].setdefault(border_id, {})["pirate"] = tok
    t.state["borders"] = dict(sorted(t.state["borders"].items()))
    return victims, events
