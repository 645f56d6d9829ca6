"""Age of Renaissance scenario starts (tests/scenarios/aor/<area>/<id>.yaml; the reference is
docs/scenarios.md). In short:

given:  players (3-6, seated ada ben cy dee eve fay), seed, options, start (board | setup),
        capitals {player: province} (default: 8.2's capitals in seat order), order (the Order of
        Play; default the seats), turn, epoch, hands {player: [card] or {label: card}},
        move [{card, to}], board {province: {marker, tokens {player: n}, new {player: n}}},
        patch {dotted.path: value}, at {phase, step, player}, dice [faces], cards [card ids]
orders: [{player, lines}], each one block
expect: as the Pax runner, plus hands {player: [card ids]} and cash {player: n}

`start: setup` is the real 8.1 deal from the seed (given may then hold only patch and dice);
`board` (the default) is a state just after setup: each capital holds its player's marker,
Epoch 1 forms the deck (with 5-6 players the 8.1 five are still set aside at turn 1), every
player has 40 ducats. `at` starts a phase through the real turn flow (its automatic steps run;
the phase's first decision is queued), optionally at a named step of it. Scripted `dice` and
`cards` answer die rolls and card draws in the order they happen; any other draw comes from
the seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.aor.actions.flow import PHASES, proceed, reset_flow
from engine.aor.board import _store, province, put_marker
from engine.aor.catalog import Catalog
from engine.aor.deck import epoch_cards
from engine.aor.model import add_to_hand, hand_cards, new_state, player, take_from_hand
from engine.aor.ruleset import AOR, check_options
from engine.core.chance import Chance, Draw, SeededChance
from engine.core.table import Event, Table
from pbem.play.scenarios.paths import (
    ScenarioError,
    ScenarioRules,
    check_keys,
    expect_that,
    get_path,
    set_path,
)
from pbem.rulesets import aor_catalog

NAMES = ("ada", "ben", "cy", "dee", "eve", "fay")
GIVEN_KEYS = ("players", "seed", "options", "start", "capitals", "order", "turn", "epoch",
              "hands", "move", "board", "patch", "at", "dice", "cards")
MOVE_KEYS = ("card", "to")
AT_KEYS = ("phase", "step", "player")
BOARD_KEYS = ("marker", "tokens", "new")
FACES = [str(face) for face in range(1, 7)]
CARD_ZONES = ("deck", "set_aside", "reusable", "removed")


@dataclass
class ScriptedChance:
    """Scripted dice and cards first, in the order drawn; the seed for anything else."""

    seeded: SeededChance
    dice: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    draws: list[Draw] = field(init=False)

    def __post_init__(self) -> None:
        self.draws = self.seeded.draws  # one list: scripted and seeded draws in order

    def pick(self, purpose: str, population: Sequence[str]) -> str:
        is_die = sorted(population) == FACES
        script = self.dice if is_die else self.cards
        if not script:
            return self.seeded.pick(purpose, population)
        outcome = script.pop(0)
        if outcome not in population:
            raise ScenarioError(f"scripted {'die' if is_die else 'card'} {outcome!r} cannot be "
                                f"drawn for {purpose!r} (from {sorted(population)[:8]}...)")
        self.seeded.draws.append(Draw(self.seeded.next_n, purpose, outcome))
        self.seeded.next_n += 1
        return outcome

    def label(self, n: int, purpose: str, length: int) -> str:
        return self.seeded.label(n, purpose, length)


def catalog() -> Catalog:
    found: Catalog = aor_catalog()
    return found


def seats(given: dict[str, Any]) -> list[str]:
    count = given["players"]
    if not isinstance(count, int) or not 3 <= count <= 6:
        raise ScenarioError(f"given.players: expected 3 to 6, got {count!r}")
    return list(NAMES[:count])


def _check_player(pid: Any, players: Sequence[str], where: str) -> str:
    if pid not in players:
        raise ScenarioError(f"{where}: unknown player {pid!r} (players: {', '.join(players)})")
    return str(pid)


def take_card(state: dict[str, Any], card: str) -> None:
    for zone in CARD_ZONES:
        if card in state[zone]:
            state[zone].remove(card)
            return
    for cards in state["epochs"].values():
        if card in cards:
            cards.remove(card)
            return
    for pid, data in state["players"].items():
        for label, held in data["hand"].items():
            if held == card:
                take_from_hand(state, pid, label)
                return
    raise ScenarioError(f"card {card} is in no zone it can be taken from")


def give_card(state: dict[str, Any], pid: str, card: str, label: str | None = None) -> None:
    if card not in catalog().cards:
        raise ScenarioError(f"unknown card {card!r}")
    take_card(state, card)
    if label is None:
        taken = {lab for data in state["players"].values() for lab in data["hand"]}
        number = 1
        while f"{pid}{number}" in taken:
            number += 1
        label = f"{pid}{number}"
    add_to_hand(state, pid, card, label)


def put_card(state: dict[str, Any], card: str, to: str) -> None:
    if card not in catalog().cards:
        raise ScenarioError(f"unknown card {card!r}")
    parts = to.split(".")
    if len(parts) == 3 and parts[0] == "players" and parts[2] == "hand":
        give_card(state, parts[1], card)
        return
    take_card(state, card)
    target = get_path(state, to)
    if not isinstance(target, list):
        raise ScenarioError(f"move: '{to}' is not a card zone")
    target.append(card)
    target.sort()


def board_state(given: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """A state just after setup (8.1-8.5 done), for `start: board`."""
    c = catalog()
    state = new_state(c, players)
    state.update(options=check_options(dict(given.get("options") or {})), over=False,
                 winners=[], result=None, draws=0, out=[],
                 flow={"index": 0, "queue": None, "asked": []})
    defaults = dict(zip(players, c.by_players[len(players)].capitals, strict=True))
    capitals = {**defaults, **(given.get("capitals") or {})}
    for pid, capital in capitals.items():
        _check_player(pid, players, "given.capitals")
        if capital not in c.provinces:
            raise ScenarioError(f"given.capitals: unknown province {capital!r}")
        player(state, pid)["capital"] = capital
        put_marker(c, state, pid, capital)
    state["capital_choosers"] = list(players)
    turn = int(given.get("turn", 1))
    aside = sorted(c.set_aside) if len(players) >= 5 and turn == 1 else []
    state.update(order=list(given.get("order") or players), turn=turn, phase="play_cards",
                 epoch=int(given.get("epoch", 1)), set_aside=aside,
                 deck=sorted(set(epoch_cards(c, 1)) - set(aside)),
                 epochs={str(e): epoch_cards(c, e) for e in (2, 3)})
    for pid in state["order"]:
        _check_player(pid, players, "given.order")
    return state


def place(state: dict[str, Any], where: str, spec: dict[str, Any], players: list[str]) -> None:
    c = catalog()
    if where not in c.provinces:
        raise ScenarioError(f"given.board: unknown province {where!r}")
    check_keys(f"given.board.{where}", spec, BOARD_KEYS)
    record = province(state, where)
    if "marker" in spec:
        if record["marker"] is not None:
            record["marker"] = None
            _store(state, where, record)
        if spec["marker"] is not None:
            put_marker(c, state, _check_player(spec["marker"], players, "given.board"), where)
        record = province(state, where)
    for zone in ("tokens", "new"):
        for pid, count in (spec.get(zone) or {}).items():
            _check_player(pid, players, f"given.board.{where}.{zone}")
            change = int(count) - int(record[zone].get(pid, 0))
            player(state, pid)["stock"] -= change
            record[zone][pid] = int(count)
    _store(state, where, record)


def build_table(given: dict[str, Any]) -> tuple[Table, ScriptedChance, list[Event]]:
    check_keys("given", given, GIVEN_KEYS, ("players", "seed"))
    players = seats(given)
    seeded = SeededChance(str(given["seed"]).encode(), "scenario", 0)
    chance = ScriptedChance(seeded, [str(d) for d in given.get("dice") or []],
                            [str(card) for card in given.get("cards") or []])
    events: list[Event] = []
    if given.get("start", "board") == "setup":
        table, events = AOR.setup(catalog(), "scenario", players,
                                  dict(given.get("options") or {}), chance)
    elif given.get("start", "board") == "board":
        table = Table(board_state(given, players), [], catalog())
    else:
        raise ScenarioError(f"given.start: expected board or setup, got {given['start']!r}")
    state = table.state
    for pid, cards in (given.get("hands") or {}).items():
        _check_player(pid, players, "given.hands")
        if isinstance(cards, dict):
            for label, card in cards.items():
                give_card(state, pid, str(card), str(label))
        else:
            for card in cards:
                give_card(state, pid, str(card))
    for index, move in enumerate(given.get("move") or []):
        check_keys(f"given.move[{index}]", move, MOVE_KEYS, MOVE_KEYS)
        put_card(state, str(move["card"]), str(move["to"]))
    for where, spec in (given.get("board") or {}).items():
        place(state, str(where), spec, players)
    for path, value in (given.get("patch") or {}).items():
        set_path(state, str(path), value)
    if "at" in given or not table.agenda:
        events += start_phase(table, given.get("at", "play_cards"), chance)
    state["draws"] = len(chance.draws)
    return table, chance, events


def start_phase(table: Table, at: Any, chance: ScriptedChance) -> list[Event]:
    at = {"phase": at} if isinstance(at, str) else at
    check_keys("given.at", at, AT_KEYS, ("phase",))
    phase = str(at["phase"])
    if phase not in PHASES:
        raise ScenarioError(f"given.at.phase: unknown phase {phase!r} (phases: {', '.join(PHASES)})")
    reset_flow(table, phase)
    if "step" in at:
        if at["step"] not in PHASES[phase]:
            raise ScenarioError(f"given.at.step: {phase} has no step {at['step']!r} "
                                f"(steps: {', '.join(PHASES[phase])})")
        table.state["flow"]["index"] = PHASES[phase].index(at["step"])
    if "player" in at:  # a per-player step starting at this player (those before have acted)
        order = table.state["order"]
        if at["player"] not in order or "players" not in PHASES[phase]:
            raise ScenarioError(f"given.at.player: {at['player']!r} is not in the order {order} "
                                f"or {phase} has no per-player step")
        table.state["flow"].update(index=PHASES[phase].index("players"),
                                   queue=order[order.index(at["player"]):])
    table.agenda.clear()
    return proceed(table, chance)


def check(table: Table, expect: dict[str, Any]) -> None:
    state = table.state
    for pid, cards in (expect.get("hands") or {}).items():
        held = hand_cards(state, pid)
        expect_that(held == sorted(cards), f"{pid}'s hand is {held}, expected {sorted(cards)}")
    for pid, cash in (expect.get("cash") or {}).items():
        found = state["players"][pid]["cash"]
        expect_that(found == cash, f"{pid} has {found} ducats, expected {cash}")
    if "over" in expect:
        expect_that(bool(state["over"]) == expect["over"], f"over is {state['over']}")
    if "winners" in expect:
        expect_that(state["winners"] == expect["winners"], f"winners are {state['winners']}")



def after_block(table: Table, chance: Chance) -> None:
    table.state["draws"] = len(chance.draws)


RULES = ScenarioRules(start=build_table, expect_keys=("hands", "cash", "over", "winners"),
                      check=check, after_block=after_block)
