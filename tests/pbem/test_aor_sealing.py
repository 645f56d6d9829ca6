"""Open Age of Renaissance games seal their bids by commit and reveal (issue 8; aor-pbem 6.2):
`pbem sign --seal LINE` sends only `seal HEX`, `pbem sign --open` reveals it once every seal is
in, an opening must match its seal, a seal never opened counts as 0 and goes last."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine.core.sealing import seal_of
from tests.pbem.test_aor_cli import apply, lines_for, new_game, run, signed, status


def sealed_block(game: Path, player: str, line: str) -> Path:
    code, out, err = run("sign", "--seal", line, "--key", str(game.parent / f"{player}.key"),
                         "--game", str(game))
    assert code == 0, err
    block = game.parent / f"seal-{player}.txt"
    block.write_text(out)
    return block


def opening_block(game: Path, player: str) -> Path:
    code, out, err = run("sign", "--open", "--key", str(game.parent / f"{player}.key"),
                         "--game", str(game))
    assert code == 0, err
    block = game.parent / f"open-{player}.txt"
    block.write_text(out)
    return block


@pytest.fixture
def bidding(tmp_path: Path) -> Path:
    """An open 3-player game at the sealed capital bid (8.3)."""
    game = new_game(tmp_path, 3, "--open")
    for player in ("ada", "ben", "cy"):
        assert apply(game, signed(game, player, [lines_for(game, player)[0]]))[0] == 0
    data = status(game)
    assert data["sealed"] is True and data["sealing"] == "seal"
    return game


def test_open_games_seal_by_commit_and_moderated_games_refuse_the_option(tmp_path: Path) -> None:
    header = (tmp_path / "a").mkdir() or new_game(tmp_path / "a", 3, "--open").read_text()
    assert "sealing: commit" in header
    code, _, err = run("new", str(tmp_path / "m.yaml"), "--ruleset", "aor", "--option",
                       "sealing=commit", *[a for n in ("ada", "ben", "cy")
                                           for a in ("--player", str(tmp_path / "a" / f"{n}.pub"))])
    assert code == 2 and "for open games" in err


def test_a_seal_reveals_nothing_and_a_plain_bid_is_refused(bidding: Path) -> None:
    before = bidding.read_bytes()
    code, _, err = apply(bidding, signed(bidding, "ada", ["bid 12"]))
    assert code == 1 and "sealed by commit and reveal" in err and "bid 12" in err
    assert bidding.read_bytes() == before
    block = sealed_block(bidding, "ada", "bid 12")
    assert "bid 12" not in block.read_text() and "seal " in block.read_text()
    opening = json.loads(next(bidding.parent.glob("ada.*.opening")).read_text())
    assert opening["line"] == "bid 12" and opening["seal"] in block.read_text()
    assert apply(bidding, block)[0] == 0
    assert "bid 12" not in bidding.read_text()
    assert status(bidding)["received"] == ["ada"]
    # a newer seal would replace ada's until every seal is in (tests/pbem/test_rebid.py)
    code, _, err = run("sign", "--open", "--key", str(bidding.parent / "ada.key"),
                       "--game", str(bidding))
    assert code == 2 and "seals are still awaited" in err
    data = json.loads(run("options", str(bidding), "--for", "ben", "--json")[1])
    assert data["lines"] == [] and data["sealing"] == "seal" and "bid 40" in data["seal_lines"]


def test_every_seal_opened_resolves_the_bids_and_verify_replays_them(bidding: Path) -> None:
    bids = {"ada": "bid 7", "ben": "bid 3", "cy": "bid 5"}
    for player, line in bids.items():
        assert apply(bidding, sealed_block(bidding, player, line))[0] == 0
    assert status(bidding)["sealing"] == "open"
    report = run("report", str(bidding), "--for", "ben")[1]
    assert "pbem sign --open" in report and "bid 7" not in report
    for player in ("cy", "ada"):
        assert apply(bidding, opening_block(bidding, player))[0] == 0
    assert status(bidding)["opened"] == ["ada", "cy"]
    code, out, _ = apply(bidding, opening_block(bidding, "ben"))
    assert code == 0 and "Capitals are chosen in this order: ada, cy, ben" in out
    code, out, err = run("verify", str(bidding))
    assert code == 0, err


def test_an_opening_that_does_not_match_its_seal_is_rejected(bidding: Path) -> None:
    for player in ("ada", "ben", "cy"):
        assert apply(bidding, sealed_block(bidding, player, "bid 4"))[0] == 0
    nonce = json.loads(next(bidding.parent.glob("ada.*.opening")).read_text())["nonce"]
    before = bidding.read_bytes()
    code, _, err = apply(bidding, signed(bidding, "ada", [f"open bid 9 nonce {nonce}"]))
    assert code == 1 and "does not match" in err
    code, _, err = apply(bidding, signed(bidding, "ada", [f"open bid 4 nonce {'0' * 64}"]))
    assert code == 1 and "does not match" in err
    code, _, err = apply(bidding, signed(bidding, "ada", ["open bid 41 nonce " + nonce]))
    assert code == 1 and "more than the 40 ducats you hold" in err and "bid 0" in err
    assert bidding.read_bytes() == before


def test_a_seal_never_opened_counts_as_zero_and_goes_last(bidding: Path) -> None:
    for player, line in (("ada", "bid 1"), ("ben", "bid 20"), ("cy", "bid 2")):
        assert apply(bidding, sealed_block(bidding, player, line))[0] == 0
    for player in ("ada", "cy"):
        assert apply(bidding, opening_block(bidding, player))[0] == 0
    # No moderator here: only an overdue decision times out (issue 21).
    assert run("deadlines", str(bidding), "--set", "default=1h",
               "--now", "2027-03-01T00:00:00Z")[0] == 0
    assert run("timeout", str(bidding), "--now", "2027-03-01T00:00:00Z")[0] == 0  # the clock
    code, out, err = run("timeout", str(bidding), "--player", "ben",
                         "--now", "2027-03-01T02:00:00Z")
    assert code == 0, err
    assert "ben 0" in out and "order: cy, ada, ben" in out
    code, out, err = run("verify", str(bidding))
    assert code == 0, err


def test_the_seal_is_the_documented_hash() -> None:
    text = "pbem-seal-1|n7|ada|tokens 12|" + "ab" * 32
    assert seal_of("n7", "ada", "tokens 12", "ab" * 32) == hashlib.sha256(text.encode()).hexdigest()
