"""Why an Age of Renaissance line is not legal now, as keyed reasons
(engine.core.errors.Reason): the edge says them in the reader's language, citing the rule."""

from __future__ import annotations

from typing import Any

from engine.core.errors import Reason, because

REASONS: dict[str, str] = {
    "reason:aor.out_of_reach": "{province} is out of {player}'s reach",
    "reason:aor.out_of_reach_rule": "{province} is out of {player}'s reach (9.5, 9.4.1)",
    "reason:aor.no_opponent": "no opponent is in {province}",
    "reason:aor.attack_tokens": "attacking {province} needs {needed} more tokens; {player} has "
                                "{held}",
    "reason:aor.fleet_carries": "the fleet carries at most {limit} tokens into {province} this "
                                "turn",
    "reason:aor.no_marker": "{player} has no domination marker left; convert one first",
    "reason:aor.cathedral_attack": "Cathedral cannot be declared against the defenders of "
                                   "{province}: used against them this turn, or they own it too "
                                   "(H, R21)",
    "reason:aor.has_room": "{province} has room: place tokens there instead of attacking",
    "reason:aor.no_placement": "{player} cannot place tokens in {province} without a battle, or "
                               "has no tokens or fleet capacity left for it",
    "reason:aor.placement_limit": "{player} may place 1 to {limit} tokens in {province} now",
    "reason:aor.owns_advance": "{player} already owns {advance}",
    "reason:aor.needs_first": "{advance} needs {missing:and} first",
    "reason:aor.papal_decree": "Papal Decree bars {group} Advances to {player} this turn",
    "reason:aor.no_discount": "{leader} gives {player} no discount on {advance} now",
    "reason:aor.advance_cost": "{advance} costs {cost} ducats; {player} has {cash}",
    "reason:aor.fleet_once": "the fleet rises one box a turn, for {cost} ducats, before any "
                             "Advance is bought (9.4.1)",
    "reason:aor.advance_could_be": "'{wanted}' could be {names:or}",
    "reason:aor.no_advance": "no Advance is called '{wanted}'",
    "reason:aor.no_leader": "no leader is called '{wanted}'",
    "reason:aor.capital_bid_negative": "a capital bid cannot be negative (8.3)",
    "reason:aor.capital_bid_cash": "a capital bid of {n} ducats is more than the {cash} ducats "
                                   "you hold (8.3)",
    "reason:aor.tokens_cash": "tokens {n} costs {cost} ducats and you hold {cash} (9.7: the "
                              "size of the bid is paid)",
}


def why(key: str, **fields: Any) -> Reason:
    """The reason `reason:aor.KEY` with its fields."""
    return because(REASONS, f"reason:aor.{key}", **fields)
