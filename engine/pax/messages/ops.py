"""Words of the ops (E4, F1-F9) and of the answers to a tax (F4)."""

from __future__ import annotations

_OP = "{bank:title} runs the {op} op of {card}: "  # every op's message starts so

MESSAGES: dict[str, str] = {
    "pax.op.borrowed": "Medici ciphers broken: {bank:title} runs the {op} op of {card} from an "
                       "opponent's tableau.",
    # inquisitor (F1): a bishop leaves a card or a throne for a card or a throne
    "pax.op.inquisitor.card.card": _OP + "the {religion} bishop leaves {from_card} for {to_card}.",
    "pax.op.inquisitor.card.throne":
        _OP + "the {religion} bishop leaves {from_card} for {to_empire}'s throne.",
    "pax.op.inquisitor.throne.card":
        _OP + "the {religion} bishop leaves {from_empire}'s throne for {to_card}.",
    "pax.op.inquisitor.throne.throne":
        _OP + "the {religion} bishop leaves {from_empire}'s throne for {to_empire}'s throne.",
    # commerce (F2)
    "pax.op.commerce": _OP + "1 florin taken from {source} ({region} {column}).",
    "pax.op.commerce.face_down": _OP + "1 florin taken from the face-down card ({region} {column}).",
    # behead (F3)
    "pax.op.behead.card": _OP + "{target} is beheaded and discarded.",
    "pax.op.behead.square": _OP + "{target} is beheaded; {empire} returns to its throne.",
    "pax.op.behead.square.queen":
        _OP + "{target} is beheaded; {empire} returns to its throne and its queen {queen} is killed.",
    "pax.op.behead.square.assassin":
        _OP + "{target} is beheaded; {empire} returns to its throne; the assassin {card} is killed too.",
    "pax.op.behead.square.queen.assassin":
        _OP + "{target} is beheaded; {empire} returns to its throne and its queen {queen} is killed; "
        "the assassin {card} is killed too.",
    "pax.op.behead.only.2": "{card} may behead only a card carrying {religions[0]:a} or {religions[1]} "
                            "bishop.",
    "pax.op.behead.only.3": "{card} may behead only a card carrying {religions[0]:a} or {religions[1]} "
                            "or {religions[2]} bishop.",
    # tax (F4) and its answers
    "pax.op.tax": _OP + "{owner:title}'s concession on {border} is taxed by {empire}; {owner:title} "
                  "must pay or repress it.",
    "pax.tax.pay": "{owner:title} pays 1 florin to China for the tax on {border}.",
    "pax.tax.repress": "{owner:title} represses their concession on {border}: it becomes a serf on "
                       "{empire}'s square.",
    "pax.standing.ask": "{bank:title} will be asked whenever their concessions are taxed.",
    "pax.standing.repress": "Standing answer: when taxed, {bank:title} will repress the concession.",
    "pax.standing.pay": "Standing answer: when taxed, {bank:title} will pay 1 florin whenever they can.",
    "pax.standing.pay_holding": "Standing answer: when taxed, {bank:title} will pay 1 florin while "
                                "holding {florins} or more, else repress.",
    # repress (F5)
    "pax.op.repress.city": _OP + "the {token} in {city} is repressed onto {empire}'s square; "
                           "{bank:title} gains 1 florin.",
    "pax.op.repress.border": _OP + "the {token} on {border} is repressed onto {empire}'s square; "
                             "{bank:title} gains 1 florin.",
    # vote (F6)
    "pax.op.vote": _OP + "{bank:title} wins the vote in {empire}.",
    "pax.op.vote.paying.one":
        _OP + "{bank:title} wins the vote in {empire}, paying {florins} florin for its repressed tokens.",
    "pax.op.vote.paying.other":
        _OP + "{bank:title} wins the vote in {empire}, paying {florins} florins for its repressed tokens.",
    "pax.op.vote.discount": "Patron prestige takes {florins} florin(s) off the vote.",
    "pax.op.vote.double": "Concessions counting double decide the majority.",
    # corsair (F7): the pirate kills what was on the border it sails to
    "pax.op.corsair": _OP + "the {pirate} sails from {source} to {goal}.",
    "pax.op.corsair.kills.1": _OP + "the {pirate} sails from {source} to {goal}, killing the "
                              "{victims[0]} there.",
    "pax.op.corsair.kills.2": _OP + "the {pirate} sails from {source} to {goal}, killing the "
                              "{victims[0]} and the {victims[1]} there.",
    # siege (F8)
    "pax.op.siege.city": _OP + "the {token} in {city} is killed.",
    "pax.op.siege.border": _OP + "the {token} on {border} is killed.",
    # campaign (F9)
    "pax.op.campaign.one": _OP + "{attacker} campaigns against {target} with {size} knight, paying "
                           "{size} florin.",
    "pax.op.campaign.other": _OP + "{attacker} campaigns against {target} with {size} knights, paying "
                             "{size} florins.",
    "pax.op.campaign.mamluks": "{count} token(s) repressed on the Mamluk square fight as knights.",
}
