"""Age of Renaissance through the pbem CLI (issue 8): registration, parallel and sealed
decisions answered by signed blocks in any order, reports, verify, self-play and cards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()
NAMES = ("ada", "ben", "cy", "dee", "eve", "fay", "gus")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def new_game(tmp_path: Path, n: int = 3, *extra: str) -> Path:
    players: list[str] = []
    for name in NAMES[:n]:
        if not (tmp_path / f"{name}.pub").exists():
            assert run("keygen", name, "--dir", str(tmp_path))[0] == 0
        players += ["--player", str(tmp_path / f"{name}.pub")]
    path = tmp_path / "g.yaml"
    code, out, err = run("new", str(path), "--ruleset", "aor", *players, "--seed", "aor-cli",
                         "--option", "end=epoch1", *extra)
    assert code == 0, err
    return path


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return new_game(tmp_path)


def status(game: Path) -> dict[str, object]:
    code, out, err = run("status", str(game), "--json")
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    return data


def lines_for(game: Path, player: str) -> list[str]:
    code, out, err = run("options", str(game), "--for", player, "--json")
    assert code == 0, err
    lines: list[str] = json.loads(out)["lines"]
    return lines


def signed(game: Path, player: str, lines: list[str], name: str = "block.txt") -> Path:
    orders = game.parent / f"{name}.orders"
    orders.write_text("\n".join(lines) + "\n")
    # --force: some tests send illegal lines on purpose, to see `apply` refuse them
    code, out, err = run("sign", str(orders), "--key", str(game.parent / f"{player}.key"),
                         "--game", str(game), "--force")
    assert code == 0, err
    block = game.parent / name
    block.write_text(out)
    return block


def apply(game: Path, block: Path) -> tuple[int, str, str]:
    return run("apply", str(game), str(block))


def test_new_takes_three_to_six_players(tmp_path: Path) -> None:
    for n in (2, 7):
        folder = tmp_path / str(n)
        folder.mkdir()
        for name in NAMES[:n]:
            run("keygen", name, "--dir", str(folder))
        args = [a for name in NAMES[:n] for a in ("--player", str(folder / f"{name}.pub"))]
        code, _, err = run("new", str(folder / "g.yaml"), "--ruleset", "aor", *args)
        assert code == 2 and "3 to 6" in err
        assert not (folder / "g.yaml").exists()
    code, _, err = run("new", str(tmp_path / "x.yaml"), "--ruleset", "aor", "--option",
                       "end=never", *[a for n in NAMES[:3] for a in
                                      ("--player", str(tmp_path / "7" / f"{n}.pub"))])
    assert code == 2 and "end must be one of" in err


def test_status_and_options_of_the_parallel_return(game: Path) -> None:
    data = status(game)
    assert data["ruleset"] == "aor" and data["waiting_for"] == ["ada", "ben", "cy"]
    assert data["received"] == [] and data["sealed"] is False
    for player in ("ada", "ben", "cy"):
        lines = lines_for(game, player)
        assert len(lines) == 3 and all(line.startswith("return ") for line in lines)
    assert lines_for(game, "ada") != lines_for(game, "ben")
    code, _, err = run("options", str(game), "--for", "zed")
    assert code == 2 and "unknown player 'zed'" in err


def test_parallel_answers_in_any_order_against_the_opening_state(game: Path) -> None:
    blocks = {p: signed(game, p, [lines_for(game, p)[0]], f"{p}.txt") for p in ("cy", "ada", "ben")}
    assert apply(game, blocks["cy"])[0] == 0
    assert status(game)["received"] == ["cy"]
    again = signed(game, "cy", [lines_for(game, "ada")[0]], "again.txt")
    before = game.read_bytes()
    code, _, err = apply(game, again)
    assert code == 4 and "already answered" in err
    code, _, err = apply(game, blocks["cy"])  # the same block twice
    assert code == 4 and "already answered" in err
    assert game.read_bytes() == before
    assert apply(game, blocks["ada"])[0] == 0  # still written against seq 0
    assert apply(game, blocks["ben"])[0] == 0
    data = status(game)
    assert data["seq"] == 3 and data["sealed"] is True and data["received"] == []
    code, out, err = run("verify", str(game))
    assert code == 0 and "4 log entries verified" in out, err


def test_sealed_bids_show_as_received_only(game: Path) -> None:
    for p in ("ada", "ben", "cy"):
        assert apply(game, signed(game, p, [lines_for(game, p)[0]], f"{p}.txt"))[0] == 0
    assert apply(game, signed(game, "ben", ["bid 7"]))[0] == 0
    code, out, _ = run("status", str(game))
    assert code == 0 and "sealed bids received: ben" in out
    code, public, _ = run("report", str(game))
    assert code == 0 and "ben: bid received" in public and "bid 7" not in public
    code, mine, _ = run("report", str(game), "--for", "ben")
    assert "Your sealed answer: bid 7" in mine
    code, theirs, _ = run("report", str(game), "--for", "ada", "--format", "markdown")
    assert code == 0 and "Your sealed answer" not in theirs and "## Your hand" in theirs
    assert "send your block to the moderator only" in theirs
    code, _, err = apply(game, signed(game, "ada", ["bid 41"]))
    assert code == 1 and "bid 41" in err


def test_report_shows_players_hand_map_and_orders(game: Path) -> None:
    code, out, _ = run("report", str(game), "--for", "cy")
    assert code == 0
    for heading in ("PLAYERS", "YOUR HAND", "MAP", "YOUR ORDERS", "BEGIN PBEM ORDERS"):
        assert heading in out
    assert "HAND OF" not in out
    code, public, _ = run("report", str(game))
    assert "YOUR HAND" not in public and "YOUR ORDERS" not in public


def test_open_game_says_so_and_shows_every_hand(tmp_path: Path) -> None:
    game = new_game(tmp_path, 4, "--open")
    code, out, _ = run("report", str(game))
    assert code == 0 and "Open game" in out and out.count("HAND OF") == 4


def test_selfplay_and_cards(tmp_path: Path) -> None:
    code, out, err = run("selfplay", "--ruleset", "aor", "--players", "3", "--games", "1",
                         "--out", str(tmp_path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["ruleset"] == "aor" and data["games"] == 1 and data["invariant_violations"] == 0
    assert run("selfplay", "--ruleset", "aor", "--players", "2")[0] == 2
    code, out, _ = run("cards", "--ruleset", "aor")
    assert code == 0 and "The Heavens" in out and "Stirrups" in out
    code, out, _ = run("cards", "--ruleset", "aor", "caravan", "--json")
    assert json.loads(out)[0]["cost"] == 20


def test_sign_warns_that_a_sealed_bid_goes_to_the_moderator_only(game: Path) -> None:
    for p in ("ada", "ben", "cy"):
        assert apply(game, signed(game, p, [lines_for(game, p)[0]], f"{p}.txt"))[0] == 0
    orders = game.parent / "bid.orders"
    orders.write_text("bid 3\n")
    code, out, err = run("sign", str(orders), "--key", str(game.parent / "ada.key"),
                         "--game", str(game))
    assert code == 0 and "BEGIN PBEM ORDERS" in out and "moderator only" in err
    code, out, _ = run("apply", str(game), str(game.parent / "ada.txt"), "--dry-run")
    assert code == 4  # already answered the return
