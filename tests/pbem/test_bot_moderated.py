"""A bot seat in a moderated Age of Renaissance game (issue 24 §3): the bot decides from its
seat's own legal lines, and what it is handed holds no other player's secret: no card or label
of another hand, no card of the deck, never the seed. Over three full rounds played by the
host's cron runs (`pbem timeout`, the secrets file beside the game), its sealed bids too."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.core.adjudicate import options_now
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.pipeline.opening import open_game
from pbem.play import bot
from pbem.play.policy import GreedyPolicy, Policy
from pbem.play.seat_greedy import choose_on_view
from pbem.play.selfplay_moderated import strings_in
from tests import fast_yaml
from tests.pbem.test_bot import keys_by_seat
from tests.reliability.kit import copy_game, key_of, ok, pbem, signed, status, verified

ROUNDS = 3


def secrets_of_others(game: Any, seat: str) -> set[str]:
    """Every word that would tell `seat` a secret: the labels and cards of the other hands and
    the cards of the deck (those the seat holds itself aside), and the seed."""
    state = game.table().state
    own = state["players"][seat]["hand"]
    hidden = {word for other, data in state["players"].items() if other != seat
              for label, card in data["hand"].items() for word in (label, card)}
    hidden |= set(state["deck"])
    return (hidden - set(own) - set(own.values())) | {str(game.seed)}


VIEW = ["(the position the policy reasons on)"]


def record_inputs(monkeypatch: pytest.MonkeyPatch,
                  seat: str | None = None) -> list[tuple[list[str], list[str]]]:
    """What the policy is handed for `seat` (None: any seat), each time: the lines, and the
    words in them that are another player's secret; and where it is handed a position (greedy
    on the seat's own view), VIEW and the words of that position that are another's secret."""
    handed: list[tuple[list[str], list[str]]] = []
    secret: dict[str, set[str]] = {}
    original, choose = bot.pick, GreedyPolicy.choose

    def recording(policy: Policy, game: Any, seat_: str, options: list[Any],
                  table: Any) -> object:
        secret.clear()
        if seat in (None, seat_):
            lines, secret["words"] = [str(c.line) for c in options], secrets_of_others(game, seat_)
            handed.append((lines, [word for line in lines
                                   for word in re.findall(r"[\w.-]+", line)
                                   if word in secret["words"]]))
        return original(policy, game, seat_, options, table)

    def viewing(policy: GreedyPolicy, ruleset: Any, table: Any, who: str,
                options: list[Any]) -> object:
        if "words" in secret:
            shown = strings_in(table.state) | strings_in(table.agenda)
            handed.append((VIEW, sorted(shown & secret["words"])))
        return choose(policy, ruleset, table, who, options)

    monkeypatch.setattr(GreedyPolicy, "choose", viewing)
    monkeypatch.setattr(bot, "pick", recording)
    return handed


def test_in_a_moderated_game_with_hidden_hands_the_policy_sees_only_the_seats_view(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exactly what the seat's report lists, and greedy reasons on the seat's own view of the
    position: no other player's secret in either."""
    game = copy_game("aor", tmp_path)
    keys = keys_by_seat(game, tmp_path)
    handed = record_inputs(monkeypatch)
    views = 0
    for _ in range(12):
        seat = str(status(game)["waiting_for"][0])  # type: ignore[index]
        lines = json.loads(ok("options", str(game), "--for", seat, "--json"))["lines"]
        ok("bot", str(game), "--seat", seat, "--key", str(keys[seat]), "--apply")
        assert handed and handed[0] == (lines, [])
        assert [leaks for _, leaks in handed] == [[]] * len(handed)
        views += sum(1 for what, _ in handed if what == VIEW)
        handed.clear()
    assert views  # greedy (the default) chose on a view: a decision of several lines
    assert verified(game)


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_greedy_not_random_plays_a_hidden_hands_seat(tmp_path: Path, policy: str) -> None:
    """With hidden hands `pbem bot --policy greedy` picks by the greedy policy on the seat's
    view (pbem.play.seat_greedy), not at random: its choice is greedy's on that view, with the
    bot's own seed; `--policy random` stays random."""
    game = copy_game("aor", tmp_path)
    keys = keys_by_seat(game, tmp_path)
    compared = 0
    for _ in range(20):
        seat = str(status(game)["waiting_for"][0])  # type: ignore[index]
        opened = open_game(game)
        table = opened.table()
        options = bot.playable(options_now(opened.ruleset, table, seat))
        line = ok("bot", str(game), "--seat", seat, "--key", str(keys[seat]), "--policy",
                  policy).split("\n")[6]  # the block's first order line
        chooser = bot.new_policy(policy, opened, seat)
        if len(options) > 1:
            if policy == "greedy":
                assert isinstance(chooser, GreedyPolicy)
                expected = choose_on_view(chooser, opened.ruleset, table, seat, options)
            else:
                expected = chooser.rng.choice(options)
            assert expected is not None and line == expected.line
            compared += 1
        ok("bot", str(game), "--seat", seat, "--key", str(keys[seat]), "--apply", "--policy",
           policy)
    assert compared >= 3


def test_a_bot_seat_plays_three_rounds_of_moderated_aor_seeing_no_other_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = copy_game("aor", tmp_path)
    seat = str(status(game)["waiting_for"][0])  # type: ignore[index]
    bots = tmp_path / "g.bots"
    bots.mkdir()
    write_keypair(bots / "robot", "Robot", "robot@example.org")
    fingerprint = parse_public_key((bots / "robot.pub").read_text()).fingerprint()
    ok("apply", str(game), str(signed(game, seat, [f"bot on {fingerprint}"])))
    handed = record_inputs(monkeypatch, seat)
    by_bot = 0
    for _ in range(400):  # the host's runs: the bot seat by cron, the others' bots by hand
        now = status(game)
        if int(now["turn"]) > ROUNDS:  # type: ignore[call-overload]
            break
        owed = list(now["waiting_for"])  # type: ignore[call-overload]
        if seat in owed:
            by_bot += ok("timeout", str(game)).count(f": {seat} (bot): ")
            assert seat not in status(game)["waiting_for"]  # type: ignore[operator]
        else:
            ok("bot", str(game), "--seat", owed[0], "--key", str(key_of(game, owed[0])),
               "--apply", "--policy", "random")
    assert int(status(game)["turn"]) == ROUNDS + 1  # type: ignore[call-overload]
    assert handed and by_bot >= 3 * ROUNDS
    assert not [leak for _, leaks in handed for leak in leaks]
    log = fast_yaml.safe_load(game.read_text())["log"]
    robot = parse_public_key((bots / "robot.pub").read_text()).roster_text()
    sealed = [e for e in log if e["kind"] == "sealed" and e["player"] == seat]
    assert len(sealed) >= ROUNDS  # its bids, sealed as any player's, signed by the bot's key
    assert all(e.get("bot") == robot for e in log
               if e["kind"] in ("orders", "sealed") and e.get("player") == seat)
    assert verified(game)
    # verify checks the bot's key of a sealed answer against the handover, as of an order
    data = fast_yaml.safe_load(game.read_text())
    own = parse_public_key(key_of(game, seat).with_suffix(".pub").read_text()).roster_text()
    next(e for e in data["log"] if e["kind"] == "sealed" and e["player"] == seat)["bot"] = own
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    result = pbem("verify", str(game), "--secrets", str(game.with_suffix(".seed")))
    assert result.exit_code == 5 and "not handed to then" in result.stderr, result.stderr
