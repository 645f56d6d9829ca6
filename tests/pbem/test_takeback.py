"""Takebacks by consent (issue 24 §4), through the CLI: `takeback SEQ` undoes the block applied
at SEQ and everything after it, on the player's own line when nobody else acted since, else
once every player who acted after SEQ - 1 sent `accept takeback SEQ`. The position (state and
pending decisions) and the legal lines are then seq SEQ - 1's; only the fingerprint differs.
The log stays append-only and `verify` replays it. A takeback past a draw is refused, saying
which entry made it final, and the report says so before the block is sent."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.delivery import inbox, mailboxes
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import load_private_key, sign
from pbem.store import gamefile
from pbem.store.gamefile import current_hash, fingerprint
from tests.pbem.test_aor_cli import new_game, signed
from tests.pbem.test_deadlines import Recorder
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    drop,
    key_of,
    legal,
    make_game,
    make_maildir,
    plain,
    settings_for,
)
from tests.pbem.test_vacations import NOW, cli, life_block

SEATS = ("ada", "ben", "cy")


def apply(game: Path, text: str, name: str = "block.txt") -> tuple[int, str, str]:
    path = game.parent / name
    path.write_text(text)
    return cli("apply", str(game), str(path))


def position(game: Path) -> tuple[object, object]:
    gf = gamefile.load(game)
    return gf.state, gf.agenda


def menus(game: Path) -> dict[str, list[str]]:
    """Every seat's legal lines (the AoR game's parallel decision asks each)."""
    found = {}
    for seat in SEATS:
        code, out, err = cli("options", str(game), "--for", seat, "--json")
        assert code == 0, err
        found[seat] = json.loads(out)["lines"]
    return found


def aor_line(game: Path, seat: str, line: str, name: str) -> tuple[int, str, str]:
    return cli("apply", str(game), str(signed(game, seat, [line], name)))


def verified(game: Path) -> bool:
    code, out, err = cli("verify", str(game))
    assert code == 0, err
    return out.startswith("ok: ")


@pytest.fixture(scope="session")
def aor_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An open Age of Renaissance game where ada (seq 1) and ben (seq 2) have returned a card
    and cy has not (made once; each test plays on a copy)."""
    game = new_game(tmp_path_factory.mktemp("aor-template"), 3, "--open")
    first = menus(game)
    assert aor_line(game, "ada", first["ada"][0], "a1")[0] == 0
    assert aor_line(game, "ben", first["ben"][0], "b1")[0] == 0
    return game


@pytest.fixture
def aor(aor_template: Path, tmp_path: Path) -> Path:
    """A copy of the template game: ada asks to take her card back."""
    folder = tmp_path / "aor"
    shutil.copytree(aor_template.parent, folder)
    return folder / aor_template.name


@pytest.fixture(scope="session")
def pax_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_game(tmp_path_factory.mktemp("pax-template"))


@pytest.fixture
def pax(pax_template: Path, tmp_path: Path) -> Path:
    """A new moderated 3-player Pax Renaissance game (a copy, with its keys and seed)."""
    for item in pax_template.parent.iterdir():
        shutil.copy(item, tmp_path / item.name)
    return tmp_path / pax_template.name


# --- granted ------------------------------------------------------------------------------


def test_own_takeback_when_nobody_else_acted_restores_the_position(pax: Path) -> None:
    mover = acting(pax)
    before, lines, state = position(pax), legal(pax), fingerprint(current_hash(
        gamefile.load(pax)))
    assert apply(pax, block_for(pax, ["buy west 1"]))[0] == 0
    assert legal(pax) != lines
    code, out, err = cli("apply", str(pax), str(life_block(pax, mover, "takeback 1")))
    assert code == 0, err
    assert "takes back seq 1" in out and "the position is what it was at seq 0" in out
    assert position(pax) == before and legal(pax) == lines and acting(pax) == mover
    gf = gamefile.load(pax)
    assert [e["kind"] for e in gf.log] == ["setup", "orders", "takeback", "undo"]
    assert gf.log[-1]["undone"] == [1] and gf.seq == 3
    assert fingerprint(current_hash(gf)) != state  # the fingerprint covers the seq
    assert verified(pax)
    code, out, err = apply(pax, block_for(pax, ["buy west 2"]))  # play goes on from seq 0's
    assert code == 0 and "seq 4" in out, err
    assert verified(pax)


def test_every_player_who_acted_since_must_accept(aor: Path) -> None:
    opening = menus(aor)  # cy still owes the decision; ada and ben answered
    code, out, err = aor_line(aor, "ada", "takeback 1", "a2")
    assert code == 0 and "waits for 'accept takeback 1' from ben" in out, err
    assert menus(aor) == opening  # asking changes nothing yet
    asked = json.loads(cli("status", str(aor), "--json")[1])["takeback"]
    assert asked == {"target": 1, "by": "ada", "waiting_for": ["ben"]}
    assert "takeback 1 asked by ada: waiting for ben to send 'accept takeback 1'" in \
        cli("status", str(aor))[1]
    # cy did not act after seq 0: cy's acceptance is not asked for
    code, _, err = aor_line(aor, "cy", "accept takeback 1", "c2")
    assert code == 1 and "cy need not answer takeback 1; it waits for ben" in err
    code, out, err = aor_line(aor, "ben", "accept takeback 1", "b2")
    assert code == 0 and "the position is what it was at seq 0" in out, err
    setup = gamefile.load(aor)
    assert setup.log[-1]["kind"] == "undo" and setup.log[-1]["undone"] == [1, 2]
    assert "takeback" not in json.loads(cli("status", str(aor), "--json")[1])
    assert all(seat in json.loads(cli("status", str(aor), "--json")[1])["waiting_for"]
               for seat in SEATS)  # every seat owes its card again, as at seq 0
    assert verified(aor)


def test_the_position_and_lines_equal_those_before_the_target(tmp_path: Path) -> None:
    game = new_game(tmp_path, 3, "--open")
    at_zero, lines_zero = position(game), menus(game)
    assert aor_line(game, "ada", lines_zero["ada"][0], "a1")[0] == 0
    at_one, lines_one = position(game), menus(game)
    assert aor_line(game, "ben", lines_one["ben"][0], "b1")[0] == 0
    assert aor_line(game, "ben", "takeback 2", "b2")[0] == 0  # nobody acted since: granted
    assert position(game) == at_one and menus(game) == lines_one
    assert aor_line(game, "ada", "takeback 1", "a2")[0] == 0
    assert position(game) == at_zero and menus(game) == lines_zero
    assert verified(game)


def test_a_block_written_before_the_undo_is_stale(aor: Path) -> None:
    cy_block = signed(aor, "cy", [menus(aor)["cy"][0]], "c1")  # against seq 2
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    assert aor_line(aor, "ben", "accept takeback 1", "b2")[0] == 0
    before = aor.read_bytes()
    code, _, err = cli("apply", str(aor), str(cy_block))
    assert code == 4 and "stale block" in err and aor.read_bytes() == before


# --- refused, each leaving the file byte-identical ------------------------------------------


def refused(game: Path, block: Path, code: int, said: str) -> None:
    before = game.read_bytes()
    got, _, err = cli("apply", str(game), str(block))
    assert got == code and said in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert game.read_bytes() == before


def test_refused_until_everyone_accepted_and_after_a_refusal(aor: Path) -> None:
    at_two = position(aor)
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    assert position(aor) == at_two  # ben's acceptance is missing: nothing is undone
    code, out, err = aor_line(aor, "ben", "refuse takeback 1", "b2")
    assert code == 0 and "refuses to take back seq 1" in out, err
    refused(aor, signed(aor, "ben", ["accept takeback 1"], "b3"), 1,
            "no takeback of seq 1 is open")
    assert verified(aor)


def test_a_takeback_past_a_market_refill_is_refused_naming_the_entry(pax: Path) -> None:
    mover = acting(pax)
    assert apply(pax, block_for(pax, ["buy west 1", "end"]))[0] == 0  # `end` refills
    refused(pax, life_block(pax, mover, "takeback 1"), 1,
            "seq 1 is final (it drew or rolled (refill-west-")


def test_an_unknown_seq_and_someone_elses_block_are_refused(aor: Path) -> None:
    refused(aor, signed(aor, "ada", ["takeback 9"], "a9"), 1,
            "takeback 9: there is no block at seq 9")
    refused(aor, signed(aor, "ada", ["takeback 0"], "a0"), 1, "no block at seq 0")
    refused(aor, signed(aor, "cy", ["takeback 1"], "c1"), 1, "seq 1 is ada's block, not yours")
    refused(aor, signed(aor, "ada", ["accept takeback 1"], "a1x"), 1,
            "no takeback of seq 1 is open")
    refused(aor, signed(aor, "ada", ["takeback 1", "takeback 2"], "a12"), 3,
            "goes in a block of its own")


def test_a_forged_acceptance_is_refused(aor: Path) -> None:
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    gf = gamefile.load(aor)
    state = fingerprint(current_hash(gf))
    lines = ["accept takeback 1"]
    payload = canonical_payload(gf.game_id, "ben", gf.seq, state, lines)
    forged = aor.parent / "forged.txt"  # says ben, signed with ada's key
    forged.write_text(format_block(gf.game_id, "ben", gf.seq, state, lines,
                                   sign(load_private_key(aor.parent / "ada.key"), payload)))
    refused(aor, forged, 3, "signature")


# --- the report marks what can never be taken back -------------------------------------------


@pytest.mark.parametrize(("fmt", "lang", "said"), [
    ("text", "en", "! 'end' refills the market: after it this turn cannot be taken back."),
    ("markdown", "en", "**'end' refills the market: after it this turn cannot be taken back.**"),
    ("bbcode", "en", "[b]'end' refills the market: after it this turn cannot be taken back.[/b]"),
    ("text", "hu", "Az 'end' feltölti a Piacot: utána ez a kör már nem vehető vissza."),
])
def test_the_report_marks_a_final_line_before_it_is_sent(pax: Path, fmt: str, lang: str,
                                                         said: str) -> None:
    code, out, err = cli("report", str(pax), "--for", acting(pax), "--format", fmt,
                         "--lang", lang)
    assert code == 0 and "cannot be taken back" not in out and "nem vehető" not in out, err
    assert apply(pax, block_for(pax, ["buy west 1"]))[0] == 0  # a slot is empty now
    code, out, err = cli("report", str(pax), "--for", acting(pax), "--format", fmt,
                         "--lang", lang)
    assert code == 0 and said in out, err


# --- mail, git ---------------------------------------------------------------------


def test_a_takeback_sent_by_mail(pax: Path, tmp_path: Path) -> None:
    mover = acting(pax)
    before = position(pax)
    assert apply(pax, block_for(pax, ["buy west 1"]))[0] == 0
    email = str(gamefile.load(pax).roster_entry(mover)["email"])  # type: ignore[index]
    maildir, outbox = make_maildir(tmp_path / "Maildir"), Recorder()
    drop(maildir, plain(life_block(pax, mover, "takeback 1").read_text(), email))
    lines = inbox.process(mailboxes.read_maildir(maildir), [pax], outbox, settings_for(1), NOW)
    assert "applied as seq" in lines[0], lines
    assert position(pax) == before and verified(pax)


def test_takeback_line_through_git(pax: Path) -> None:
    from tests.pbem.test_git import git, init_repo

    repo = pax.parent
    init_repo(repo)
    (repo / ".gitignore").write_text("*.seed\n*.key\n*.txt\n")
    git(repo, "add", pax.name, ".gitignore")
    git(repo, "commit", "--quiet", "-m", "setup")
    mover = acting(pax)
    assert apply(pax, block_for(pax, ["buy west 1"]))[0] == 0
    code, out, err = cli("apply", str(pax), str(life_block(pax, mover, "takeback 1")),
                         "--commit")
    assert code == 0 and "committed " in out, err
    message = git(repo, "log", "-1", "--format=%B")
    assert "takes back seq 1" in message
    assert key_of(pax, mover).exists()


def test_the_moderators_takeback_is_granted_at_once_but_not_past_a_draw(pax: Path) -> None:
    """The ruling (docs/orders.md §7): in a moderated game the moderator's `takeback SEQ`
    needs no acceptance, as the moderator's `pause` needs no signatures; draws stay final."""
    from tests.pbem.test_pauses import moderator_block

    before = position(pax)
    assert apply(pax, block_for(pax, ["buy west 1"]))[0] == 0
    code, out, err = cli("apply", str(pax), str(moderator_block(pax, "takeback 1")))
    assert code == 0 and "the position is what it was at seq 0" in out, err
    assert position(pax) == before and verified(pax)
    assert apply(pax, block_for(pax, ["buy west 1", "end"]))[0] == 0
    refused(pax, moderator_block(pax, "takeback 4"), 1, "seq 4 is final")
    refused(pax, moderator_block(pax, "accept takeback 4"), 3,
            "the moderator sends 'takeback SEQ'")


def test_a_moderated_game_with_hidden_hands_takes_back_from_its_secrets(tmp_path: Path) -> None:
    """The whole position comes from the replay with the moderator's secrets; the next
    generation holds it, and verify with the secrets replays the undo."""
    from tests.reliability.test_commit_point import NAMES, block, ok

    for name in (*NAMES, "max"):
        ok("keygen", name, "--email", f"{name}@example.org", "--dir", str(tmp_path))
    game = tmp_path / "g.yaml"
    ok("new", str(game), *[a for n in NAMES for a in ("--player", str(tmp_path / f"{n}.pub"))],
       "--moderator", str(tmp_path / "max.pub"), "--ruleset", "aor", "--seed", "takeback")
    seat = json.loads(ok("status", str(game), "--json"))["waiting_for"][0]
    lines = json.loads(ok("options", str(game), "--json", "--for", seat))["lines"]
    before = position(game)
    ok("apply", str(game), str(block(game, seat, lines[0])))
    assert "taken back" in ok("apply", str(game), str(block(game, seat, "takeback 1")))
    assert position(game) == before
    assert json.loads(ok("options", str(game), "--json", "--for", seat))["lines"] == lines
    secrets = ["--secrets", str(game.with_suffix(".seed"))]
    assert ok("verify", str(game), *secrets).startswith("ok: ")
    ok("apply", str(game), str(block(game, seat, lines[-1])))  # play goes on
    assert ok("verify", str(game), *secrets).startswith("ok: ")


def test_sign_takes_a_takeback_line(pax: Path) -> None:
    mover = acting(pax)
    assert apply(pax, block_for(pax, ["buy west 1"]))[0] == 0
    orders = pax.parent / "undo.orders"
    orders.write_text("takeback 1\n")
    code, out, err = cli("sign", str(orders), "--key", str(key_of(pax, mover)), "--game",
                         str(pax))
    assert code == 0 and "takeback 1" in out, err
    assert apply(pax, out, "undo.txt")[0] == 0 and gamefile.load(pax).log[-1]["kind"] == "undo"


def test_the_log_marks_what_was_taken_back_and_the_past_report_replays_it(aor: Path) -> None:
    assert aor_line(aor, "ada", "takeback 1", "a2")[0] == 0
    assert aor_line(aor, "ben", "accept takeback 1", "b2")[0] == 0
    assert aor_line(aor, "cy", menus(aor)["cy"][0], "c3")[0] == 0  # seq 6
    code, out, err = cli("log", str(aor))
    assert code == 0, err
    assert "seq 1 (Ada, taken back at seq 5):" in out
    assert "seq 2 (Ben, taken back at seq 5):" in out and "seq 3 (Ada):" in out
    rows = json.loads(cli("log", str(aor), "--json")[1])
    assert [r["taken_back"] for r in rows] == [None, 5, 5, None, None, None, None]
    code, out, err = cli("report", str(aor), "--seq", "5", "--for", "ada")  # through the undo
    assert code == 0 and "seq 5" in out, err
    code, out, err = cli("report", str(aor), "--for", "ben", "--lang", "hu")
    assert code == 0 and "visszavéve" in out, err


@pytest.mark.parametrize(("folder", "name"), [("format2", "pax-timeouts.yaml"),
                                              ("format3", "pax-names.yaml")])
def test_an_older_game_takes_a_takeback(tmp_path: Path, folder: str, name: str) -> None:
    """A game begun by an older format: its settings are adopted first, as for a pause."""
    for item in (Path(__file__).parents[1] / "fixtures" / folder).iterdir():
        shutil.copy(item, tmp_path / item.name)
    game = tmp_path / name
    mover = acting(game)
    before, lines = position(game), legal(game)
    buy = next(line for line in lines if line.startswith("buy"))
    assert apply(game, block_for(game, [buy]))[0] == 0
    code, out, err = cli("apply", str(game), str(life_block(game, mover, f"takeback "
                                                            f"{gamefile.load(game).seq}")))
    assert code == 0 and "taken back" in out, err
    assert position(game) == before and legal(game) == lines
    assert verified(game)
