"""The refusals of absences, pauses and takebacks in the sender's language (issues 18 and 24):
a block of life or a takeback refused by mail says why in Hungarian for a seat that reads
Hungarian, the refused line and the dates quoted as written, and in the same English as
before for an English seat; nothing changes in the game file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.errors import Verbatim
from pbem.errors import OrdersRejected, UsageError
from pbem.i18n.errors import say_error
from tests.pbem.test_seat_language import Table, mails, text_of
from tests.security.test_names_bound import cli

NOW = "2027-03-05T12:00Z"


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    """The seat-language table, with an absence allowance of 21 days each."""
    monkeypatch.setenv("PBEM_MAIL_FROM", "Lisbon host <host@example.org>")
    found = Table(tmp_path)
    code, _, err = cli("deadlines", str(found.game), "--key", str(tmp_path / "max.key"),
                       "--absence", "21d", "--now", NOW)
    assert code == 0, err
    return found


def refusal(table: Table, player: str, line: str, outbox: Path) -> str:
    """The one rejection mail's text for `line` (flattened); the game file is unchanged."""
    before = table.game.read_bytes()
    table.mail_in(player, [line], outbox, NOW)
    (message,) = mails(outbox)
    assert message["X-Pbem-Kind"] == "rejection"
    assert table.game.read_bytes() == before
    return " ".join(text_of(message).split())


def test_refused_lines_of_life_and_takebacks_are_said_in_hungarian(table: Table,
                                                                   tmp_path: Path) -> None:
    ada = table.seats["ada"]
    assert table.language(ada) == "hu"
    said = refusal(table, ada, "away until 2027-06-30", tmp_path / "away")
    # counted from the inbox run's --now (2027-03-05 12:00), not from the host's clock
    assert re.search(r"nem hajtottuk végre: a\(z\) 2027-06-30T00:00:00Z időpontig tartó "
                     r"távollét még 116d 12h időt igényel, de " + ada + r" távolléti "
                     r"keretéből ebben a játékban csak 21d maradt \(a teljes keret: 21d\)",
                     said), said
    said = refusal(table, ada, "takeback 99", tmp_path / "takeback")
    assert "'takeback 99': a(z) 99. seq-nél nincs blokk; a játék a(z) " in said, said
    assert "there is no block" not in said
    said = refusal(table, ada, "resume", tmp_path / "resume")
    assert "nem hajtottuk végre: a játék nem szünetel" in said, said


def test_an_english_seat_reads_the_same_english_as_before(table: Table, tmp_path: Path) -> None:
    english = next(seat for seat in table.seats.values() if table.language(seat) == "en")
    said = refusal(table, english, "away until 2027-06-30", tmp_path / "away")
    assert re.search(r"were not applied: an absence until 2027-06-30T00:00:00Z needs "
                     r"116d 12h more, but " + english + r" has 21d of absence left in this "
                     r"game \(of 21d\)", said), said
    said = refusal(table, english, "takeback 99", tmp_path / "takeback")
    assert "takeback 99: there is no block at seq 99; the game is at seq " in said, said


def test_the_keyed_english_is_the_message_and_order_text_stays_verbatim() -> None:
    refused = OrdersRejected.keyed("reason:pbem.no_absence",
                                   command=Verbatim("pbem deadlines GAME --absence 21d"))
    assert say_error(refused, "en") == str(refused) == \
        "this game allows no absence: the host sets an allowance with pbem deadlines GAME " \
        "--absence 21d"
    assert say_error(refused, "hu").endswith(": pbem deadlines GAME --absence 21d")
    sandbox = UsageError.keyed("reason:pbem.sandbox", game="lisbon-what-if", of="lisbon",
                               at=7, command=Verbatim("send"))
    assert str(sandbox) == "lisbon-what-if is a sandbox (a what-if copy of game lisbon at seq " \
        "7): send refuses it, so it is never mailed as the real game; play it with apply, " \
        "options and report"
    assert say_error(sandbox, "hu").startswith("a(z) lisbon-what-if egy homokozó (a(z) lisbon "
                                               "játék próbamásolata a(z) 7. seq állapotából): "
                                               "a(z) send parancs")
