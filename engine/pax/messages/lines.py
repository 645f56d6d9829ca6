"""Words beside a legal order line (engine.pax.lines_said): what sending it does."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "pax.line.buy": "buy card {column} of the {market} ({cost} florins)",
    "pax.line.sell": "sell {card}",
    "pax.line.play": "play {card} from your hand to your tableau",
    "pax.line.fair": "convene the {side} trade fair",
    "pax.line.ops": "run the ops of the {side} of your tableau",
    "pax.line.concession": "place your concession on {border}",
    "pax.line.no_concession": "place no concession",
    "pax.line.end": "end your turn",
    "pax.line.done": "finish this decision",
    "pax.line.skip": "skip",
    "pax.line.standing.pay": "standing answer when taxed: pay 1 florin whenever you can",
    "pax.line.standing.pay_holding":
        "standing answer when taxed: pay 1 florin while holding {florins} or more, else repress",
    "pax.line.standing.repress": "standing answer when taxed: repress the concession",
    "pax.line.standing.ask": "no standing answer: you will be asked whenever you are taxed",
    # why a line can never be taken back (pbem's takebacks, issue 24)
    "pax.final.refill": "'end' refills the market: after it this turn cannot be taken back.",
}
