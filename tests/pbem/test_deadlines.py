"""Deadlines and missing players (issue 7): settings, local times, reminders, timeouts that
apply the documented defaults and replay in verify, and moderator-signed player replacement."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest
import yaml
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app
from pbem.delivery import deadlines, digests, inbox, mail, mailboxes, transport
from pbem.errors import CorruptGameError, UsageError
from pbem.orders.signatures import write_keypair
from pbem.orders.signing import sign_orders
from pbem.pipeline.opening import open_game
from pbem.store import gamefile
from tests import fast_yaml
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    first_move,
    key_of,
    legal,
    make_game,
    make_maildir,
    plain,
    settings_for,
)

runner = CliRunner()
T0 = "2027-03-05T12:00:00Z"
try:
    for zone in ("America/New_York", "Asia/Tokyo", "Europe/Berlin"):
        ZoneInfo(zone)
    NO_TZ = ""
except ZoneInfoNotFoundError:
    NO_TZ = "no timezone database here (install the system tzdata, or pip install tzdata)"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def MOD(game: Path) -> list[str]:  # noqa: N802 - reads as the moderator's signature
    """The moderator's key: settings changes and forced timeouts are signed (issue 21)."""
    return ["--key", str(game.parent / "max.key")]


def cli(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


class Recorder:
    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    def deliver_each(self, messages: list[EmailMessage]) -> list[transport.Sent]:
        self.messages += messages
        return [transport.Sent(True, transport.describe(m)) for m in messages]


def mid_turn(game: Path) -> None:
    """Buy a card and play it: a one-shot decision (not the main turn) is then pending."""
    buy = next(line for line in legal(game) if line.startswith("buy"))
    api.apply_block(game, block_for(game, [buy]))
    play = next(line for line in legal(game) if line.startswith("play"))
    api.apply_block(game, block_for(game, [play]))
    assert gamefile.load(game).agenda[0]["action"] != "turn"


def test_deadlines_and_policy_live_in_the_roster(game: Path) -> None:
    early = block_for(game, first_move(game))  # signed before the settings change
    cli("timeout", str(game), "--now", T0)  # the mail run that sends the report starts the clock
    code, out, err = cli("deadlines", str(game), *MOD(game), "--set", "default=72h", "--set", "Agent=1d",
                         "--nmr", "skip", "--now", T0)
    assert code == 0, err
    assert out.startswith("deadlines: agent 1d, default 72h; NMR policy: skip\n")
    assert "must choose an action: by Mon 08 Mar 2027 12:00 UTC" in out
    roster = fast_yaml.safe_load(game.read_text())["roster"]
    assert roster["deadlines"] == {"decisions": {"agent": "1d", "default": "72h"}, "nmr": "skip"}
    assert gamefile.load(game).log[-1]["kind"] == "settings"  # logged, signed, and
    api.apply_block(game, early)  # a block written before it still holds (no rule changed)
    code, out, _ = cli("deadlines", str(game), *MOD(game), "--unset", "agent", "--json", "--now", T0)
    data = json.loads(out)
    assert data["decisions"] == {"default": "72h"} and data["due"][0]["late"] is False
    assert cli("deadlines", str(game), *MOD(game), "--set", "dance=1h")[2].startswith(
        "error: unknown decision 'dance'; decisions: default, ")
    assert "is not a duration" in cli("deadlines", str(game), *MOD(game), "--set", "default=soon")[2]
    assert "unknown NMR policy" in cli("deadlines", str(game), *MOD(game), "--nmr", "maybe")[2]
    assert deadlines.parse_duration("1d12h30m").total_seconds() == 131400
    assert deadlines.parse_duration("48").total_seconds() == 48 * 3600


@pytest.mark.skipif(bool(NO_TZ), reason=NO_TZ)
def test_timezones_and_local_deadlines_in_the_mail(game: Path) -> None:
    mover = acting(game)
    other = next(p for p in gamefile.load(game).player_ids() if p != mover)
    assert cli("roster", str(game), *MOD(game), "--timezone", f"{mover}=America/New_York",
               "--timezone", f"{other}=Asia/Tokyo")[0] == 0
    code, _, err = cli("roster", str(game), *MOD(game), "--timezone", f"{mover}=Mars/Olympus")
    assert code == 2 and "unknown timezone 'Mars/Olympus'" in err
    code, out, _ = cli("roster", str(game))
    assert f"{mover}: " in out and "America/New_York SHA256:" in out
    cli("deadlines", str(game), *MOD(game), "--set", "turn=2d", "--now", T0)
    cli("timeout", str(game), "--now", T0)  # the mail run that sends the report starts the clock
    book = mail.Book.load(game)
    messages = digests.report_messages(open_game(game, head_only=False), book, settings_for(1),
                                    deadlines.parse_time(T0))
    texts = {m["X-Pbem-For"]: m.get_body(("plain",)).get_content()  # type: ignore[union-attr]
             for m in messages}
    assert "must answer by Sun 07 Mar 2027 07:00 EST (America/New_York)." in texts[mover]
    assert "must answer by Sun 07 Mar 2027 21:00 JST (Asia/Tokyo)." in texts[other]
    assert "must answer by Sun 07 Mar 2027 12:00 UTC." in texts["public"]
    code, out, _ = cli("deadlines", str(game), "--for", other, "--now", T0)
    assert "(Asia/Tokyo)" in out


def test_remind_mails_the_late_players_once(game: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    cli("deadlines", str(game), *MOD(game), "--set", "default=1d", "--now", T0)
    out_dir = str(tmp_path / "out")
    assert cli("remind", str(game), "--outbox", out_dir, "--now", T0)[1] == "no one is late\n"
    code, out, _ = cli("remind", str(game), "--outbox", out_dir, "--now", "2027-03-06T13:00Z")
    mover = acting(game)
    assert code == 0 and out.startswith(f"wrote lisbon-1-reminder-{mover}.eml")
    text = (tmp_path / "out" / f"lisbon-1-reminder-{mover}.eml").read_text()
    assert "Your deadline to choose an action passed on Sat 06 Mar 2027 12:00 UTC." in text
    assert "the game waits for you" in text and "BEGIN PBEM ORDERS" in text
    assert "X-Pbem-Kind: reminder" in text and \
        "Subject: [lisbon] Pax Renaissance (2nd edition): " in text
    again = cli("remind", str(game), "--outbox", out_dir, "--now", "2027-03-07T13:00Z")[1]
    assert again.startswith("already reminded: ") and "--again" in again
    assert cli("remind", str(game), "--outbox", out_dir, "--again",
               "--now", "2027-03-07T13:00Z")[1].startswith("wrote")


def test_timeout_waits_or_skips_a_main_turn_by_the_nmr_policy(game: Path) -> None:
    cli("deadlines", str(game), *MOD(game), "--set", "default=1h", "--now", T0)
    cli("timeout", str(game), "--now", T0)  # the mail run that sends the report starts the clock
    mover = acting(game)
    code, out, _ = cli("timeout", str(game), "--now", "2027-03-05T12:30Z")
    assert out == f"{mover}: not overdue (due 2027-03-05T13:00:00Z)\n"
    code, out, _ = cli("timeout", str(game), "--now", "2027-03-05T14:00Z")
    assert out == f"{mover}: waiting: the NMR policy is 'wait'\n"
    assert gamefile.load(game).seq == 1  # only the settings change
    cli("deadlines", str(game), *MOD(game), "--nmr", "skip")
    code, out, err = cli("timeout", str(game), "--now", "2027-03-05T14:00Z")
    assert code == 0, err
    assert out.startswith(f"{mover}: {mover.title()} did not answer in time, so the default "
                          "answer")
    gf = gamefile.load(game)
    entry = gf.log[-1]
    assert entry["kind"] == "timeout" and entry["automatic"] is True and entry["player"] == mover
    assert entry["deadline"] == "2027-03-05T13:00:00Z" and entry["forced"] is False
    assert acting(game) != mover, "skipping ends the turn"
    api.verify(game, gf)


def test_timeout_applies_the_default_of_an_overdue_decision(game: Path) -> None:
    mid_turn(game)
    before = gamefile.load(game)
    assert before.agenda[0]["action"] != "turn"
    code, out, err = cli("timeout", str(game), "--force", *MOD(game))
    assert code == 0, err and "did not answer in time, so the default" in out
    gf = gamefile.load(game)
    entry = gf.log[-1]
    assert entry["kind"] == "timeout" and entry["forced"] is True and entry["lines"]
    assert gf.agenda[0]["action"] == "turn"  # the main turn (if still owed) waits
    assert "end" not in entry["lines"]
    assert api.verify(game, gf).entries == len(gf.log)
    data = fast_yaml.safe_load(game.read_text())
    data["log"][-1]["lines"][0] = "oneshot" if entry["lines"][0] != "oneshot" else "no oneshot"
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    with pytest.raises(CorruptGameError, match=f"log entry seq {gf.seq}: the timeout does not "
                                                "replay: 'n?o?\\s?oneshot' is not the default"):
        api.verify(game, gamefile.load(game))


def test_timeout_of_a_draw_needs_the_seed(game: Path) -> None:
    buy = next(line for line in legal(game) if line.startswith("buy"))
    api.apply_block(game, block_for(game, [buy]))  # a gap: ending the turn draws a card
    (game.parent / "lisbon.seed").rename(game.parent / "hidden.seed")
    cli("deadlines", str(game), *MOD(game), "--nmr", "skip")
    before = game.read_bytes()
    code, _, err = cli("timeout", str(game), "--force", *MOD(game))
    assert code == 2 and "needs the game's seed file lisbon.seed" in err, err
    assert game.read_bytes() == before


def test_nmr_skip_passes_a_turn_with_no_action(game: Path) -> None:
    before = gamefile.load(game)
    player = api.status(before)["waiting_for"][0]
    florins = before.state["players"][player]["florins"]
    cli("deadlines", str(game), *MOD(game), "--nmr", "skip")
    code, out, err = cli("timeout", str(game), "--force", *MOD(game))
    assert code == 0, err
    after = gamefile.load(game)
    assert after.log[-1]["kind"] == "timeout" and after.log[-1]["lines"] == ["end"]
    assert after.state["players"][player]["florins"] == florins  # nothing bought
    assert api.status(after)["waiting_for"] != [player]
    assert api.verify(game, after).entries == len(after.log)


@pytest.mark.skipif(bool(NO_TZ), reason=NO_TZ)
def test_moderator_replaces_a_player_and_verify_follows_the_keys(game: Path,
                                                                 tmp_path: Path) -> None:
    first = acting(game)
    api.apply_block(game, block_for(game, first_move(game)))
    leaving = acting(game)
    write_keypair(tmp_path / "dora", "Dora", "dora@example.org")
    code, out, err = cli("replace-player", str(game), leaving, "--key",
                         str(tmp_path / "ada.key"), "--pub", str(tmp_path / "dora.pub"))
    assert code == 2 and "is not the moderator's key" in err
    code, out, err = cli("replace-player", str(game), leaving, "--key",
                         str(tmp_path / "max.key"), "--pub", str(tmp_path / "dora.pub"),
                         "--timezone", "Europe/Berlin")
    assert code == 0, err
    assert out.startswith(f"seq 2: The moderator hands {leaving.title()} to Dora (key SHA256:")
    gf = gamefile.load(game)
    entry = gf.roster_entry(leaving)
    assert entry is not None and entry["email"] == "dora@example.org"
    assert entry["timezone"] == "Europe/Berlin"
    assert gf.log[-1]["kind"] == "replacement"
    assert gf.log[-1]["old"]["email"] != "dora@example.org"
    old_key = key_of(game, first).parent / f"{gf.log[-1]['old']['name']}.key"
    with pytest.raises(UsageError, match="is not the key of any player"):
        sign_orders("end\n", old_key, game)
    api.apply_block(game, sign_orders("\n".join(first_move(game)) + "\n",
                                          tmp_path / "dora.key", game))
    assert api.verify(game, gamefile.load(game)).entries == 4
    data = fast_yaml.safe_load(game.read_text())
    data["log"][2]["new"]["key"] = data["log"][2]["old"]["key"]
    game.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    with pytest.raises(CorruptGameError, match="log entry seq 2: roster change"):
        api.verify(game, gamefile.load(game))


def test_a_mailed_moderator_block_goes_through_the_inbox(game: Path, tmp_path: Path) -> None:
    leaving = acting(game)
    write_keypair(tmp_path / "dora", "Dora", "dora@example.org")
    code, block, err = cli("replace-player", str(game), leaving, "--key",
                           str(tmp_path / "max.key"), "--pub", str(tmp_path / "dora.pub"),
                           "--print")
    assert code == 0 and "player: moderator" in block and "replace " + leaving in block
    assert gamefile.load(game).seq == 0
    maildir, out = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(block, "max@example.org"))
    lines = inbox.process(mailboxes.read_maildir(maildir), [game], out, settings_for(1),
                          datetime(2027, 3, 5, tzinfo=UTC))
    assert "applied as seq 1" in lines[0], lines
    assert gamefile.load(game).roster_entry(leaving)["email"] == "dora@example.org"  # type: ignore[index]
    assert out.messages[0]["To"] == "max@example.org"
    assert "dora@example.org" in [m["To"].addresses[0].addr_spec for m in out.messages[1:]]
    api.verify(game, gamefile.load(game))
    code, _, err = cli("replace-player", str(game), "--block", str(tmp_path / "nope.txt"))
    assert code == 2 and "cannot read" in err


def test_no_moderator_no_replacement(tmp_path: Path) -> None:
    game = make_game(tmp_path, moderator=False)
    write_keypair(tmp_path / "max", "Max", "max@example.org")
    code, _, err = cli("replace-player", str(game), acting(game), "--key",
                       str(tmp_path / "max.key"), "--email", "x@example.org")
    assert code == 2 and "this game has no moderator" in err


@pytest.mark.skipif(bool(NO_TZ), reason=NO_TZ)
def test_status_and_report_show_the_deadline_in_local_time(game: Path) -> None:
    mover = acting(game)
    assert cli("roster", str(game), *MOD(game), "--timezone", f"{mover}=Asia/Tokyo")[0] == 0
    code, out, _ = cli("status", str(game), "--json")
    assert json.loads(out)["deadlines"] == []  # none set yet
    assert cli("deadlines", str(game), *MOD(game), "--set", "default=72h")[0] == 0
    code, out, err = cli("status", str(game), "--json")
    rows = json.loads(out)["deadlines"]
    assert code == 0 and [r["player"] for r in rows] == [mover], err
    assert "(Asia/Tokyo)" in rows[0]["when"] and rows[0]["due"].endswith("Z")
    code, out, _ = cli("status", str(game))
    assert f"deadline: {mover.title()}" in out and "(Asia/Tokyo)" in out
    code, out, _ = cli("report", str(game), "--for", mover)
    assert "Deadline:" in out and "(Asia/Tokyo)" in out
    code, out, _ = cli("report", str(game), "--format", "markdown")
    assert "**Deadline:**" in out and "Asia/Tokyo" in out  # public: the owing player's zone
