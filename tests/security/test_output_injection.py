"""Injection in output: hostile player names (from a `.pub` comment) and hostile text in the
history cannot add BBCode tags or Markdown links to a report or forum post, and no format
shows bidirectional or terminal control characters."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app
from pbem.orders.orderblock import find_blocks
from pbem.orders.signatures import PublicKey, parse_public_key, write_keypair
from pbem.pipeline import opening as games
from pbem.views import model as views
from pbem.views import report
from pbem.views.report import FORMATS, bbcode_escape, markdown_escape, safe_text

runner = CliRunner()
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
HOSTILE = (
    "[url=javascript:alert(1)]Ada[/url][img]https://evil.example/x.png[/img][/code][/list]"
    "[x](javascript:alert(2))<img src=x onerror=alert(3)>|*_`\u202egnp.exe\u2066\x1b[31mred\x07"
)
# Every tag a report writes itself; anything else in a BBCode report came from data.
OWN_TAGS = {"size", "b", "u", "i", "list", "*", "code"}
_TAG = re.compile(r"\[(/?)([a-z*]+)(?:=[^\]]*)?\]", re.IGNORECASE)


def hostile_game(tmp_path: Path, ruleset: str = "pax") -> Path:
    keys: list[PublicKey] = []
    for index, name in enumerate(("ada", "ben", "cy")):
        write_keypair(tmp_path / name, name, f"{name}@example.org")
        line = (tmp_path / f"{name}.pub").read_text().split()[1]
        comment = f"{HOSTILE}{index} <{name}@example.org>"
        (tmp_path / f"{name}.pub").write_text(f"ed25519 {line} {comment}\n", encoding="utf-8")
        keys.append(parse_public_key((tmp_path / f"{name}.pub").read_text(encoding="utf-8")))
    assert keys[0].name == HOSTILE + "0"
    path = tmp_path / "g.yaml"
    api.new_game(path, keys, game_id="lisbon", ruleset_name=ruleset, seed_text="inject")
    return path


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.stderr
    return result.stdout


def assert_safe(text: str, fmt: str) -> None:
    assert not set(text) & set(BIDI + "\x1b\x07"), f"control characters in the {fmt} output"
    if fmt == "bbcode":
        tags = {name.lower() for _, name in _TAG.findall(text)}
        assert tags <= OWN_TAGS, f"tags from data: {tags - OWN_TAGS}"
        assert text.count("[code]") == text.count("[/code]")
        assert text.count("[list]") == text.count("[/list]")
    if fmt == "markdown":
        assert "](javascript" not in text.replace("\\](javascript", "")
        assert "<img" not in text.replace("\\<img", "")


@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_names_in_every_pax_report_format(tmp_path: Path, fmt: str) -> None:
    path = hostile_game(tmp_path)
    mover = str(api.status(path)["waiting_for"][0])
    for out in (cli("report", str(path), "--for", mover, "--format", fmt),
                cli("report", str(path), "--format", fmt), cli("post", str(path), "--format", fmt)):
        assert_safe(out, fmt)
        assert "gnp.exe" in out and "red" in out  # the name is shown, only made harmless
    if fmt == "bbcode":
        assert "[\u200burl=javascript:alert(1)]Ada[\u200b/url]" in out
        assert "[\u200b/code]" in out


def test_the_block_in_a_bbcode_report_still_reads_after_escaping(tmp_path: Path) -> None:
    path = hostile_game(tmp_path)
    mover = str(api.status(path)["waiting_for"][0])
    out = cli("report", str(path), "--for", mover, "--format", "bbcode")
    (block,) = find_blocks(out)
    assert (block.game, block.player) == ("lisbon", mover)


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_hostile_history_and_deadlines_in_every_format(tmp_path: Path, ruleset: str, fmt: str) -> None:
    # History words and deadline lines are data too: a rule's event may quote a name.
    path = hostile_game(tmp_path, ruleset)
    model: dict[str, Any] = views.report_model(games.open_game(path, whole=False), None)
    player = model["header"]["players"][0]["id"]
    model["history"] = [{"seq": 1, "player": player, "texts": [HOSTILE, "plain"]}]
    model["deadlines"] = [{"who": HOSTILE, "when": HOSTILE, "late": True}]
    out = report.render(model, fmt)
    assert_safe(out, fmt)
    assert out.count("gnp.exe") >= 3  # the history line and both deadline fields


def test_the_escape_filters() -> None:
    assert bbcode_escape("[b]x[/b] [img]") == "[\u200bb]x[\u200b/b] [\u200bimg]"
    assert markdown_escape("[a](b) <i>") == "\\[a\\](b) \\<i\\>"
    for escape in (bbcode_escape, markdown_escape, safe_text):
        assert escape(f"a{BIDI}\x1b\x00\x7f\x85b\tc\nd") == "ab\tc\nd"
    assert safe_text("Zo\u00eb \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627") == \
        "Zo\u00eb \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627"  # scripts are kept


def test_mail_to_a_seat_never_reaches_a_second_address(tmp_path: Path) -> None:
    """A .pub e-mail of 'cy@example.org, eve@evil.example' must not add a recipient; names in
    headers are encoded by the library, with bidirectional controls stripped."""
    from pbem.delivery.mail import recipient
    from pbem.store.gamefile import GameFile

    def roster(email: str, name: str) -> GameFile:
        return GameFile({"id": "g"}, {"players": [{"id": "cy", "name": name, "email": email,
                                                   "key": ""}]}, {}, 0, {}, [])

    assert recipient(roster("cy@example.org, eve@evil.example", "Cy"), "cy") is None
    assert recipient(roster("Cy <cy@example.org>", "Cy"), "cy") is None
    shown = recipient(roster("cy@example.org", "C\u202ey <x@evil.example>"), "cy")
    assert shown is not None and "\u202e" not in shown and shown.endswith("<cy@example.org>")


def test_a_game_id_cannot_name_a_path(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app

    runner = CliRunner()
    for name in ("ada", "ben"):
        assert runner.invoke(app, ["keygen", name, "--dir", str(tmp_path)]).exit_code == 0
    players = [a for n in ("ada", "ben") for a in ("--player", str(tmp_path / f"{n}.pub"))]
    result = runner.invoke(app, ["new", str(tmp_path / "g.yaml"), *players, "--id",
                                 "../../escaped"])
    assert result.exit_code == 2 and "is not allowed" in result.stderr
    assert not (tmp_path / "g.yaml").exists()
    made = runner.invoke(app, ["new", str(tmp_path / "my game!.yaml"), *players])
    assert made.exit_code == 0 and "game my-game-" in made.stdout


# --- mail headers and bodies, commit messages (issue 21 §5) ---------------------------------

# Header-breaking names: a line or paragraph separator, then a header; HTML tags. (A CR or
# LF cannot reach a name: a .pub file is one line, see the next test.)
BREAKING = ("\u2028Bcc: eve@evil.example\u2029Cc: eve@evil.example\u0085<b onmouseover=x>"
            "<script>alert(4)</script>")


def breaking_game(tmp_path: Path) -> Path:
    """A game whose .pub comments hold HOSTILE and BREAKING in the names, and, for cy, a
    second address where the e-mail goes."""
    for index, name in enumerate(("ada", "ben", "cy")):
        write_keypair(tmp_path / name, name, f"{name}@example.org")
        line = (tmp_path / f"{name}.pub").read_text().split()[1]
        email = "cy@example.org, eve@evil.example" if name == "cy" else f"{name}@example.org"
        comment = f"{HOSTILE}{BREAKING}{index} <{email}>"
        (tmp_path / f"{name}.pub").write_text(f"ed25519 {line} {comment}\n", encoding="utf-8")
    players = [a for n in ("ada", "ben", "cy") for a in ("--player", str(tmp_path / f"{n}.pub"))]
    path = tmp_path / "g.yaml"
    result = runner.invoke(app, ["new", str(path), *players, "--id", "lisbon", "--seed", "x"])
    assert result.exit_code == 0, result.stderr
    assert_safe(result.stdout, "text")
    return path


@pytest.mark.parametrize("brk", ["\n", "\r", "\r\n"])
def test_a_line_break_cannot_be_put_in_a_pub_comment(tmp_path: Path, brk: str) -> None:
    write_keypair(tmp_path / "ada", "ada", None)
    line = (tmp_path / "ada.pub").read_text().split()[1]
    (tmp_path / "ada.pub").write_bytes(
        f"ed25519 {line} Ada{brk}Bcc: eve@evil.example <ada@example.org>\n".encode())
    result = runner.invoke(app, ["new", str(tmp_path / "g.yaml"), "--player",
                                 str(tmp_path / "ada.pub"), "--player", str(tmp_path / "ada.pub")])
    assert result.exit_code == 2 and "one line" in result.stderr
    assert not (tmp_path / "g.yaml").exists()


def test_hostile_names_and_addresses_in_every_mail(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from email import policy
    from email.parser import BytesParser
    from email.utils import getaddresses

    path = breaking_game(tmp_path)
    monkeypatch.setenv("PBEM_MAIL_FROM", "Host <host@example.org>")
    out = cli("send", str(path), "--outbox", str(tmp_path / "out"))
    assert_safe(out, "text")
    messages = [BytesParser(policy=policy.default).parsebytes(p.read_bytes())
                for p in sorted((tmp_path / "out").glob("*.eml"))]
    roster = games.open_game(path, whole=False).gf.roster["players"]
    cy = next(p["id"] for p in roster if "," in p["email"])
    assert {str(m["X-Pbem-For"]) for m in messages} == {p["id"] for p in roster} - {cy}
    for message in messages:
        assert not {k.lower() for k in message} & {"bcc", "cc"}
        recipients = getaddresses([str(v) for k in ("To", "Cc", "Bcc") for v in
                                   message.get_all(k, [])])
        assert len(recipients) == 1 and not recipients[0][1].endswith("evil.example")
        for key, value in message.items():
            assert not set(str(value)) & set(BIDI + "\x1b\x07\r\u2028\u2029"), key
        for part in message.walk():
            if part.get_content_maintype() == "text":
                fmt = "markdown" if part.get_content_subtype() == "markdown" else "text"
                assert_safe(part.get_content(), fmt)
                if fmt == "markdown":
                    assert "<script" not in part.get_content().replace("\\<script", "")


@pytest.mark.skipif(__import__("shutil").which("git") is None, reason="needs git")
def test_hostile_names_in_commit_messages(tmp_path: Path) -> None:
    import subprocess

    from pbem.orders.signing import sign_orders

    path = breaking_game(tmp_path)
    for args in (["init", "-q"], ["config", "user.email", "h@example.org"],
                 ["config", "user.name", "Host"], ["add", "g.yaml"], ["commit", "-qm", "start"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)
    mover = str(api.status(path)["waiting_for"][0])
    entry = games.open_game(path, whole=False).gf.roster_entry(mover)
    assert entry is not None
    owner = next(n for n in ("ada", "ben", "cy") if entry["key"] ==
                 parse_public_key((tmp_path / f"{n}.pub").read_text()).roster_text())
    line = str(api.legal_lines(path, mover)["lines"][0])
    (tmp_path / "b.txt").write_text(sign_orders(line + "\n", tmp_path / f"{owner}.key", path))
    assert_safe(cli("apply", str(path), str(tmp_path / "b.txt"), "--commit"), "text")
    message = subprocess.run(["git", "log", "-1", "--format=%B"], cwd=tmp_path, check=True,
                             capture_output=True, text=True).stdout
    assert_safe(message, "text")
    assert "\r" not in message and message.split("\n", 1)[0].startswith("lisbon seq 1: ")
