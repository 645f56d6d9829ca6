"""Bugs the month's soak found in pbem, each pinned by a focused test."""

from __future__ import annotations

import random
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import queue
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.orders.signing import sign_orders
from pbem.pipeline.opening import open_game
from pbem.pipeline.queries import legal_lines
from pbem.pipeline.setup import new_game
from tests.pbem.test_inbox import NOW, Recorder, address, run
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    make_game,
    make_maildir,
    plain,
    settings_for,
)
from tests.soak.clients import original_text
from tests.soak.players import SKELETON, Player, report_lines

runner = CliRunner()


def florence(tmp_path: Path) -> Path:
    """A moderated 3-player Age of Renaissance game, as in the month."""
    names = ("hal", "ivy", "jon")
    for name in names:
        write_keypair(tmp_path / name, name, f"{name}@example.org")
    write_keypair(tmp_path / "max", "max", "max@example.org")
    game = tmp_path / "florence.yaml"
    new_game(game, [parse_public_key((tmp_path / f"{n}.pub").read_text()) for n in names],
             game_id="florence", ruleset_name="aor", seed_text="fix",
             moderator=parse_public_key((tmp_path / "max.pub").read_text()))
    return game


def test_a_simultaneous_decision_is_not_reported_again_to_those_still_owing_it(
        tmp_path: Path) -> None:
    """In a moderated Age of Renaissance game each answer to a simultaneous decision (the
    dealt cards, a sealed bid) used to mail the full report again to every player still owing
    it, and a digest of the move to its own player beside the receipt: the month's AoR players
    got 5 mails a day. Their first report still asks, and stays valid (a block for a
    simultaneous decision is taken at an earlier seq)."""
    names = ("hal", "ivy", "jon")
    game = florence(tmp_path)
    out = Recorder()
    queue.send_reports(game, out, settings_for(1), NOW)
    assert sorted(out.kinds()) == ["report:hal", "report:ivy", "report:jon", "report:public"]
    first = {str(m["X-Pbem-For"]): m for m in out.messages}
    opened = open_game(game)
    assert sorted(opened.gf.agenda[0]["players"]) == list(names)  # a simultaneous decision
    line = legal_lines(opened, "hal")["lines"][0]
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(sign_orders(f"{line}\n", tmp_path / "hal.key", game),
                        "hal@example.org"))
    assert "applied as seq 1" in run(maildir, [game], out)[0]
    # hal hears of his own answer once (the receipt); ivy and jon already have their report.
    assert sorted(out.kinds()) == ["receipt:hal", "report:public"]
    # ivy answers from her first report, written before hal's answer: it is taken.
    skeleton = SKELETON.search(original_text(first["ivy"]))
    assert skeleton is not None
    text = skeleton.group(0) + "\n" + legal_lines(open_game(game), "ivy")["lines"][0] + "\n"
    drop(maildir, plain(sign_orders(text, tmp_path / "ivy.key", None), "ivy@example.org"))
    assert "applied as seq 2" in run(maildir, [game], out)[0]
    # jon's scripted player knows his first report still fits (it took the report for stale
    # and answered it with a line the host refused), and answers it with a legal line.
    jon = Player("jon", game, "jon", "jon@example.org", tmp_path / "jon.key", random.Random(1))
    skeleton = SKELETON.search(original_text(first["jon"]))
    assert skeleton is not None and int(skeleton.group(3)) < open_game(game).gf.seq
    lines, valid = jon.choose(int(skeleton.group(3)), skeleton.group(4), first["jon"])
    assert valid and set(lines) <= set(legal_lines(open_game(game), "jon")["lines"])


def test_a_stale_age_of_renaissance_report_is_answered_with_one_of_its_lines(
        tmp_path: Path) -> None:
    """The scripted players read the lines of a Pax report only: answering a stale Age of
    Renaissance report they sent `end`, which is no order there."""
    game = florence(tmp_path)
    out = Recorder()
    queue.send_reports(game, out, settings_for(1), NOW)
    report = next(m for m in out.messages if m["X-Pbem-For"] == "hal")
    found = report_lines(report)
    legal = legal_lines(open_game(game), "hal")["lines"]
    assert found and set(found) <= set(legal), (found[:5], legal[:5])


def test_a_mover_who_acts_again_gets_one_mail_the_receipt_with_the_report(
        tmp_path: Path) -> None:
    """Age of Renaissance is many small decisions in a row, often by the same player: each
    block used to bring its mover a receipt and then their next report. Now the receipt
    carries the report. Every player chose a daily digest: whoever must act still gets their
    full report at once, and the others nothing until their digest."""
    game = make_game(tmp_path)
    result = runner.invoke(app, ["roster", str(game), "--key", str(tmp_path / "max.key"),
                                 *[arg for p in open_game(game).gf.player_ids()
                                   for arg in ("--digest", f"{p}=daily")]])
    assert result.exit_code == 0, result.stderr
    mover, maildir, out = acting(game), make_maildir(tmp_path / "Maildir"), Recorder()
    buy = next(line for line in legal_lines(open_game(game), mover)["lines"]
               if line.startswith("buy"))
    seq = open_game(game).gf.seq + 1  # after the logged roster change
    drop(maildir, plain(block_for(game, [buy]), address(game, mover)))
    assert f"applied as seq {seq}" in run(maildir, [game], out)[0]
    assert acting(game) == mover  # the second action of the turn is still theirs
    assert sorted(out.kinds()) == [f"receipt:{mover}", "report:public"]
    receipt = original_text(out.messages[0])
    skeleton = SKELETON.search(receipt)
    assert skeleton is not None and skeleton.group(2) == mover and skeleton.group(3) == str(seq)
    assert f"applied at seq {seq}" in receipt and "It is your move" in receipt

    out.messages.clear()
    drop(maildir, plain(block_for(game, ["end"]), address(game, mover)))
    assert f"applied as seq {seq + 1}" in run(maildir, [game], out)[0]
    following = acting(game)
    assert following != mover
    assert sorted(out.kinds()) == sorted([f"receipt:{mover}", f"report:{following}",
                                          "report:public"])
    assert "# your orders here" not in original_text(out.messages[0])  # nothing more to do
