"""Each player reads in their own language (issue 18, step 2), through the CLI: a seat's
language comes from its .pub (`pbem keygen --language hu`) or from `pbem roster --language`,
bound like the other seat settings (the moderator signs it, verify rebuilds it); every mail
(reports, receipts, rejections, digests, reminders) is in its reader's language, the public
one in the game's; the order lines stay as they are, in every language."""

from __future__ import annotations

import json
import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest

from pbem.views.report import with_ranges
from tests import fast_yaml
from tests.pbem.test_mail_helpers import drop, make_maildir, plain
from tests.security.test_names_bound import cli

NOW = "2027-03-05T12:00Z"
LATER = "2027-03-09T12:00Z"
# Words only one language's mail has: its greeting and a report's heading.
MARKERS = {"hu": ("Szia", "Játékosok (ülésrend)"), "en": ("Hello", "Players (seat order)")}


def seat(data: dict[str, Any], player: str) -> dict[str, Any]:
    return next(p for p in data["roster"]["players"] if p["id"] == player)


def roster(game: Path) -> dict[str, dict[str, Any]]:
    code, out, err = cli("roster", str(game), "--json")
    assert code == 0, err
    return {row["name"]: row for row in json.loads(out)}


def waiting(game: Path) -> str:
    code, out, err = cli("status", str(game), "--json")
    assert code == 0, err
    return str(json.loads(out)["waiting_for"][0])


class Table:
    """A moderated 4-player Pax game: ada's .pub asks for Hungarian; the moderator gives a
    second seat Hungarian with `roster --language` (the first to act, unless that is ada)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.game = folder, folder / "lisbon.yaml"
        for name in ("ada", "ben", "cy", "dora", "max"):
            extra = ["--language", "hu"] if name == "ada" else []
            code, _, err = cli("keygen", name, "--email", f"{name}@example.org", "--dir",
                               str(folder), *extra)
            assert code == 0, err
        players = [arg for name in ("ada", "ben", "cy", "dora")
                   for arg in ("--player", str(folder / f"{name}.pub"))]
        code, _, err = cli("new", str(self.game), *players, "--moderator",
                           str(folder / "max.pub"), "--seed", "languages")
        assert code == 0, err
        self.seats = {name: str(row["id"]) for name, row in roster(self.game).items()
                      if row["id"] != "moderator"}
        mover = waiting(self.game)
        second = mover if mover != self.seats["ada"] else self.seats["ben"]
        code, _, err = cli("roster", str(self.game), "--key", str(folder / "max.key"),
                           "--language", f"{second}=hu")
        assert code == 0, err
        self.hungarian = {self.seats["ada"], second}
        self.names = {seat_id: name for name, seat_id in self.seats.items()}

    def language(self, reader: str) -> str:
        return "hu" if reader in self.hungarian else "en"

    def key(self, player: str) -> Path:
        return self.folder / f"{self.names[player]}.key"

    def signed(self, player: str, lines: list[str]) -> str:
        orders = self.folder / "orders.txt"
        orders.write_text("\n".join(lines) + "\n")
        code, out, err = cli("sign", str(orders), "--key", str(self.key(player)), "--game",
                             str(self.game), "--force")  # an illegal line too: to be refused
        assert code == 0, err
        return out

    def mail_in(self, player: str, lines: list[str], outbox: Path, now: str = NOW) -> str:
        maildir = make_maildir(self.folder / "Maildir")
        drop(maildir, plain(self.signed(player, lines), f"{self.names[player]}@example.org"))
        code, out, err = cli("inbox", str(self.game), "--maildir", str(maildir), "--outbox",
                             str(outbox), "--now", now)
        assert code == 0, err
        return out


def mails(outbox: Path) -> list[EmailMessage]:
    found = []
    for path in sorted(outbox.glob("*.eml")):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert isinstance(message, EmailMessage)
        found.append(message)
    return found


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())  # type: ignore[attr-defined]


def html_of(message: EmailMessage) -> str:
    body = message.get_body(("html",))
    assert body is not None
    return str(body.get_content())  # type: ignore[attr-defined]


def assert_in_language(message: EmailMessage, lang: str) -> None:
    """The mail's own words in `lang`, none in the other language, in both parts."""
    other = "en" if lang == "hu" else "hu"
    text, page = text_of(message), html_of(message)
    assert MARKERS[lang][0] in text and MARKERS[lang][0] in page, (message["X-Pbem-For"], text)
    for word in MARKERS[other]:
        assert word not in text and word not in page, (message["X-Pbem-For"], word)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("PBEM_MAIL_FROM", "Lisbon host <host@example.org>")
    return Table(tmp_path)


def test_every_mail_of_a_turn_is_in_its_readers_language(table: Table, tmp_path: Path) -> None:
    game = table.game
    assert len(table.hungarian) == 2 and len(table.seats) == 4
    code, out, err = cli("send", str(game), "--outbox", str(tmp_path / "sent"), "--now", NOW)
    assert code == 0, err
    sent = mails(tmp_path / "sent")
    assert sorted(m["X-Pbem-For"] for m in sent) == sorted([*table.seats.values(), "public"])
    for message in sent:
        reader = str(message["X-Pbem-For"])
        lang = "en" if reader == "public" else table.language(reader)
        assert_in_language(message, lang)
        if reader != "public":
            assert MARKERS[lang][1] in text_of(message)  # the report inside, too
    assert next(m for m in sent if m["X-Pbem-For"] == "public")["Subject"].endswith(
        ": public report")  # the game's language: English

    # The mover reads Hungarian: the order lines and the block are as in English.
    mover = waiting(game)
    assert table.language(mover) == "hu"
    code, out, _ = cli("options", str(game), "--json")
    legal = json.loads(out)["lines"]
    report = text_of(next(m for m in sent if m["X-Pbem-For"] == mover))
    assert all(line in report for line in with_ranges(legal))
    assert f"player: {mover}" in report and "-----BEGIN PBEM ORDERS-----" in report
    assert "Te lépsz." in report and "It is your move" not in report

    # The move by mail: a receipt to the mover, digests or reports to the others.
    pick = next(line for line in legal if line.startswith("buy"))
    out = table.mail_in(mover, [pick, "end"], tmp_path / "turn")
    assert "applied as seq" in out
    turn = mails(tmp_path / "turn")
    kinds = {f"{m['X-Pbem-Kind']}:{m['X-Pbem-For']}" for m in turn}
    assert f"receipt:{mover}" in kinds and "report:public" in kinds
    for message in turn:
        reader = str(message["X-Pbem-For"])
        assert_in_language(message, "en" if reader == "public" else table.language(reader))
    receipt = text_of(next(m for m in turn if m["X-Pbem-Kind"] == "receipt"))
    assert "végrehajtottuk" in receipt and "pbem verify GAME --expect" in receipt
    told = [m for m in turn if m["X-Pbem-Kind"] in ("digest", "report")
            and m["X-Pbem-For"] != "public"]
    assert {table.language(str(m["X-Pbem-For"])) for m in told} == {"hu", "en"}
    assert "digest" in {m["X-Pbem-Kind"] for m in told}
    for message in told:  # what the mover did, told in each reader's language
        hungarian = table.language(str(message["X-Pbem-For"])) == "hu"
        said = text_of(message)
        assert ("megveszi" in said) == hungarian and (" buys " in said) != hungarian


def test_a_rejection_says_why_in_the_senders_language_and_quotes_the_line(
        table: Table, tmp_path: Path) -> None:
    game = table.game
    mover = waiting(game)
    before = game.read_bytes()
    out = table.mail_in(mover, ["buy west 1", "buy west 9"], tmp_path / "rejected")
    assert "rejected: line 2: 'buy west 9'" in out and game.read_bytes() == before
    (message,) = mails(tmp_path / "rejected")
    assert message["X-Pbem-Kind"] == "rejection"
    assert_in_language(message, "hu")
    text = text_of(message)
    assert "nem hajtottuk végre" in text and "'buy west 9'" in text
    # Why, in Hungarian (the reason's key through the catalog); the line and the legal lines
    # quoted as they are.
    flat = " ".join(text.split())  # the mail wraps its paragraphs
    why = flat[flat.index("nem hajtottuk végre"):flat.index("Semmi sem változott")]
    assert "2. sor: 'buy west 9': " in why and "szabályos sorok: " in why, why
    assert "line 2" not in why and "; legal: " not in why, why
    code, out, _ = cli("options", str(game), "--json")
    legal = why[why.index("szabályos sorok: ") + len("szabályos sorok: "):]
    assert "buy east 1 | buy east 2 | buy west 2 | " in legal and "'buy west 2'?" in why
    english = next(s for s in table.seats.values() if table.language(s) == "en")
    table.mail_in(english, ["buy west 1"], tmp_path / "english")
    (message,) = mails(tmp_path / "english")
    assert message["X-Pbem-Kind"] == "rejection" and "were not applied" in text_of(message)
    assert f"it is not {english}'s decision now: waiting for {mover}" in " ".join(
        text_of(message).split())
    assert_in_language(message, "en")
    hungarian = next(s for s in table.hungarian if s != mover)
    table.mail_in(hungarian, ["buy west 1"], tmp_path / "not-yours")
    (message,) = mails(tmp_path / "not-yours")
    assert_in_language(message, "hu")
    assert f"most nem {hungarian} dönt: várakozás rá: {mover}" in " ".join(
        text_of(message).split())
    assert game.read_bytes() == before


def test_a_reminder_is_in_the_late_players_language(table: Table, tmp_path: Path) -> None:
    game = table.game
    code, _, err = cli("deadlines", str(game), "--set", "default=24h", "--key",
                       str(table.folder / "max.key"))
    assert code == 0, err
    assert cli("send", str(game), "--outbox", str(tmp_path / "sent"), "--now", NOW)[0] == 0
    code, out, err = cli("remind", str(game), "--outbox", str(tmp_path / "reminded"), "--now",
                         LATER)
    assert code == 0, err
    (message,) = mails(tmp_path / "reminded")
    assert message["X-Pbem-Kind"] == "reminder"
    assert_in_language(message, "hu")
    text = text_of(message)
    assert re.search(r"Lejárt a határidőd \(akció választása\): \d{4}\. \d\d\. \d\d\. "
                     r"\d\d:\d\d UTC\.", text), text
    assert "Határidő:" in text and "Mar 2027" not in text  # the date as Hungarian writes it


def test_a_report_for_a_seat_is_in_its_language_unless_asked_otherwise(table: Table) -> None:
    game = table.game
    hungarian = table.seats["ada"]
    english = next(s for s in table.seats.values() if table.language(s) == "en")
    for reader, word in ((hungarian, "Játékosok (ülésrend)"), (english, "Players (seat order)")):
        code, out, err = cli("report", str(game), "--for", reader)
        assert code == 0 and word in out, err
    code, out, _ = cli("report", str(game), "--for", hungarian)
    assert "Beállítások: új nyelv:" in out  # the moderator's change, told in Hungarian too
    code, out, _ = cli("report", str(game), "--for", hungarian, "--lang", "en")
    assert code == 0 and "Players (seat order)" in out and "Settings: new language for" in out
    code, out, _ = cli("report", str(game))  # the public: the game's language
    assert code == 0 and "Players (seat order)" in out


def test_the_forum_post_is_in_the_games_language_or_the_one_asked_for(table: Table) -> None:
    game = table.game
    code, out, _ = cli("post", str(game), "--format", "text", "--channel", "one")
    assert code == 0 and "Players (seat order)" in out
    code, out, _ = cli("post", str(game), "--format", "text", "--channel", "two", "--lang", "hu")
    assert code == 0 and "Játékosok (ülésrend)" in out
    before = game.read_bytes()
    code, _, err = cli("post", str(game), "--channel", "three", "--lang", "xx")
    assert code == 2 and "unknown language 'xx'; languages: en, hu" in err
    assert game.read_bytes() == before


def test_a_dry_run_shows_the_player_their_report_in_their_language(table: Table) -> None:
    game = table.game
    mover = waiting(game)
    code, out, _ = cli("options", str(game), "--json")
    pick = next(line for line in json.loads(out)["lines"] if line.startswith("buy"))
    (table.folder / "block.txt").write_text(table.signed(mover, [pick]))
    before = game.read_bytes()
    code, out, err = cli("apply", str(game), str(table.folder / "block.txt"), "--dry-run")
    assert code == 0, err
    assert "Játékosok (ülésrend)" in out and "(dry run: nothing was written)" in out
    assert game.read_bytes() == before


def test_a_daily_digest_is_in_its_readers_language(table: Table, tmp_path: Path) -> None:
    game, mover = table.game, waiting(table.game)
    order = fast_yaml.safe_load(game.read_text())["state"]["order"]  # the turn order: public
    after = order[(order.index(mover) + 1) % len(order)]
    reader = next(s for s in order if s not in (mover, after))  # one who will not act next
    code, _, err = cli("roster", str(game), "--key", str(table.folder / "max.key"),
                       "--digest", f"{reader}=daily", "--language", f"{reader}=hu")
    assert code == 0, err
    assert cli("send", str(game), "--outbox", str(tmp_path / "sent"), "--now", NOW)[0] == 0
    code, out, _ = cli("options", str(game), "--json")
    pick = next(line for line in json.loads(out)["lines"] if line.startswith("buy"))
    table.mail_in(mover, [pick, "end"], tmp_path / "turn")
    assert waiting(game) == after
    assert reader not in {m["X-Pbem-For"] for m in mails(tmp_path / "turn")}  # not each move
    code, _, err = cli("digest", str(game), "--outbox", str(tmp_path / "daily"), "--now", LATER)
    assert code == 0, err
    (message,) = [m for m in mails(tmp_path / "daily") if m["X-Pbem-For"] == reader]
    assert message["X-Pbem-Kind"] == "digest"
    assert_in_language(message, "hu")
    assert "megveszi" in text_of(message) and "Várakozás –" in text_of(message)


def test_a_moderated_age_of_renaissance_game_mails_each_seat_in_its_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "Lisbon host <host@example.org>")
    for name in ("ann", "bob", "cid", "dee", "max"):
        extra = ["--language", "hu"] if name in ("ann", "cid") else []
        assert cli("keygen", name, "--email", f"{name}@example.org", "--dir", str(tmp_path),
                   *extra)[0] == 0
    game = tmp_path / "aor.yaml"
    players = [arg for name in ("ann", "bob", "cid", "dee")
               for arg in ("--player", str(tmp_path / f"{name}.pub"))]
    code, _, err = cli("new", str(game), *players, "--ruleset", "aor", "--moderator",
                       str(tmp_path / "max.pub"), "--seed", "languages")
    assert code == 0, err
    seats = {row["name"]: row["id"] for row in roster(game).values() if row["id"] != "moderator"}
    code, _, err = cli("send", str(game), "--outbox", str(tmp_path / "sent"), "--now", NOW)
    assert code == 0, err
    sent = {str(m["X-Pbem-For"]): m for m in mails(tmp_path / "sent")}
    assert set(sent) == {*seats.values(), "public"}
    for name, seat_id in seats.items():
        lang = "hu" if name in ("ann", "cid") else "en"
        text = text_of(sent[seat_id])
        assert_in_language(sent[seat_id], lang)
        assert ("Játéksorrend:" in text) == (lang == "hu")
        assert ("Order of play:" in text) == (lang == "en")
    assert "Order of play:" in text_of(sent["public"])
    assert cli("verify", str(game))[0] == 0
