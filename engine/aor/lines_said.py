"""What a legal Age of Renaissance order line does, as a message (id and arguments) from the
reader's view: the explanation a translated report prints beside the line. The line itself is
the order language and is never reworded; a line this does not know is shown without one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The words beside a line (their ids are in the ruleset's message catalog, so every language
# translates them like any other message).
LINE_MESSAGES: dict[str, str] = {
    "aor.line.return": "return {card} to the deck; keep the other two",
    "aor.line.bid": "bid {ducats} ducats for the first choice of capital",
    "aor.line.capital": "take {province} as your capital",
    "aor.line.tokens": "buy {count} tokens for this turn",
    "aor.line.tokens_none": "buy no tokens this turn",
    "aor.line.tokens_earlier": "buy no tokens; pay {ducats} ducats for an earlier place in the "
                               "Order of Play",
    "aor.line.swap_earlier": "swap places with the player before you (Renaissance)",
    "aor.line.swap_later": "swap places with the player after you (Renaissance)",
    "aor.line.no_swap": "do not swap places this time",
    "aor.line.renaissance_no": "do not swap (Renaissance) for the rest of this turn",
    "aor.line.renaissance_never": "do not swap (Renaissance) for the rest of the game",
    "aor.line.renaissance_ask": "ask me about the Renaissance swap each time",
    "aor.line.pay": "pay the base value of {commodity} to remove one of its marker levels",
    "aor.line.mill_shortage": "move {commodity} one level toward shortage (Wind/Watermill)",
    "aor.line.mill_surplus": "move {commodity} one level toward surplus (Wind/Watermill)",
    "aor.line.no_mill": "do not use Wind/Watermill",
    "aor.line.buy_card": "buy a card from the deck",
    "aor.line.discard": "discard {card}",
    "aor.line.play": "play {card}",
    "aor.line.pass": "play or buy no more cards now",
    "aor.line.target": "aim the card at {player}",
    "aor.line.province": "choose {province}",
    "aor.line.region": "choose region {region}",
    "aor.line.group": "choose the {group} group of Advances",
    "aor.line.commodity": "take the payout for {commodity}",
    "aor.line.lose_cash": "lose half of your recorded cash",
    "aor.line.lose_tokens": "lose half of this turn's tokens",
    "aor.line.cede": "cede {province} to the winner",
    "aor.line.fleet": "raise your fleet one stage",
    "aor.line.buy": "buy the Advance {advance}",
    "aor.line.buy_with": "buy the Advance {advance} with {leader}'s discount",
    "aor.line.keep": "keep all your cards",
    "aor.line.stabilize_pay": "pay ducats for the cards in your hand",
    "aor.line.stabilize_misery": "take misery steps instead of paying for your cards",
    "aor.line.place": "place {count} tokens in {province}",
    "aor.line.attack": "attack {province}",
    "aor.line.attack_cathedral": "attack {province}, using Cathedral",
    "aor.line.convert": "convert your marker in {province} into tokens",
    "aor.line.cathedral": "defend with Cathedral",
    "aor.line.no_cathedral": "defend without Cathedral",
    "aor.line.cathedral_use": "always defend with Cathedral when asked",
    "aor.line.cathedral_ask": "ask me about Cathedral each time",
    "aor.line.trade": "give {card} in trade",
    "aor.line.no_trade": "trade nothing",
    "aor.line.done": "finish this step",
    "aor.line.resign": "resign from the game",
}

_FIXED = {
    "fleet": "aor.line.fleet", "keep": "aor.line.keep", "no swap": "aor.line.no_swap",
    "no mill": "aor.line.no_mill", "buy card": "aor.line.buy_card", "pass": "aor.line.pass",
    "no trade": "aor.line.no_trade", "cathedral": "aor.line.cathedral",
    "no cathedral": "aor.line.no_cathedral", "done": "aor.line.done", "resign": "aor.line.resign",
    "lose cash": "aor.line.lose_cash", "lose tokens": "aor.line.lose_tokens",
    "swap earlier": "aor.line.swap_earlier", "swap later": "aor.line.swap_later",
    "stabilize pay": "aor.line.stabilize_pay", "stabilize misery": "aor.line.stabilize_misery",
    "standing renaissance no": "aor.line.renaissance_no",
    "standing renaissance never": "aor.line.renaissance_never",
    "standing renaissance ask": "aor.line.renaissance_ask",
    "standing cathedral use": "aor.line.cathedral_use",
    "standing cathedral ask": "aor.line.cathedral_ask",
}
# One argument after the verb, said as this field.
_ONE = {"capital": ("capital", "province"), "target": ("target", "player"),
        "province": ("province", "province"), "region": ("region", "region"),
        "group": ("group", "group"), "commodity": ("commodity", "commodity"),
        "cede": ("cede", "province"), "attack": ("attack", "province"),
        "convert": ("convert", "province"), "pay": ("pay", "commodity"),
        "discard": ("discard", "card"), "play": ("play", "card")}


def _said(msg: str, **args: Any) -> dict[str, Any]:
    return {"msg": msg, "args": args}


def _hand_card(view: Mapping[str, Any], label: str) -> str | None:
    viewer = view.get("viewer")
    hand = dict(view.get("players", {}).get(viewer, {}).get("hand") or {})
    found = hand.get(label)
    return str(found["name"]) if isinstance(found, Mapping) and "name" in found else None


def _number(word: str) -> int | None:
    try:
        return int(word)
    except ValueError:
        return None


def line_said(view: Mapping[str, Any], line: str) -> dict[str, Any] | None:
    words = line.split()
    if not words:
        return None
    if " ".join(words) in _FIXED:
        return _said(_FIXED[" ".join(words)])
    verb, rest = words[0], " ".join(words[1:])
    if verb in ("return", "trade") and len(words) == 2:
        card = _hand_card(view, rest)
        return _said(f"aor.line.{verb}", card=card) if card else None
    if verb in ("bid", "tokens") and len(words) == 2 and (n := _number(rest)) is not None:
        if verb == "bid":
            return _said("aor.line.bid", ducats=n)
        if n == 0:
            return _said("aor.line.tokens_none")
        return _said("aor.line.tokens", count=n) if n > 0 else \
            _said("aor.line.tokens_earlier", ducats=-n)
    if verb == "mill" and len(words) == 3 and words[2] in ("shortage", "surplus"):
        return _said(f"aor.line.mill_{words[2]}", commodity=words[1])
    if verb == "place" and len(words) >= 3 and (n := _number(words[1])) is not None:
        return _said("aor.line.place", count=n, province=" ".join(words[2:]))
    if verb == "attack" and len(words) >= 3 and words[-1] == "cathedral":
        return _said("aor.line.attack_cathedral", province=" ".join(words[1:-1]))
    if verb == "buy" and rest:
        advance, _, leader = rest.partition(" with ")
        return _said("aor.line.buy_with", advance=advance, leader=leader) if leader else \
            _said("aor.line.buy", advance=advance)
    if verb in _ONE and rest:
        msg, field = _ONE[verb]
        return _said(f"aor.line.{msg}", **{field: rest})
    return None


# Why a line can never be taken back (pbem's takebacks, issue 24): it rolls or draws at once.
# Read from the line alone: an attack rolls the battle's dice (9.5.2) unless a Cathedral
# settles it (the attacker's `attack X cathedral` rolls none; a defender who may use one is
# asked first), and `buy card` draws from the deck (9.4). A line that ends a phase may lead to
# a draw too; a takeback past any draw is refused from the log whatever the report said.
FINAL_MESSAGES: dict[str, str] = {
    "aor.final.attack": "'attack' rolls the dice unless a defender answers with Cathedral: "
                        "after the roll this turn cannot be taken back.",
    "aor.final.buy_card": "'buy card' draws from the deck: after it this turn cannot be taken "
                          "back.",
}


def line_final(line: str) -> dict[str, Any] | None:
    """Why sending this line can never be taken back, as a message (or None)."""
    words = line.strip().lower().split()
    if words[:1] == ["attack"] and words[-1] != "cathedral":
        return {"msg": "aor.final.attack", "args": {}}
    if words == ["buy", "card"]:
        return {"msg": "aor.final.buy_card", "args": {}}
    return None
