"""Words of the one-shots (E2.1, H-K), the ability actions that launch them, and battles."""

from __future__ import annotations

# What each one-shot and each battle is called.
ONE_SHOTS = {
    "apostasy": "apostasy", "conspiracy": "conspiracy", "coronation": "coronation",
    "crusade": "crusade", "jihad": "jihad", "peasant_revolt": "peasant revolt",
    "reformation": "reformation", "trade_shift": "trade shift",
}
BATTLES = {kind: ONE_SHOTS.get(kind, kind) for kind in
           ("campaign", "conspiracy", "crusade", "jihad", "peasant_revolt", "reformation")}
THEOCRACIES = {"catholic": "a catholic", "islamic": "an islamic", "reformist": "a reformist"}

_NOBODY = "nobody"
_FIGHTERS = "{attacker_count} attacker(s) - {attackers} - against {defender_count} defender(s) - {defenders}"


def _sides(template: str) -> dict[str, str]:
    """A message naming both sides of a battle, and its variants where a side has nobody."""
    return {
        "": template,
        ".no_attackers": template.replace("{attackers}", _NOBODY),
        ".no_defenders": template.replace("{defenders}", _NOBODY),
        ".no_attackers.no_defenders":
            template.replace("{attackers}", _NOBODY).replace("{defenders}", _NOBODY),
    }


_KILLED = _sides("Killed: defenders {defenders}; attackers {attackers}.")
del _KILLED[".no_attackers.no_defenders"]  # a battle without deaths has its own words

MESSAGES: dict[str, str] = {
    # the one-shot decision (E2.1)
    **{f"pax.play.no_oneshot.{kind}": f"{{card}} is played without its {word} one-shot."
       for kind, word in ONE_SHOTS.items()},
    # civil wars (J) and religious wars (K1)
    **{f"pax.oneshot.launch.{kind}": f"{{bank:title}} launches the {ONE_SHOTS[kind]} of {{card}} in "
       "{empire}." for kind in ("conspiracy", "peasant_revolt")},
    **{f"pax.oneshot.holy_war.{kind}": f"{{bank:title}} launches the {ONE_SHOTS[kind]} of {{card}} in "
       "{empire}: {religion} believers against the heretics." for kind in ("crusade", "jihad",
                                                                           "reformation")},
    "pax.oneshot.revolt_by_queen": "{bank:title} discards {card} to launch a peasant revolt in {empire}.",
    "pax.oneshot.crusade_rooks": "{count} adjacent gold rook(s) join the crusade as knights.",
    "pax.oneshot.not_adjacent": "Portugal and France are not adjacent: the knights of {empire} stay out "
                                "of the war.",
    # trade shift (H1)
    "pax.oneshot.trade_shift": "{bank:title} triggers the trade shift of {card}: the busted disk moves "
                               "from {source} to {goal}.",
    "pax.oneshot.trade_shift.repressed": "The {token} in {city} is repressed onto {empire}'s square for "
                                         "free.",
    "pax.oneshot.trade_shift.fairs": "{side:title} trade fairs now start at {city}.",
    # a new theocracy's city of several slots (K2)
    "pax.oneshot.arranged": "{city}'s tokens keep their city; the free slots show {levies} levies.",
    # coronation (I): the King was on his throne, in an opponent's tableau or in the player's own
    "pax.coronation.star_chamber": "Star Chamber: {bank:title} claims the King of {empire}.",
    "pax.coronation.rival": "{card} is set aside and discarded.",
    "pax.coronation.throne": "{bank:title} crowns {card}: she marries the King of {empire} from his "
                             "throne, forming a royal couple.",
    "pax.coronation.opponent": "{bank:title} crowns {card}: she marries the King of {empire} from an "
                               "opponent's tableau, forming a royal couple.",
    "pax.coronation.own": "{bank:title} crowns {card}: she marries the King of {empire} in their "
                          "tableau, forming a royal couple.",
    "pax.coronation.not_adjacent": "{card} is crowned: Portugal and France are no longer adjacent.",
    # apostasy (K3)
    "pax.apostasy.trigger": "{bank:title} triggers the apostasy of {card}: every tableau with both "
                            "{first} and {second} prestige is put on trial.",
    "pax.apostasy.called": "{bank:title} uses {card} to call an apostasy: every tableau with both "
                           "{first} and {second} prestige is put on trial.",
    "pax.apostasy.immune": "{bank:title} is immune to apostasy and discards nothing.",
    "pax.apostasy.loses": "Apostasy: {bank:title} holds both {first} and {second} prestige and loses "
                          "{cards}.",
    "pax.apostasy.nobody": "Apostasy: no tableau holds both {first} and {second} prestige; nobody "
                           "discards.",
    "pax.apostasy.discarded": "{card} is discarded.",
    "pax.apostasy.home": "{empire} returns to its throne.",
    "pax.apostasy.home.vassal": "{empire} returns to its throne, with its vassal {vassals}.",
    "pax.apostasy.home.vassals": "{empire} returns to its throne, with its vassals {vassals}.",
    "pax.apostasy.home.couple": "{empire} and its queen {queen} return to their throne, still married.",
    "pax.apostasy.home.couple.vassal": "{empire} and its queen {queen} return to their throne, still "
                                       "married, with its vassal {vassals}.",
    "pax.apostasy.home.couple.vassals": "{empire} and its queen {queen} return to their throne, still "
                                        "married, with its vassals {vassals}.",
    # battles (BATTLE): each kind of battle, and "nobody" for a side without fighters
    **{f"pax.battle.start.{kind}{variant}": template
       for kind, word in BATTLES.items()
       for variant, template in _sides(f"Battle in {{empire}} ({word}): {_FIGHTERS}.").items()},
    **{f"pax.battle.killed{variant}": template for variant, template in _KILLED.items()},
    "pax.battle.no_kills": "Nobody is killed: no defender stands against the attackers.",
    "pax.battle.lost": "No attacker survives: the attack fails.",
    "pax.battle.won.move": "Victorious! Survivors: {survivors}. Agents and repressed tokens move into "
                           "{empire}.",
    "pax.battle.won.stay": "Victorious! Survivors: {survivors}. Tokens on the map stay where they are.",
    "pax.battle.won.move.stay": "Victorious! Survivors: {survivors}. Agents and repressed tokens move "
                                "into {empire}. Tokens on the map stay where they are.",
    "pax.battle.survivor.lost": "The surviving {token} finds no free sea border in {empire} and is lost.",
    "pax.battle.survivor.repressed": "No room in {empire}: the surviving {token} is repressed there for "
                                     "free.",
    "pax.battle.survivor.placed": "The surviving {token} goes to {place}.",
    # a religious war's victory makes a theocracy (K2)
    **{f"pax.battle.theocracy.remains.{religion}": f"{{empire}} remains {a} theocracy."
       for religion, a in THEOCRACIES.items()},
    **{f"pax.battle.theocracy.becomes.{religion}": f"{{empire}} becomes {a} theocracy; its ruling "
       "class keeps its cities." for religion, a in THEOCRACIES.items()},
}
