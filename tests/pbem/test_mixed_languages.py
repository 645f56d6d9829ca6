"""Issue 18's done-when: a 4-player Pax Renaissance game and a 4-player moderated Age of
Renaissance game played with two players reading Hungarian and two English, every mail in its
reader's language (the public one in the game's, English here).

Two seats are players who mail their blocks (chosen by `pbem bot` with their own keys, one
reads Hungarian, one English), two are bots the host keeps (one Hungarian, one English);
the host runs `pbem inbox` as cron would. Each begins with a rejection each way. The Pax game runs
to its end (about 20 s); Age of Renaissance plays its first cron runs (the setup's sealed
decisions, receipts, reports, digests) in the suite, and to its end (minutes) under `make test-long`
(tests/scale.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem import api
from pbem.orders.signatures import parse_public_key, write_keypair
from tests import scale
from tests.pbem.test_bot_cron import hours, roster
from tests.pbem.test_mail_helpers import HOST, drop, make_maildir, plain
from tests.pbem.test_seat_language import mails
from tests.reliability.kit import ok, status

MAIL = {"PBEM_MAIL_FROM": HOST}
# name -> (language, mails its blocks (True) or is a bot the host keeps)
PLAYERS = {"ada": ("hu", True), "ben": ("en", True), "cy": ("hu", False), "dee": ("en", False)}
# Words only one language's mail has: its greeting.
GREETING = {"hu": "Szia", "en": "Hello"}
long_only = pytest.mark.skipif(not scale.LONG, reason="a whole game: make test-long")


class Table:
    def __init__(self, folder: Path, ruleset: str) -> None:
        self.folder = folder
        self.game = folder / "milan.yaml"
        bots = folder / "milan.bots"
        bots.mkdir()
        for name, (lang, human) in {**PLAYERS, "max": ("en", True)}.items():
            write_keypair((folder if human else bots) / name, name, f"{name}@example.org",
                          lang if name != "max" else None)
        keys = [parse_public_key(((folder if human else bots) / f"{name}.pub").read_text())
                for name, (_, human) in PLAYERS.items()]
        api.new_game(self.game, keys, game_id="milan", seed_text="languages",
                     ruleset_name=ruleset,
                     moderator=parse_public_key((folder / "max.pub").read_text()))
        self.seats = roster(self.game)
        self.names = {seat: str(row["name"]) for seat, row in self.seats.items()}
        self.language = {seat: PLAYERS[name][0] for seat, name in self.names.items()}
        self.maildir = make_maildir(folder / "Maildir")
        self.outbox = folder / "out"
        self.clock = 0

    def humans(self) -> list[str]:
        return [seat for seat, name in self.names.items() if PLAYERS[name][1]]

    def mail_blocks(self) -> int:
        """Each owed player who mails picks a block with `pbem bot` and their own key."""
        sent = 0
        for seat in status(self.game)["waiting_for"]:  # type: ignore[attr-defined]
            if seat not in self.humans():
                continue
            name = self.names[seat]
            block = ok("bot", str(self.game), "--seat", seat, "--key",
                       str(self.folder / f"{name}.key"), "--policy", "random")
            drop(self.maildir, plain(block, f"{name} <{name}@example.org>"))
            sent += 1
        return sent

    def cron(self) -> str:
        self.clock += 1
        return ok("inbox", str(self.game), "--maildir", str(self.maildir), "--outbox",
                  str(self.outbox), "--now", hours(self.clock), env=MAIL)

    def play(self, runs: int) -> None:
        for _ in range(runs):
            if status(self.game)["over"]:
                return
            self.mail_blocks()
            self.cron()

    def reject_each_way(self) -> None:
        """A Hungarian and an English player each send a block that cannot apply (`pass` is
        no legal line of theirs now, or it is not their turn), each told why in their own
        language."""
        for seat in self.humans():
            name = self.names[seat]
            orders = self.folder / f"{name}.orders"
            orders.write_text("pass\n")
            block = ok("sign", str(orders), "--key", str(self.folder / f"{name}.key"),
                       "--game", str(self.game), "--force")  # illegal now: to be refused
            drop(self.maildir, plain(block, f"{name} <{name}@example.org>"))
        self.cron()


def check_every_mail(table: Table) -> dict[str, set[str]]:
    """Every mail's words in its reader's language (the public's: the game's, English), in
    both its parts; the kinds of mail each language got."""
    kinds: dict[str, set[str]] = {"hu": set(), "en": set()}
    sent = mails(table.outbox)
    assert sent
    for message in sent:
        reader = str(message["X-Pbem-For"])
        lang = "en" if reader == "public" else table.language[reader]
        other = "en" if lang == "hu" else "hu"
        for part in ("plain", "html"):
            body = message.get_body((part,))
            assert body is not None
            text = str(body.get_content())  # type: ignore[attr-defined]
            assert GREETING[lang] in text and GREETING[other] not in text, (reader, text[:200])
        kinds[lang].add(str(message["X-Pbem-Kind"]))
    return kinds


def play_and_check(table: Table, runs: int) -> None:
    """A rejection each way first, then `runs` cron runs; then every mail is checked."""
    table.reject_each_way()
    table.play(runs)
    kinds = check_every_mail(table)
    for lang in ("hu", "en"):  # both languages got reports, receipts and rejections
        assert {"receipt", "rejection"} <= kinds[lang] and kinds[lang] & {"report", "digest"}, \
            kinds
    assert ok("verify", str(table.game)).startswith("ok")


def test_a_whole_pax_game_mails_each_reader_in_their_language(tmp_path: Path) -> None:
    table = Table(tmp_path, "pax")
    play_and_check(table, runs=400)
    end = status(table.game)
    assert end["over"] and end["winners"], end


def test_the_first_cron_runs_of_age_of_renaissance_mail_each_reader_in_their_language(
        tmp_path: Path) -> None:
    table = Table(tmp_path, "aor")
    play_and_check(table, runs=3)


@long_only
def test_a_whole_age_of_renaissance_game_mails_each_reader_in_their_language(
        tmp_path: Path) -> None:
    table = Table(tmp_path, "aor")
    play_and_check(table, runs=400)
    end = status(table.game)
    assert end["over"] and end["winners"], end
