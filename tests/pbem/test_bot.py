"""`pbem bot` (issue 24, section 3): a self-play policy answers a seat's decisions with signed
blocks of legal lines, seeing only what the seat may see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.reliability.kit import AOR_NAMES, ok, pbem, snapshot

PAX_NAMES = ("ada", "ben", "cy")


def open_game(folder: Path, ruleset: str = "pax") -> tuple[Path, dict[str, Path]]:
    """A fresh open game of three players (seat -> key file)."""
    names = PAX_NAMES if ruleset == "pax" else AOR_NAMES
    for name in names:
        ok("keygen", name, "--email", f"{name}@example.org", "--dir", str(folder))
    game = folder / "g.yaml"
    ok("new", str(game), *[a for n in names for a in ("--player", str(folder / f"{n}.pub"))],
       "--open", "--seed", "bot-test", "--ruleset", ruleset)
    return game, keys_by_seat(game, folder)


def keys_by_seat(game: Path, folder: Path) -> dict[str, Path]:
    roster = json.loads(ok("roster", str(game), "--json"))
    return {row["id"]: folder / f"{row['name']}.key" for row in roster if row["id"] != "moderator"}


def status(game: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(ok("status", str(game), "--json"))
    return data


def play_bots(game: Path, keys: dict[str, Path], blocks: int, *extra: str) -> dict[str, object]:
    """Each owed seat's bot applies its blocks, until the game ends or `blocks` runs."""
    for _ in range(blocks):
        now = status(game)
        if now["over"]:
            break
        seat = now["waiting_for"][0]  # type: ignore[index]
        ok("bot", str(game), "--seat", seat, "--key", str(keys[seat]), "--apply", *extra)
    return status(game)


def test_greedy_bots_play_a_pax_game_to_its_end_and_it_verifies(tmp_path: Path) -> None:
    game, keys = open_game(tmp_path)
    end = play_bots(game, keys, 120)
    assert end["over"] and end["winners"]
    assert "verified" in ok("verify", str(game))


def test_the_printed_block_changes_nothing_applies_and_is_the_same_each_time(
        tmp_path: Path) -> None:
    game, keys = open_game(tmp_path)
    seat = status(game)["waiting_for"][0]  # type: ignore[index]
    before = snapshot(tmp_path)
    block = ok("bot", str(game), "--seat", seat, "--key", str(keys[seat]))
    assert block == ok("bot", str(game), "--seat", seat, "--key", str(keys[seat]))
    assert snapshot(tmp_path) == before
    assert "standing" not in block  # the bot answers each decision as it comes
    (tmp_path / "block.txt").write_text(block)
    ok("apply", str(game), str(tmp_path / "block.txt"))
    assert status(game)["seq"] == 1


@pytest.mark.parametrize(("args", "why"), [
    (["--seat", "{other}", "--key", "{key}"], "is not {other}'s key"),
    (["--seat", "nobody", "--key", "{key}"], "unknown seat 'nobody'"),
    (["--seat", "{seat}", "--key", "{key}", "--policy", "clever"], "unknown policy 'clever'"),
    (["--seat", "{seat}", "--key", "missing.key"], "cannot read key file"),
])
def test_wrong_seats_keys_and_policies_are_refused_with_nothing_written(
        tmp_path: Path, args: list[str], why: str) -> None:
    game, keys = open_game(tmp_path)
    seat = str(status(game)["waiting_for"][0])  # type: ignore[index]
    other = next(s for s in keys if s != seat)
    names = {"seat": seat, "other": other, "key": str(keys[seat])}
    before = snapshot(tmp_path)
    result = pbem("bot", str(game), *[a.format(**names) for a in args], "--apply")
    assert result.exit_code == 2 and why.format(**names) in result.stderr, result.stderr
    assert snapshot(tmp_path) == before


def test_a_seat_that_owes_nothing_is_told_so(tmp_path: Path) -> None:
    game, keys = open_game(tmp_path)
    owed = status(game)["waiting_for"]
    idle = next(s for s in keys if s not in owed)  # type: ignore[operator]
    out = ok("bot", str(game), "--seat", idle, "--key", str(keys[idle]), "--apply")
    assert out.startswith(f"{idle} owes nothing now; waiting for")
    assert status(game)["seq"] == 0


def test_age_of_renaissance_bots_seal_and_open_their_bids(tmp_path: Path) -> None:
    """Open AoR: the capital bid is commit and reveal; the bot seals (its opening kept beside
    its key, as `pbem sign --seal` does) and opens once every seal is in."""
    game, keys = open_game(tmp_path, "aor")
    play_bots(game, keys, 30, "--policy", "random")
    log = ok("log", str(game))
    assert "seal" in log.lower()
    assert list(tmp_path.glob("*.opening"))
    assert "verified" in ok("verify", str(game))
