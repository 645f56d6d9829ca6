"""The English message catalog of Age of Renaissance: event message id -> template (engine.core.words).

Ids start with "aor."; the templates are our own words. Rewording one changes reports, never
what the log proves.

A message that lists rows of parallel list arguments (players and their bids, say) is a
family with one template per row count, since a template cannot loop: `aor.order.tokens.4`
lists four rows, `{players[0]} {bids[0]}` to `{players[3]} {bids[3]}`. Code names the template
with `counted` and passes the lists through `rows`, which leaves an empty list out: the
template for no rows names none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

MOST = 6  # the most players, so the most rows a per-player list can have


def counted(family: str, *lists: Sequence[Any]) -> str:
    """The id of the family's template for as many rows as each list has."""
    return f"{family}.{'_'.join(str(len(items)) for items in lists)}"


def rows(**lists: Sequence[Any]) -> dict[str, Any]:
    """A counted message's list arguments, the empty ones left out."""
    return {name: list(items) for name, items in lists.items() if items}


def _rows(count: int, row: str, sep: str = ", ") -> str:
    """`count` copies of `row`, the `#` in each made that row's index."""
    return sep.join(row.replace("#", str(index)) for index in range(count))


def _family(family: str, counts: Iterable[tuple[int, ...]],
            template: Callable[..., str]) -> dict[str, str]:
    return {f"{family}.{'_'.join(map(str, count))}": template(*count) for count in counts}


def _upto() -> list[tuple[int, ...]]:
    """Every row count a per-player list can have, none included (an empty list has words too)."""
    return [(n,) for n in range(MOST + 1)]


def _winners(count: int) -> str:
    if count == 0:
        return "nobody wins"
    if count == 1:
        return "{winners[0]} wins"
    return _rows(count, "{winners[#]}", " and ") + " share the win"


def _game_over(reason: str) -> Callable[[int, int], str]:
    """11.2: the winners, then every score; the reason as the result kind says it."""
    def template(winners: int, scores: int) -> str:
        return (f"Game over ({reason}): {_winners(winners)}; scores "
                + _rows(scores, "{players[#]} {scores[#]}") + ".")
    return template


# Who won and how many were scored: nobody when nobody is left, else 1 to all of them.
_STANDINGS = [(0, 0)] + [(w, s) for s in range(1, MOST + 1) for w in range(1, s + 1)]


def _indulgence(tokens: int, ducats: int, misery: int) -> str:
    parts = [_rows(tokens, "{token_players[#]} {tokens[#]:+d} tokens"),
             _rows(ducats, "{ducat_players[#]} {ducats[#]:+d} ducats"),
             _rows(misery, "{misery_players[#]} +{misery[#]} misery")]
    return f"Holy Indulgence (F): {', '.join(p for p in parts if p)}."


_INDULGENCE = [(t, d, m) for t in range(MOST + 1) for d in range(t + 1) for m in range(t + 1)]

_DRAWS = {  # why a card is drawn: turn draw, bonus card, card for tokens, Urban Ascendancy, shortage
    "turn": "9.1", "bonus": "9.5.3 bonus card", "tokens": "9.5.1, paid in tokens",
    "urban": "Urban Ascendancy, {price} ducats", "shortage": "9.6.1 shortage",
}

MESSAGES: dict[str, str] = {
    # setup (8.1-8.5)
    "aor.setup.deal": "Age of Renaissance for {count} players: each is dealt three Epoch 1 cards "
                      "and returns one (8.1).",
    **_family("aor.setup.your_cards", _upto(),
              lambda n: "Your cards: " + _rows(n, "[{labels[#]}] {cards[#]}") + "."),
    "aor.setup.returned": "You return {card} to the deck.",
    "aor.setup.capital_bids_open": "Every player has returned a card (8.1). Sealed capital bids "
                                   "(8.3): waiting for every player.",
    **_family("aor.setup.capital_bids", _upto(),
              lambda n: "Capital bids (8.3): " + _rows(n, "{players[#]} {bids[#]}")
              + ". Capitals are chosen in this order: {queue}."),
    "aor.setup.capital": "{player} takes {province} as capital (8.3).",
    "aor.setup.tokens_open": "Sealed token purchase for turn 1 (8.5): waiting for every player.",
    # the Order of Play (9.7, Q)
    **_family("aor.order.tokens", _upto(),
              lambda n: "Token purchase: " + _rows(n, "{players[#]} {bids[#]}")
              + ". Order of Play for turn {turn}: {order}."),
    "aor.order.tokens_open": "Sealed token purchase (9.7): waiting for every player's bid.",
    "aor.order.swap": "{player} swaps places with {other} (Renaissance); the order is now {order}.",
    # card draws, private to the drawer
    **{f"aor.draw.{why}.none": f"No card is left for {{player}} to draw ({text})."
       for why, text in _DRAWS.items()},
    **{f"aor.draw.{why}.public": f"{{player}} draws a card ({text})." for why, text in _DRAWS.items()},
    **{f"aor.draw.{why}.private": f"You draw {{card}} [{{label}}] ({text})."
       for why, text in _DRAWS.items()},
    "aor.draw.set_aside": "The five set-aside cards join the deck (8.1).",
    # the markets (9.1, J, 9.6.1)
    "aor.market.removal": "{player} pays {cost} to remove {commodity:a} marker (9.1).",
    "aor.market.mill_shortage": "{player} moves {commodity} toward shortage (Wind/Watermill).",
    "aor.market.mill_surplus": "{player} moves {commodity} toward surplus (Wind/Watermill).",
    "aor.market.shortage": "Market roll (green {green}, black {black}, white {white}): shortage of "
                           "{commodities}.",
    "aor.market.surplus": "Market roll (green {green}, black {black}, white {white}): surplus of "
                          "{commodities}.",
    "aor.market.fine": "{player} pays {fine} for the surplus.",
    # buying cards (9.2)
    "aor.buy.discard": "{player} discards {card} (Master Art); {left} card(s) left in hand.",
    # playing cards (9.3, A)
    "aor.play.pass": "{player} passes.",
    "aor.play.done": "{player} has played every card they can.",
    "aor.play.card": "{player} plays {card}.",
    "aor.play.rebate": "{player} collects {rebate} (Printed Word).",
    "aor.play.obsolete": "{card} can no longer be played (7.2).",
    **_family("aor.play.payout", _upto(),
              lambda n: "{commodity:title} pays (9.3.1): "
              + (_rows(n, "{players[#]} {amounts[#]}") or "nobody") + "."),
    "aor.play.no_effect": "{card} has no effect: nothing it could pick.",
    **_family("aor.play.misery", _upto(),
              lambda n: "{card}: misery steps " + (_rows(n, "{players[#]} +{steps[#]}") or "nobody moves")
              + "."),
    "aor.play.gain_cash": "{player} receives {amount} ducats ({card}).",
    "aor.play.protect": "{player} is protected this turn (Enlightened Ruler).",
    "aor.play.military_advantage": "{player} has a military advantage this turn ({card}).",
    "aor.play.levy_cash": "{target} pays {paid} ducats to the bank ({card}).",
    "aor.play.civil_war": "Civil War strikes {target}: one misery step, the capital's marker becomes a "
                          "token, and they expand last.",
    "aor.play.civil_war_cash": "{player} loses {lost} ducats (Civil War).",
    "aor.play.civil_war_tokens": "{player} loses {lost} tokens (Civil War).",
    "aor.play.seize": "{player} takes {province} ({card}); one misery step.",
    "aor.play.reduce": "{owner}'s marker in {province} becomes a token ({card}).",
    "aor.play.black_death": "Black Death in Region {region}: {removed} tokens removed, {reduced} "
                            "markers reduced.",
    "aor.play.papal_decree": "Papal Decree: {group} Advances are barred to all but {player} this turn.",
    # War (A.2)
    "aor.war.declared": "{player} declares War on {target}.",
    "aor.war.roll": "War between {declarer} and {target}: {declarer} rolls {declarer_roll} "
                    "({declarer_total} in all), {target} rolls {target_roll} ({target_total} in all).",
    "aor.war.tied": "The War is tied: one misery step each; it goes on in the next Play Cards phase "
                    "(R16).",
    "aor.war.tied_final": "The War is tied: one misery step each; in the final card play it is "
                          "rolled again after each later player's cards, first after {next}'s, "
                          "{rolls} more roll(s) at most (11.1).",
    "aor.war.tied_drawn": "The War is tied: one misery step each; no player is left to play cards, "
                          "so the War ends in a draw (11.1).",
    "aor.war.won": "{winner} wins the War; {loser} owes {owed} province(s).",
    "aor.war.ended": "The War ends: a side is out of the game (R16).",
    "aor.war.cede": "{loser} cedes {province} to {winner}.",
    "aor.war.cannot_cede": "{loser} cannot cede {missing} province(s): {missing} misery step(s).",
    # acquisition (9.4)
    "aor.acquire.fleet": "{player} raises their fleet to {stage} box {box} (9.4.1).",
    "aor.acquire.advance": "{player} buys {advance} for {price} ducats.",
    "aor.acquire.advance_leader": "{player} buys {advance} with {leader} for {price} ducats.",
    "aor.acquire.stabilize_pay": "{player} pays {amount} ducats for stability (9.4.3).",
    "aor.acquire.stabilize_misery": "{player} takes {steps} misery step(s) instead of paying {cost} "
                                    "(9.4.3).",
    "aor.acquire.relief": "{player} moves {steps} step(s) down the Misery Index (9.4.3).",
    "aor.acquire.leaders_leave": "The leaders played this turn leave the game (7.3).",
    # expansion (9.5, F, H, N)
    "aor.expand.civil_war": "Civil War: {players} expand last this turn.",
    **_family("aor.expand.indulgence", _INDULGENCE, _indulgence),
    "aor.expand.done": "{player} ends their expansion.",
    "aor.expand.place": "{player} places {count} token(s) in {province}.",
    "aor.expand.convert": "{player} turns their marker in {province} into a token to free a marker "
                          "(9.5.2).",
    "aor.expand.cathedral_asked": "{player} attacks {province}; {defender} may answer with Cathedral.",
    "aor.expand.no_cathedral": "{player} does not use Cathedral.",
    "aor.standing.cathedral": "{player} uses Cathedral by standing answer.",
    "aor.standing.no_swap": "{player} does not swap places (Renaissance), by standing answer.",
    "aor.standing.renaissance_no": "Standing answer: you decline the Renaissance swap for the rest of "
                                   "this turn.",
    "aor.standing.renaissance_never": "Standing answer: you decline the Renaissance swap for the rest of "
                                      "the game.",
    "aor.standing.renaissance_ask": "Standing answer cleared: you will be asked about Renaissance again.",
    "aor.standing.cathedral_use": "Standing answer: you use Cathedral whenever you are asked to defend "
                                  "with it.",
    "aor.standing.cathedral_ask": "Standing answer cleared: you will be asked about Cathedral again.",
    "aor.expand.consolidate": "Tokens are turned over; full markets become domination markers (9.5.4).",
    "aor.battle.dice_wins": "{attacker} attacks {province} with {tokens} token(s) against {defenders} "
                            "(dice green {green}, black {black}, white {white}): {attacker} wins "
                            "({reason}).",
    "aor.battle.dice_loses": "{attacker} attacks {province} with {tokens} token(s) against {defenders} "
                             "(dice green {green}, black {black}, white {white}): {attacker} loses "
                             "({reason}).",
    "aor.battle.cathedral_wins": "{attacker} attacks {province} with {tokens} token(s) against "
                                 "{defenders} (Cathedral): {attacker} wins ({reason}).",
    "aor.battle.cathedral_loses": "{attacker} attacks {province} with {tokens} token(s) against "
                                  "{defenders} (Cathedral): {attacker} loses ({reason}).",
    "aor.trade.none": "{player} makes no trade (Written Record).",
    "aor.trade.public": "{player} trades a card with {victim} (Written Record).",
    "aor.trade.yours": "You give {given} to {victim} and take {taken} [{label}].",
    "aor.trade.theirs": "{player} gives you {given} [{label}] and takes {taken}.",
    # income (9.6)
    "aor.income.collects": "{player} collects {income} ducats.",
    "aor.income.collects_interest": "{player} collects {income} ducats and {interest} interest.",
    # the end (9.4.3, 11)
    "aor.end.eliminated": "{player} is out of the game: their misery passed the last space (9.4.3); "
                          "their pieces stay.",
    "aor.end.resigned": "{player} resigns (11.3): out of the game, their pieces stay.",
    "aor.end.resigned_cards": "{player} resigns (11.3): out of the game, their pieces stay; their "
                              "cards leave: {cards}.",
    "aor.end.final_play.advances": "The game ends this turn (all Advances): the final card play "
                                   "replaces the token purchase (11.1).",
    "aor.end.final_play.epoch": "The game ends this turn (Epoch {epoch} cards used up): the final "
                                "card play replaces the token purchase (11.1).",
    **_family("aor.end.game_over.last_standing", _STANDINGS, _game_over("last player standing")),
    **_family("aor.end.game_over.advances", _STANDINGS, _game_over("all Advances")),
    **_family("aor.end.game_over.epoch", _STANDINGS, _game_over("Epoch {epoch} cards used up")),
    **_family("aor.end.game_over.other", _STANDINGS, _game_over("{reason}")),
}


# What each decision asks, as an infinitive phrase that fits after "to" in every sentence
# naming it (pbem.words); `{their}`, `{they}` and `{them}` change with the reader.
DECISIONS: dict[str, str] = {
    "return": "return one of {their} three dealt cards to the deck (by label)",
    "capital_bid": "bid for the first choice of capital (sealed)",
    "capital": "choose {their} capital",
    "tokens": "buy tokens for the turn, which sets the Order of Play (sealed)",
    "renaissance": "swap places in the Order of Play (Renaissance) or not",
    "remove": "pay to remove shortage or surplus markers, then send done",
    "mill": "move one commodity toward shortage or surplus (Wind/Watermill) or not",
    "buy_cards": "buy a card (Urban Ascendancy), discard a card (Master Art), or pass",
    "play": "play a card, or pass",
    "choose": "choose what the event {they} played affects",
    "commodity": "choose which commodity the card pays",
    "lose": "lose half {their} recorded cash or half of this turn's tokens (Civil War)",
    "cede": "cede a province to the winner of the War",
    "acquire": "raise {their} fleet, buy Advances, then send done",
    "master_art": "discard a card (Master Art) or keep {their} hand",
    "stabilize": "pay for stability or take misery steps",
    "expand": "place tokens, attack, buy a card with tokens, then send done",
    "cathedral": "use Cathedral to win the battle against {them}, or not",
    "trade": "trade a card with the player whose marker {they} took (Written Record), or not",
}
