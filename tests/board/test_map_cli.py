"""`pbem map` on game files: a moderated Age of Renaissance game keeps each hand to its owner,
and bad input gets one line and its exit code with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from pbem import api, rulesets
from pbem.cli import app
from pbem.errors import ExitCode
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import parse_public_key, public_key_line, sign
from pbem.pipeline.opening import open_game
from pbem.store import gamefile, seeds
from pbem.views.board import draw
from tests.board.games import played
from tests.board.svgcheck import parse, problems

NAMES = ("ada", "ben", "cy")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def moderated(tmp_path: Path) -> Path:
    for name in NAMES:
        assert run("keygen", name, "--dir", str(tmp_path))[0] == 0
    game = tmp_path / "g.yaml"
    players = [arg for name in NAMES for arg in ("--player", str(tmp_path / f"{name}.pub"))]
    code, _, err = run("new", str(game), *players, "--ruleset", "aor", "--seed", "board")
    assert code == 0, err
    return game


def hands(game: Path) -> dict[str, dict[str, str]]:
    gf = open_game(game, head_only=False).gf
    assert gf.full is not None  # the moderator's run holds the hands
    return {p: dict(data["hand"]) for p, data in gf.full[0]["players"].items()}


def test_a_players_picture_shows_their_hand_and_no_one_elses(moderated: Path) -> None:
    dealt = hands(moderated)
    assert all(len(hand) == 3 for hand in dealt.values())
    cards = rulesets.catalog_for(open_game(moderated).ruleset.name).cards
    for viewer in NAMES:
        code, svg, err = run("map", str(moderated), "--for", viewer)
        assert code == 0, err
        assert problems(svg) == []
        for owner, hand in dealt.items():
            for label, card in hand.items():
                line = f">{label} {cards[card].name}<"  # a hand line: label and card
                assert (line in svg) == (owner == viewer), (viewer, owner, line)
                assert (f">{label} " in svg) == (owner == viewer), (viewer, owner, label)
        assert svg.count(">Hand:<") == 1


def test_the_public_picture_shows_no_hand(moderated: Path) -> None:
    code, svg, _ = run("map", str(moderated))
    assert code == 0
    assert ">Hand:<" not in svg
    for hand in hands(moderated).values():
        assert not any(f">{label} " in svg for label in hand)


def test_the_picture_goes_to_the_named_file(moderated: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    code, printed, _ = run("map", str(moderated), "--for", "ada", "-o", str(out))
    assert code == 0 and printed == ""
    assert parse(out.read_text(encoding="utf-8")).get("width") == "1400"
    assert out.read_text(encoding="utf-8") == run("map", str(moderated), "--for", "ada")[1]


def test_an_unknown_player_is_refused_with_the_players_named(moderated: Path) -> None:
    code, out, err = run("map", str(moderated), "--for", "zed")
    assert code == ExitCode.USAGE
    assert out == "" and err == "error: unknown player 'zed'; players: ada, ben, cy\n"


def test_an_output_in_a_missing_folder_is_refused_and_nothing_is_written(moderated: Path,
                                                                        tmp_path: Path) -> None:
    before = moderated.read_bytes()
    code, _, err = run("map", str(moderated), "-o", str(tmp_path / "nowhere" / "b.svg"))
    assert code == ExitCode.USAGE and err.count("\n") == 1 and "existing folder" in err
    assert not (tmp_path / "nowhere").exists()
    assert moderated.read_bytes() == before


def test_a_missing_game_is_one_line(tmp_path: Path) -> None:
    code, _, err = run("map", str(tmp_path / "none.yaml"))
    assert code != 0 and err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_seq_draws_the_board_as_it_stood_then(ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    options = {"end": "epoch1"} if ruleset == "aor" else {}
    later = played(ruleset, 3, 30, seed="past", **options)
    path.write_text(gamefile.dump_text(later.gf), encoding="utf-8")
    viewer = later.gf.player_ids()[0]
    for seq in (0, 7, 30):
        code, svg, err = run("map", str(path), "--for", viewer, "--seq", str(seq))
        assert code == 0, err
        assert svg == draw(played(ruleset, 3, seq, seed="past", **options), viewer)
    assert run("map", str(path), "--seq", "7")[1] != run("map", str(path))[1]


def test_a_seq_outside_the_game_is_refused_with_the_range(moderated: Path) -> None:
    code, out, err = run("map", str(moderated), "--seq", "4")
    assert code == ExitCode.USAGE and out == ""
    assert err == "error: --seq 4: this game has seqs 0 to 0\n"


def test_an_earlier_seq_of_a_hidden_game_keeps_hands_to_their_owner(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    keys = {name: Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"k-{name}")) for name in NAMES}
    publics = [parse_public_key(public_key_line(k.public_key().public_bytes_raw(), name, None))
               for name, k in keys.items()]
    api.new_game(path, publics, game_id="g", ruleset_name="aor", seed_text="past",
                 options={"end": "epoch1"})
    dealt = hands(path)
    for name in NAMES:  # each returns one dealt card: seqs 1 to 3
        gf = open_game(path, head_only=False).gf
        line = api.legal_lines(gf, name)["lines"][0]
        state = gamefile.fingerprint(gamefile.current_hash(gf))
        payload = canonical_payload("g", name, gf.seq, state, [line])
        api.apply_block(path, format_block("g", name, gf.seq, state, [line], sign(keys[name], payload)))
    code, svg, err = run("map", str(path), "--for", "ben", "--seq", "1")
    assert code == 0, err
    for owner, hand in dealt.items():
        for label in hand:
            if owner != "ben":
                assert f">{label} " not in svg
    assert any(f">{label} " in svg for label in dealt["ben"])
    (tmp_path / "g.seed").rename(tmp_path / "elsewhere.seed")  # a player's copy: no secrets
    before = path.read_bytes()
    code, out, err = run("map", str(path), "--seq", "1")
    assert code == ExitCode.USAGE and out == "" and err.count("\n") == 1
    assert err.startswith("error: only the moderator can draw an earlier seq")
    assert path.read_bytes() == before
