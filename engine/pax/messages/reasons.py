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
    "reason:pax.no_fair_card": "the {side} row has no face-down trade-fair card in slot 0 to "
                               "convene (E5, G1)",
}
