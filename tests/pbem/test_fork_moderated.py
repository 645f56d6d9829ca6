"""`pbem fork` of a moderated Age of Renaissance game, whose hands and deck are hidden (issue
24 §5): the moderator's fork holds everything; a player's fork (`--for SEAT`) holds that
player's own projection, the rest dealt afresh from the sandbox's fresh seed, so it holds no
other player's secret."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem.store import gamefile
from tests.pbem.test_fork import NAMES, cli, keys, ok, players


def sign(game: Path, player: str, line: str, key: Path) -> Path:
    orders = game.parent / "orders.txt"
    orders.write_text(f"player: {player}\n{line}\n")
    signed = game.parent / "block.txt"
    signed.write_text(ok("sign", orders, "--key", key, "--game", game))
    return signed


def to_the_capital_bids(game: Path, bids: int) -> None:
    """Each player returns a dealt card, then `bids` players seal their capital bids."""
    for _ in range(12):
        data = json.loads(ok("status", game, "--json"))
        if data.get("sealed") and len(data.get("received") or []) == bids:
            return
        player = data["waiting_for"][0]
        line = json.loads(ok("options", game, "--json", "--for", player))["lines"][0]
        ok("apply", game, sign(game, player, line, game.parent / f"{player}.key"))
    raise AssertionError("the capital bids never came")


def new_aor(folder: Path, seed: str) -> Path:
    """A moderated Age of Renaissance game of ada, ben and cy, moderated by max."""
    keys(folder)
    game = folder / "g.yaml"
    ok("new", game, *players(folder), "--moderator", folder / "max.pub", "--ruleset", "aor",
       "--seed", seed, "--option", "end=epoch1")
    return game


@pytest.fixture(scope="module")
def aor_made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The moderated game at its capital bids, one bid in, made once per module."""
    folder = tmp_path_factory.mktemp("aor")
    to_the_capital_bids(new_aor(folder, "hidden"), 1)
    return folder


@pytest.fixture
def aor(aor_made: Path, tmp_path: Path) -> Path:
    shutil.copytree(aor_made, tmp_path, dirs_exist_ok=True)
    return tmp_path / "g.yaml"


def generation(seed_file: Path) -> dict[str, object]:
    data = json.loads(seed_file.read_text())
    found: dict[str, object] = data["generations"][-1]
    return found


def hands(seed_file: Path) -> dict[str, dict[str, str]]:
    state = generation(seed_file)["state"]
    return {p: dict(d["hand"]) for p, d in state["players"].items()}  # type: ignore[index]


def fork_in(folder: Path, game: Path, *args: str) -> Path:
    folder.mkdir()
    ok("fork", game, "--out", folder / "w.yaml", "--id", "w", "--seed", "s", *args)
    return folder / "w.yaml"


def test_a_players_fork_holds_no_other_players_secret(aor: Path) -> None:
    """The fork is a function of ada's view alone: after the moderator's secrets swap a card of
    ben's hand with one in the deck (the public file unchanged), ada's fork is byte for byte
    the same; her own hand is hers, the others' hands and labels are dealt afresh."""
    real = hands(aor.with_suffix(".seed"))
    first = fork_in(aor.parent / "one", aor, "--for", "ada")
    secrets = json.loads(aor.with_suffix(".seed").read_text())
    state = secrets["generations"][-1]["state"]
    label = sorted(state["players"]["ben"]["hand"])[0]
    card = state["players"]["ben"]["hand"][label]
    state["players"]["ben"]["hand"][label], state["deck"][0] = state["deck"][0], card
    state["deck"].sort()
    aor.with_suffix(".seed").write_text(json.dumps(secrets))
    second = fork_in(aor.parent / "two", aor, "--for", "ada")
    for name in ("w.yaml", "w.seed"):
        assert (first.parent / name).read_bytes() == (second.parent / name).read_bytes()
    forked = hands(first.with_suffix(".seed"))
    assert forked["ada"] == real["ada"]
    for other in ("ben", "cy"):
        assert len(forked[other]) == len(real[other])
        assert not set(forked[other]) & set(real[other])  # labels from the fresh seed
    text = first.read_text() + first.with_suffix(".seed").read_text()
    assert not any(label in text for other in ("ben", "cy") for label in real[other])


def test_a_players_fork_takes_back_the_others_sealed_answers(aor: Path) -> None:
    status = json.loads(ok("status", aor, "--json"))
    bidder = status["received"][0]
    other = next(p for p in NAMES if p != bidder)
    sandbox = fork_in(aor.parent / "f", aor, "--for", other)
    forked = json.loads(ok("status", sandbox, "--json"))
    assert sorted(forked["waiting_for"]) == sorted(NAMES) and not forked.get("received")
    mine = fork_in(aor.parent / "m", aor, "--for", bidder)  # the bidder keeps their own bid
    assert json.loads(ok("status", mine, "--json"))["received"] == [bidder]


def test_the_moderators_fork_holds_everything_and_plays_with_sealed_bids(aor: Path) -> None:
    sandbox = fork_in(aor.parent / "f", aor)
    assert hands(sandbox.with_suffix(".seed")) == hands(aor.with_suffix(".seed"))
    assert json.loads(ok("status", sandbox, "--json"))["received"] == \
        json.loads(ok("status", aor, "--json"))["received"]
    max_key = aor.parent / "max.key"
    for _ in range(4):  # the bids in, unsealed by the sandbox's own moderator: the forker
        owed = json.loads(ok("status", sandbox, "--json"))["waiting_for"]
        line = json.loads(ok("options", sandbox, "--json", "--for", owed[0]))["lines"][0]
        ok("apply", sandbox, sign(sandbox, owed[0], line, max_key))
    assert "every draw re-derived from the seed" in ok("verify", sandbox)


def test_a_player_without_the_secrets_cannot_fork_a_game_hiding_cards(aor: Path,
                                                                      tmp_path: Path) -> None:
    mine = tmp_path / "copy"
    mine.mkdir()
    shutil.copy(aor, mine / "g.yaml")
    code, out, err = cli("fork", mine / "g.yaml", "--out", mine / "w.yaml", "--for", "ada")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "only its moderator holds them" in err
    assert sorted(p.name for p in mine.iterdir()) == ["g.yaml", "g.yaml.lock"] or \
        sorted(p.name for p in mine.iterdir()) == ["g.yaml"]


def test_a_fork_at_an_earlier_seq_of_a_moderated_game(aor: Path) -> None:
    sandbox = fork_in(aor.parent / "f", aor, "--at", "1", "--for", "ben")
    data = gamefile.load(sandbox).game["sandbox"]
    assert (data["of"], data["at"], data["for"]) == ("g", 1, "ben")
    assert "ok: 1 log entries verified" in ok("verify", sandbox)


def test_the_redeal_keeps_every_card_and_every_hand_size(aor: Path) -> None:
    """Age of Renaissance's `redeal` (ruling R63): the viewer's hand as it was, the others'
    hands the same sizes, and the cards of the deck and the other hands the same together."""
    from engine.aor.ruleset import AOR
    from engine.core.chance import SeededChance

    whole: Any = generation(aor.with_suffix(".seed"))["state"]
    dealt = AOR.redeal(whole, "ada", SeededChance(b"fresh", "test", 0))
    assert dealt["players"]["ada"] == whole["players"]["ada"]

    def unseen(state: Any) -> list[str]:
        return sorted([*state["deck"], *(card for p in ("ben", "cy")
                                          for card in state["players"][p]["hand"].values())])

    assert unseen(dealt) == unseen(whole)
    for other in ("ben", "cy"):
        assert len(dealt["players"][other]["hand"]) == len(whole["players"][other]["hand"])
        assert "standing" not in dealt["players"][other]
    rest = {k: v for k, v in dealt.items() if k not in ("players", "deck")}
    assert rest == {k: v for k, v in whole.items() if k not in ("players", "deck")}


def test_a_players_key_alone_names_their_seat(aor: Path) -> None:
    """`--key ada.pub` without `--for`: ada's fork, as `--for ada` makes it."""
    by_seat = fork_in(aor.parent / "seat", aor, "--for", "ada")
    by_key = fork_in(aor.parent / "key", aor, "--key", str(aor.parent / "ada.pub"))
    for name in ("w.yaml", "w.seed"):
        assert (by_seat.parent / name).read_bytes() == (by_key.parent / name).read_bytes()
