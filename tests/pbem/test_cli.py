"""The CLI end to end on temp game files: exit codes, exact error lines, files left unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from tests import fast_yaml

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Path:
    for name in ("ada", "ben", "cy"):
        assert run("keygen", name, "--email", f"{name}@example.org", "--dir", str(tmp_path))[0] == 0
    path = tmp_path / "g.yaml"
    code, out, err = run("new", str(path), "--player", str(tmp_path / "ada.pub"),
                         "--player", str(tmp_path / "ben.pub"), "--player",
                         str(tmp_path / "cy.pub"), "--seed", "cli-test")
    assert code == 0, err
    return path


def roster_key(game: Path, bank: str) -> Path:
    data = fast_yaml.safe_load(game.read_text())
    name = next(p["name"] for p in data["roster"]["players"] if p["id"] == bank)
    return game.parent / f"{name}.key"


def status(game: Path) -> dict[str, object]:
    code, out, _ = run("status", str(game), "--json")
    assert code == 0
    data: dict[str, object] = json.loads(out)
    return data


def acting(game: Path) -> str:
    waiting = status(game)["waiting_for"]
    assert isinstance(waiting, list)
    return str(waiting[0])


def signed(game: Path, lines: list[str], player: str | None = None) -> Path:
    bank = player or acting(game)
    orders = game.parent / "orders.txt"
    orders.write_text("\n".join(lines) + "\n")
    # --force: these tests send illegal lines on purpose, to see `apply` refuse them
    code, out, err = run("sign", str(orders), "--key", str(roster_key(game, bank)),
                         "--game", str(game), "--force")
    assert code == 0, err
    block = game.parent / "block.txt"
    block.write_text(out)
    return block


def test_every_command_has_help() -> None:
    for command in ("keygen", "new", "sign", "apply", "options", "report", "status", "verify",
                    "reveal"):
        code, out, _ = run(command, "--help")
        assert code == 0 and "Usage" in out, command


def test_keygen_writes_private_key_with_mode_0600(tmp_path: Path) -> None:
    assert run("keygen", "zed", "--email", "z@example.org", "--dir", str(tmp_path))[0] == 0
    assert (tmp_path / "zed.key").stat().st_mode & 0o777 == 0o600
    assert re.fullmatch(r"ed25519 \S+ zed <z@example.org>\n", (tmp_path / "zed.pub").read_text())
    code, _, err = run("keygen", "zed", "--dir", str(tmp_path))
    assert code == 2 and "exists" in err


def test_new_game_status_and_options(game: Path) -> None:
    data = status(game)
    assert {"seq", "state", "over", "winners", "waiting_for"} <= set(data)
    assert data["seq"] == 0 and data["over"] is False
    code, out, _ = run("options", str(game), "--json")
    options = json.loads(out)
    assert options["player"] == data["waiting_for"][0]  # type: ignore[index]
    assert options["state"] == data["state"] and options["decision"] == "choose an action"
    assert "fair east" in options["lines"] and "end" not in options["lines"]
    assert (game.parent / "g.seed").stat().st_mode & 0o777 == 0o600
    seed = (game.parent / "g.seed").read_text().strip()
    assert seed not in game.read_text()


def test_signed_block_applies_and_verifies(game: Path) -> None:
    first = acting(game)
    code, out, err = run("apply", str(game), str(signed(game, ["buy west 1", "end"])))
    assert code == 0, err
    assert "buys" in out
    assert status(game)["seq"] == 1 and acting(game) != first
    code, out, _ = run("verify", str(game))
    assert code == 0 and "2 log entries verified" in out


def test_each_line_of_options_applies_alone(game: Path) -> None:
    _, out, _ = run("options", str(game), "--json")
    for line in json.loads(out)["lines"][:6]:
        copy = game.parent / "copy.yaml"
        copy.write_bytes(game.read_bytes())
        (game.parent / "copy.seed").write_bytes((game.parent / "g.seed").read_bytes())
        text = game.read_text().replace("seed_file: g.seed", "seed_file: copy.seed")
        copy.write_text(text)
        code, _, err = run("apply", str(copy), str(signed(copy, [line])))
        assert code == 0, f"{line}: {err}"


def test_stale_block_is_rejected_and_file_unchanged(game: Path) -> None:
    other = game.parent / "other.txt"
    other.write_text(signed(game, ["buy west 2", "end"]).read_text())  # also for seq 0
    block = signed(game, ["buy west 1", "end"])
    assert run("apply", str(game), str(block))[0] == 0
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(block))  # the same block again: applied before
    assert code == 4 and err.startswith("error: already applied as seq 1")
    code, _, err = run("apply", str(game), str(other))  # never applied, and now stale
    assert code == 4 and err.startswith("error: stale block")
    assert game.read_bytes() == before


def test_tampered_order_fails_signature(game: Path) -> None:
    block = signed(game, ["buy west 1", "end"])
    block.write_text(block.read_text().replace("buy west 1", "buy east 1"))
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(block))
    assert code == 3 and "signature" in err
    assert game.read_bytes() == before


def test_block_from_another_player_is_not_their_decision(game: Path) -> None:
    other = next(p for p in ("fugger", "medici", "coeur", "marchionni")
                 if p != acting(game) and p in game.read_text())
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(signed(game, ["end"], player=other)))
    assert code == 4 and f"it is not {other}'s decision" in err
    assert game.read_bytes() == before


def test_illegal_line_names_the_line_and_the_legal_options(game: Path) -> None:
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(signed(game, ["buy west 1", "buy west 9"])))
    assert code == 1
    assert err.startswith("error: line 2: 'buy west 9':") and "legal:" in err and "end" in err
    assert game.read_bytes() == before


def test_unknown_word_is_unreadable(game: Path) -> None:
    code, _, err = run("apply", str(game), str(signed(game, ["dance"])))
    assert code == 1 and "line 1: 'dance': unknown order word 'dance'" in err


def test_leftover_lines_after_the_turn_are_rejected(game: Path) -> None:
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(signed(game, ["buy west 1", "end", "fair east"])))
    assert code == 1 and "line 3: 'fair east': control has passed" in err
    assert game.read_bytes() == before


def test_no_block_and_missing_file(game: Path, tmp_path: Path) -> None:
    empty = tmp_path / "mail.txt"
    empty.write_text("hello, no orders here\n")
    assert run("apply", str(game), str(empty))[0] == 3
    code, _, err = run("status", str(tmp_path / "nope.yaml"))
    assert code == 2 and "no game file" in err


def test_corrupt_game_file_exits_5(game: Path) -> None:
    game.write_text(game.read_text() + "surprise: 1\n")
    code, _, err = run("status", str(game))
    assert code == 5 and "unknown top-level key 'surprise'" in err


def test_verify_names_the_first_tampered_entry(game: Path) -> None:
    assert run("apply", str(game), str(signed(game, ["buy west 1", "end"])))[0] == 0
    data = fast_yaml.safe_load(game.read_text())
    data["log"][1]["events"] = [{"kind": "info", "msg": "pax.nothing"}]
    bank = data["log"][1]["player"]
    data["state"]["players"][bank]["florins"] += 5
    game.write_text(yaml.safe_dump(data, sort_keys=False))
    code, _, err = run("verify", str(game))
    assert code == 5 and "log entry seq 1" in err


def test_moderated_game_needs_the_seed_for_draws(game: Path) -> None:
    (game.parent / "g.seed").rename(game.parent / "hidden.seed")
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(signed(game, ["buy west 1", "end"])))
    assert code == 2 and "seed file g.seed" in err
    assert game.read_bytes() == before
    code, out, _ = run("verify", str(game))
    assert code == 0 and "replayed as logged" in out


def test_reveal_only_at_the_end_unless_forced(game: Path) -> None:
    code, _, err = run("reveal", str(game))
    assert code == 2 and "not over" in err
    code, out, _ = run("reveal", str(game), "--force")
    assert code == 0
    seed = (game.parent / "g.seed").read_text().strip()
    assert seed in game.read_text()
    code, out, _ = run("verify", str(game))
    assert code == 0 and "re-derived from the seed" in out


def test_report_for_unknown_player_and_formats(game: Path) -> None:
    code, _, err = run("report", str(game), "--for", "nobody")
    assert code == 2 and "unknown player 'nobody'" in err
    code, _, err = run("report", str(game), "--format", "pdf")
    assert code == 2 and "unknown format 'pdf'" in err
    code, out, _ = run("report", str(game), "--for", acting(game), "--format", "markdown")
    assert code == 0 and "BEGIN PBEM ORDERS" in out


def test_dry_run_shows_report_and_writes_nothing(game: Path) -> None:
    before = game.read_bytes()
    code, out, _ = run("apply", str(game), str(signed(game, ["fair west"])), "--dry-run")
    assert code == 0 and "dry run" in out and "convenes the west trade fair" in out
    assert game.read_bytes() == before


def test_quoted_old_block_in_a_reply_is_passed_over(game: Path) -> None:
    old = signed(game, ["buy west 1", "end"]).read_text()
    assert run("apply", str(game), str(game.parent / "block.txt"))[0] == 0
    new = signed(game, ["buy east 1", "end"]).read_text()
    mail = game.parent / "mail.txt"
    quoted = "".join(f"> {line}\n" for line in old.splitlines())
    mail.write_text(f"My orders:\n\n{new}\nOn Monday you wrote:\n{quoted}")
    code, out, err = run("apply", str(game), str(mail))
    assert code == 0, err
    assert "other block(s) ignored" in out


def test_reply_quoting_the_report_and_its_skeleton_applies(game: Path) -> None:
    player = acting(game)
    code, report_text, _ = run("report", str(game), "--for", player)
    block = signed(game, ["buy west 1", "end"]).read_text()
    mail = game.parent / "reply.txt"
    mail.write_text(block + "\n" + "".join(f"> {line}\n" for line in report_text.splitlines()))
    code, out, err = run("apply", str(game), str(mail))
    assert code == 0, err


def test_a_bare_skeleton_is_no_order_block(game: Path) -> None:
    _, report_text, _ = run("report", str(game), "--for", acting(game))
    mail = game.parent / "skeleton.txt"
    mail.write_text(report_text)
    code, _, err = run("apply", str(game), str(mail))
    assert code == 3 and "no order block found" in err


def test_an_unsigned_block_with_orders_is_refused(game: Path) -> None:
    text = signed(game, ["buy west 1", "end"]).read_text()
    unsigned = text.split("-----BEGIN PBEM SIGNATURE-----")[0] + "-----END PBEM ORDERS-----\n"
    mail = game.parent / "unsigned.txt"
    mail.write_text(unsigned)
    code, _, err = run("apply", str(game), str(mail))
    assert code == 3 and "not signed" in err


def test_sign_with_the_game_refuses_an_illegal_line_unless_forced(game: Path) -> None:
    orders = game.parent / "orders.txt"
    orders.write_text("marry hungry\n")
    key = str(roster_key(game, acting(game)))
    code, out, err = run("sign", str(orders), "--key", key, "--game", str(game))
    assert code == 1 and out == "" and "line 1: 'marry hungry'" in err and "--force" in err
    code, out, _ = run("sign", str(orders), "--key", key, "--game", str(game), "--force")
    assert code == 0 and "BEGIN PBEM ORDERS" in out


def test_a_resent_block_says_it_was_applied_already(game: Path) -> None:
    block = signed(game, ["buy west 1", "end"])
    assert run("apply", str(game), str(block))[0] == 0
    code, _, err = run("apply", str(game), str(block))
    assert code == 4 and "already applied as seq 1" in err


def test_payload_prints_the_bytes_the_signature_covers(game: Path) -> None:
    from pbem.orders.orderblock import find_blocks

    block = signed(game, ["buy west 1", "end"])
    result = runner.invoke(app, ["payload", str(block)])
    assert result.exit_code == 0
    assert result.stdout_bytes == find_blocks(block.read_text())[0].payload()
    code, _, err = run("payload", str(game))  # a game file holds no block
    assert code == 2 and "expected one order block, found 0" in err
