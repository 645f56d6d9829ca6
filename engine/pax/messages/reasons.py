"""Why a Pax Renaissance line is not legal now (engine.pax.explain), as keyed reasons
(engine.core.errors.Reason): the edge says them in the reader's language, citing the rule."""

from __future__ import annotations

REASONS: dict[str, str] = {
    "reason:pax.comet_left": "{card} has reached the leftmost slot of the {side} row: a comet "
                             "there is flipped and can no longer be bought (L1, Cometa Aster)",
    "reason:pax.fair_card": "{card} is the face-down trade-fair card ({slot}), which cannot be "
                            "bought (E1)",
    "reason:pax.usury": "usury: you paid a florin onto {card} this turn, so you may not buy it "
                        "(E1)",
    "reason:pax.cost": "{card} ({slot}) costs {column} florins and {bank} holds {florins} (E1)",
    "reason:pax.hand_full": "your hand is full: {cards} cards, the hand limit is {limit}; only a "
                            "comet may be bought now (E1, HAND)",
    "reason:pax.play_tableau": "{card} is in your tableau; only a card in your hand can be "
                               "played (E2)",
    "reason:pax.play_not_hand": "{card} is not in your hand; only a card in your hand can be "
                                "played (E2)",
    "reason:pax.sell_not_yours": "{card} is not yours: you may sell a card from your hand, "
                                 "tableau or Old Maids (E3)",
    "reason:pax.ops_used": "the {side} ops have already been activated this turn (E4: once per "
                           "side)",
    "reason:pax.ops_empty": "your {side} tableau has no cards, so it has no ops to activate (E4)",
    "reason:pax.ops_no_target": "no card in your {side} tableau has an op with a legal target "
                                "in its Location now (E4, LOCATION)",
    "reason:pax.square_inactive": "the {square} victory square is not active; a comet activates "
                                  "it (L1, E6)",
    "reason:pax.victory_used": "a victory can be declared once per turn (E6)",
    "reason:pax.victory_actions": "this victory needs both actions of the turn, and one is "
                                  "already used (E6, R-607)",
    "reason:pax.actions_used": "both actions of this turn are used; send 'end' (D1)",
    # inside a decision (engine.pax.explain_places)
    "reason:pax.op_in_hand": "{card} is in your hand; ops come from cards in your tableau (E4)",
    "reason:pax.op_wrong_side": "{card} is not in your {side} tableau; this action runs {side} "
                                "ops only (E4)",
    "reason:pax.op_used": "{card} has already run an op in this action (E4: one op per card)",
    "reason:pax.no_ops": "{card} has no ops (E4)",
    "reason:pax.no_such_op": "{card} has no {op} op; its ops: {ops} (E4)",
    "reason:pax.silenced": "{card} is silenced by a bishop: only its religious ops may run (F1f)",
    "reason:pax.op_outside": "{place} is outside {card}'s Location ({location}) (LOCATION, "
                             "{rule})",
    "reason:pax.agent_kind": "this agent is a {kind}; write '{line}' (E2.2)",
    "reason:pax.agent_outside": "{place} is outside the Location of {card} ({location}) (E2.2, "
                                "LOCATION)",
    "reason:pax.agent_twice": "another agent of this card is already in {place} (R-009)",
    "reason:pax.busted": "{place} is a busted emporium and holds no token (C1a)",
    "reason:pax.city_full_repress": "{place} is full (it holds {token:a}); repressing it costs 1 "
                                    "florin and {bank} holds 0 (E2.2)",
    "reason:pax.land_border": "{place} is a land border; a pirate goes on a sea border (E2.2c)",
    "reason:pax.pirate_border": "{place} holds a pirate; no concession may be placed there "
                                "(PIRATE)",
    "reason:pax.concession_repress": "{place} holds a concession; repressing it costs 1 florin "
                                     "and {bank} holds 0 (E2.2)",
    "reason:pax.levy_other_empire": "{city} is not a city of {empire}; the levy is raised in "
                                    "{empire} (G4)",
    "reason:pax.levy_full": "{city} is full (it holds {token:a}); a levy goes into an empty city "
                            "(G4)",
    "reason:pax.tax_no_florin": "paying the tax costs 1 florin and {bank} holds 0; the "
                                "concession is repressed (F4)",
    "reason:pax.standing_range": "'{line}': the florins held can be 2, 3, 4 or 5 (R-503)",
    "reason:pax.no_fair_card": "the {side} row has no face-down trade-fair card in slot 0 to "
                               "convene (E5, G1)",
    # victory shortfalls (L3-L6): the condition, the reader's number, what it needs
    "reason:pax.victory_not_met": "{square} victory not met ({rule}): {problems}",
    "reason:pax.victory_not_met_both": "{square} victory not met ({rule}): {first}; {second}",
    "reason:pax.shortfall": "{label}: {mine}, needs {needed} (more than {rival}'s {best})",
    "reason:pax.shortfall_by": "{label}: {mine}, needs {needed} ({margin} more than {rival}'s "
                               "{best})",
    "reason:pax.measure.prestige": "{kind} prestige",
    "reason:pax.measure.law_prestige": "Law prestige",
    "reason:pax.measure.discovery_prestige": "Discovery prestige",
    "reason:pax.measure.kings": "Kings",
    "reason:pax.measure.concessions": "concessions",
    "reason:pax.measure.republics": "Republics",
    "reason:pax.no_supreme_religion": "no religion is supreme (L3: most bishops and most tokens "
                                      "in its theocracies, each more than both other religions "
                                      "combined)",
    "reason:pax.no_leading_theocracy": "no religion has strictly the most theocracies (R-612)",
}
