"""Bugs the month's soak found in pbem, each pinned by a focused test."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.delivery import queue
from pbem.orders.signatures import parse_public_key, write_keypair
from pbem.orders.signing import sign_orders
from pbem.pipeline.opening import open_game
from pbem.pipeline.queries import legal_lines
from pbem.pipeline.setup import new_game
from tests.pbem.test_inbox import NOW, Recorder, run
from tests.pbem.test_mail_helpers import drop, make_maildir, plain, settings_for
from tests.soak.clients import original_text
from tests.soak.players import SKELETON

runner = CliRunner()


def test_a_simultaneous_decision_is_not_reported_again_to_those_still_owing_it(
        tmp_path: Path) -> None:
    """In a moderated Age of Renaissance game each answer to a simultaneous decision (the
    dealt cards, a sealed bid) used to mail the full report again to every player still owing
    it, and a digest of the move to its own player beside the receipt: the month's AoR players
    got 5 mails a day. Their first report still asks, and stays valid (a block for a
    simultaneous decision is taken at an earlier seq)."""
    names = ("hal", "ivy", "jon")
    for name in names:
        write_keypair(tmp_path / name, name, f"{name}@example.org")
    write_keypair(tmp_path / "max", "max", "max@example.org")
    game = tmp_path / "florence.yaml"
    new_game(game, [parse_public_key((tmp_path / f"{n}.pub").read_text()) for n in names],
             game_id="florence", ruleset_name="aor", seed_text="fix",
             moderator=parse_public_key((tmp_path / "max.pub").read_text()))
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
