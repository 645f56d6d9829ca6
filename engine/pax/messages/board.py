"""Words of the board: tokens, agents, trade fairs and levies, bishops, regime changes, upkeep."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # model.free_token (TOKEN MANAGEMENT)
    "pax.token.taken.repressed": "No {token} left: one repressed in {empire} is taken.",
    "pax.token.taken.city": "No {token} left: the one in {city} is taken.",
    "pax.token.taken.border": "No {token} left: the one on {border} is taken.",
    "pax.token.taken.card": "No {token} left: the one on a card is taken.",
    # agents (E2.2)
    "pax.agent.skip": "{bank:title} leaves {agent:a} of {card} unplaced.",
    "pax.agent.repress.city": "{bank:title} pays 1 florin to repress the {token} in {city}.",
    "pax.agent.repress.border":
        "{bank:title} pays 1 florin to repress the {token} on {border} into {empire}.",
    "pax.agent.place.city": "{bank:title} places {token:a} in {city}.",
    "pax.agent.place.border": "{bank:title} places {token:a} on {border}.",
    "pax.agent.pirate_kills": "The {pirate} kills the {victim} on {border}.",
    # trade fairs (E5, G)
    "pax.fair.convene.one": "{bank:title} convenes the {side} trade fair, discarding {card}; profits are "
                            "{profits} florin ({china} from China).",
    "pax.fair.convene.other": "{bank:title} convenes the {side} trade fair, discarding {card}; profits "
                              "are {profits} florins ({china} from China).",
    "pax.fair.subsidy_two": "{bank:title} takes a {subsidy}-florin emporium subsidy.",
    "pax.fair.subsidy": "{bank:title} takes the {subsidy}-florin subsidy.",
    "pax.fair.no_profits": "No profits remain: the voyage ends before it begins.",
    "pax.fair.left.one": "{profits} florin of profit is left for the next {side} fair.",
    "pax.fair.left.other": "{profits} florins of profit are left for the next {side} fair.",
    "pax.fair.voyage": "The voyage starts at {city}.",
    "pax.fair.earns.one": "{owner:title}'s concession on {border} earns {florins} florin.",
    "pax.fair.earns.other": "{owner:title}'s concession on {border} earns {florins} florins.",
    "pax.fair.pirate": "A {pirate} on {border} takes 1 florin for China.",
    "pax.fair.run_out": "The profits run out: the voyage ends at {border}.",
    "pax.fair.double": "{owner:title}'s concession counts double.",
    "pax.fair.spice_islands": "{owner:title}'s concession takes {times} times its profit in a Spice "
                              "Islands fair.",
    # levies (G4, F4)
    "pax.levy.saturated": "{empire} is saturated: no levy.",
    "pax.levy.lost": "The empire is saturated: the levy is lost.",
    "pax.levy.raised": "Levy: {token:a} is raised in {city}.",
    # bishops (E2.2a, F1): on a card, or on an empire's square in its throne
    "pax.bishop.places.card": "{bank:title} places {religion:a} bishop on {card}.",
    "pax.bishop.places.throne": "{bank:title} places {religion:a} bishop on {empire}'s throne.",
    "pax.bishop.moves.card": "{bank:title} moves {religion:a} bishop on {card}.",
    "pax.bishop.moves.throne": "{bank:title} moves {religion:a} bishop on {empire}'s throne.",
    "pax.bishop.diet_of_worms.card": "Diet of Worms: the {religion} bishop arriving on {card} and the "
                                     "{killed} bishop there kill each other.",
    "pax.bishop.diet_of_worms.throne": "Diet of Worms: the {religion} bishop arriving on {empire}'s "
                                       "throne and the {killed} bishop there kill each other.",
    "pax.bishop.immune.card": "{owner:title} is immune to silencing: {card} keeps its ops and abilities.",
    "pax.bishop.immune.throne": "{owner:title} is immune to silencing: {empire}'s throne keeps its ops "
                                "and abilities.",
    "pax.bishop.pacify.skip": "The bishop on {empire}'s square kills no repressed token.",
    "pax.bishop.pacify": "Pacification: the bishop on {empire}'s square kills a repressed {token}.",
    # regime change
    "pax.regime.bishop_discarded": "The bishop on {empire}'s square is discarded.",
    "pax.regime.queen_killed": "{empire}'s queen is killed in the regime change.",
    "pax.regime.vassal_freed": "{empire} is freed and returns to its throne.",
    "pax.regime.stays": "{empire} stays in {bank:title}'s tableau.",
    "pax.regime.strawman": "Strawman: {bank:title} flips {empire} to its {side} side.",
    "pax.regime.taken": "{empire} is taken from {ruler:title}'s tableau.",
    "pax.regime.vassal": "{empire} becomes a vassal of {suzerain} in {bank:title}'s tableau.",
    "pax.regime.king": "{empire} enters {bank:title}'s tableau as a King.",
    "pax.regime.concession.repress": "{bank:title} pays 1 florin to repress the {token} on {border}.",
    "pax.regime.concession": "{bank:title} gains a concession on {border}.",
    "pax.regime.enclosure": "Enclosure ends subsistence farming: a repressed token of the West goes free.",
    "pax.regime.emancipate": "{bank:title} emancipates {token:a} into {place}.",
    "pax.regime.golden_liberty": "Golden liberty: {empire} becomes medieval.",
    # pirates, places and the upkeep after every decision
    "pax.pirate.immune": "{owner:title}'s concession on {border} cannot be killed by pirates: the "
                         "{pirate} shares the border with it.",
    "pax.place.venice": "Venetian condottieri: Venice holds a second gold token.",
    "pax.upkeep.venice": "Venice no longer holds two tokens: the {token} there is discarded.",
    "pax.upkeep.stray": "{city} leaves the map: the {token} there is discarded.",
    "pax.upkeep.unprotected": "{owner:title} has lost its immunity to pirates: its concession on "
                              "{border} is killed by the pirate there.",
    "pax.upkeep.hand_discard": "{bank:title} has lost the larger hand size and discards a card from "
                               "their hand.",
}
