"""Words of the turn: setup, purchase, play, sale, the turn's actions, victory and game over."""

from __future__ import annotations

_OVER = "Game over: {winners[0]:title} wins the"


def _shared(count: int) -> str:
    """'Game over: A and B share the' for a victory shared by `count` banks."""
    names = " and ".join(f"{{winners[{i}]:title}}" for i in range(count))
    return f"Game over: {names} share the"


MESSAGES: dict[str, str] = {
    "pax.setup.seat": "Seat {seat} plays the {bank:title} bank.",
    "pax.setup.order": "{first:title} starts; turn order: {order}.",
    # purchase (E1) and comets (L1); `.taking` when florins lay on the card
    "pax.buy.card": "{bank:title} buys {card} from {side} {column} for {cost}.",
    "pax.buy.card.taking.one":
        "{bank:title} buys {card} from {side} {column} for {cost}, taking {florins} florin from it.",
    "pax.buy.card.taking.other":
        "{bank:title} buys {card} from {side} {column} for {cost}, taking {florins} florins from it.",
    "pax.buy.comet": "{bank:title} buys the comet {card} for {cost}; it is discarded.",
    "pax.buy.comet.taking.one":
        "{bank:title} buys the comet {card} for {cost}, taking {florins} florin from it; it is discarded.",
    "pax.buy.comet.taking.other":
        "{bank:title} buys the comet {card} for {cost}, taking {florins} florins from it; it is discarded.",
    "pax.buy.beyond_hand_limit": "{bank:title} has no hand limit and takes a card beyond the second.",
    "pax.market.exhausted": "The market cannot be refilled: both decks are empty.",
    # play (E2) and coronations (I)
    "pax.play.queen": "{bank:title} plays the queen {card}.",
    "pax.play.card": "{bank:title} plays {card} to the {side:title} of their tableau.",
    "pax.play.sold_oneshot": "Machiavellianism: {bank:title} resolves the one-shot of the sold {card}.",
    "pax.play.old_maid": "{card} becomes an Old Maid under {bank:title}'s player board.",
    # sale (E3)
    "pax.sell.for_four": "{card} sells for {florins} florins.",
    "pax.sell.square": "{bank:title} sells {card} for {florins} florins; {empire} returns to its throne.",
    "pax.sell.couple":
        "{bank:title} sells the royal couple {card} for {florins} florins; {empire} returns to its throne.",
    "pax.sell.from.hand": "{bank:title} sells {card} from their hand for {florins} florins.",
    "pax.sell.from.tableau": "{bank:title} sells {card} from their tableau for {florins} florins.",
    "pax.sell.from.old_maids": "{bank:title} sells {card} from their Old Maids for {florins} florins.",
    # the turn (D1)
    "pax.turn.free_ops": "{bank:title} runs the {side} ops without using an action.",
    "pax.turn.free_fair": "{bank:title}'s first trade fair this turn uses no action.",
    "pax.turn.end": "{bank:title} ends their turn.",
    "pax.turn.bankrupt": "{bank:title} is bankrupt and leaves the game (G6).",
    "pax.ops.both": "{bank:title} activates the ops of both sides of their tableau in one action.",
    "pax.ops.forced": "{card}'s {op} is the only legal op for {bank:title} now, so it runs by itself "
                      "(E4, R-511).",
    "pax.ops.side": "{bank:title} activates the ops of the {side:title} of their tableau.",
    # victory (L)
    "pax.victory.activate": "{bank:title} activates the {square} victory square.",
    "pax.victory.declare": "{bank:title} declares the {square} victory.",
    "pax.victory.count.republics": "The {square} count includes {count} Republic(s).",
    "pax.victory.count.patron_law": "The {square} count includes {count} Law prestige from Patron.",
    "pax.victory.count.patron_concessions":
        "The {square} count includes {count} concession(s) from Patron.",
    "pax.victory.count.patron_green_bishops":
        "The {square} count includes {count} green bishop(s) from Patron.",
    "pax.victory.count.green_pirates":
        "The {square} count includes {count} green pirate(s) also counted red.",
    "pax.victory.two_actions": "Declaring the {square} victory takes both actions of the turn.",
    # game over: a square's counts, singular or plural
    "pax.end.holy": f"{_OVER} holy victory with {{religion}} supreme and {{prestige}} "
                    "{religion:title} prestige.",
    "pax.end.holy.no_religion": f"{_OVER} holy victory with none supreme and {{prestige}} None prestige.",
    "pax.end.imperial.one": f"{_OVER} imperial victory with {{kings}} King.",
    "pax.end.imperial.other": f"{_OVER} imperial victory with {{kings}} Kings.",
    "pax.end.globalization.one": f"{_OVER} globalization victory with {{concessions}} concession and "
                                 "{discovery} Discovery prestige.",
    "pax.end.globalization.other": f"{_OVER} globalization victory with {{concessions}} concessions "
                                   "and {discovery} Discovery prestige.",
    "pax.end.renaissance.one": f"{_OVER} renaissance victory with {{republics}} Republic and {{law}} "
                               "Law prestige.",
    "pax.end.renaissance.other": f"{_OVER} renaissance victory with {{republics}} Republics and "
                                 "{law} Law prestige.",
    "pax.end.byzantine.one": f"{_OVER} byzantine victory with {{kings}} King and {{prestige}} "
                             "{religion:title} prestige.",
    "pax.end.byzantine.other": f"{_OVER} byzantine victory with {{kings}} Kings and {{prestige}} "
                               "{religion:title} prestige.",
    "pax.end.byzantine.no_religion.one": f"{_OVER} byzantine victory with {{kings}} King and "
                                         "{prestige} None prestige.",
    "pax.end.byzantine.no_religion.other": f"{_OVER} byzantine victory with {{kings}} Kings and "
                                           "{prestige} None prestige.",
    "pax.end.last_bank": f"{_OVER} last bank standing victory after bankruptcies.",
    "pax.end.patron": f"{_OVER} patron victory with {{patron}} Patron prestige and {{florins}} florins.",
    # a patron tie shares the victory among up to four banks (names joined as today: "A and B and C")
    **{f"pax.end.patron.shared.{n}": f"{_shared(n)} patron victory with {{patron}} Patron prestige "
                                     "and {florins} florins." for n in (2, 3, 4)},
}
