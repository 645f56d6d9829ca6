"""Hidden information in moderated Age of Renaissance games (issue 8; aor-pbem 5, 6): the game
file holds the public state only, hands and sealed bids live in the moderator's secrets file,
private draws are logged masked, sealed bids are committed then unsealed, and verify checks the
public part without the seed and replays everything with it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from pbem import api
from pbem.cli import app
from pbem.errors import CorruptGameError, UsageError
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import parse_public_key, public_key_line, sign
from pbem.pipeline.opening import open_game
from pbem.play.selfplay_moderated import strings_in
from pbem.store import gamefile, seeds
from pbem.views.model import entry_texts
from tests import fast_yaml

NAMES = ("ada", "ben", "cy", "dee")


class Game:
    def __init__(self, folder: Path, n: int = 3) -> None:
        self.path = folder / "g.yaml"
        self.keys = {name: Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"k-{name}"))
                     for name in NAMES[:n]}
        publics = [parse_public_key(public_key_line(k.public_key().public_bytes_raw(), name, None))
                   for name, k in self.keys.items()]
        api.new_game(self.path, publics, game_id="g", ruleset_name="aor", seed_text="hidden",
                         options={"end": "epoch1"})

    def load(self, whole: bool = True) -> gamefile.GameFile:
        game = open_game(self.path, whole=whole, head_only=False)
        if whole:
            game.require_whole("test")
        return game.gf

    def block(self, player: str, *lines: str, seq: int | None = None,
              state: str | None = None) -> str:
        gf = open_game(self.path, whole=False).gf  # the head is all a block is written against
        seq = gf.seq if seq is None else seq
        state = state or gamefile.fingerprint(gamefile.current_hash(gf))
        payload = canonical_payload("g", player, seq, state, list(lines))
        return format_block("g", player, seq, state, list(lines), sign(self.keys[player], payload))

    def send(self, player: str, *lines: str) -> api.Applied:
        return api.apply_block(self.path, self.block(player, *lines))

    def options(self, player: str) -> list[str]:
        lines: list[str] = api.legal_lines(self.path, player)["lines"]
        return lines

    def secrets(self) -> dict[str, object]:
        data: dict[str, object] = json.loads((self.path.parent / "g.seed").read_text())
        return data


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return Game(tmp_path)


def hand_cards(game: Game) -> set[str]:
    gf = game.load()
    assert gf.full is not None
    return {card for data in gf.full[0]["players"].values() for card in data["hand"].values()}


def test_the_file_holds_hand_sizes_and_masked_draws_only(game: Game) -> None:
    text = game.path.read_text()
    data = fast_yaml.safe_load(text)
    assert all("hand" not in p and p["hand_size"] == 3 for p in data["state"]["players"].values())
    assert "deck" not in data["state"] and data["state"]["deck_size"] > 0
    assert all(d["outcome"] == "hidden" and d["to"] for d in data["log"][0]["draws"])
    cards = hand_cards(game)
    shown = strings_in(data)
    assert len(cards) == 9 and not [c for c in cards if c in shown]
    assert game.secrets()["seed"] and (game.path.parent / "g.seed").stat().st_mode & 0o777 == 0o600


def through_returns(game: Game) -> None:
    for player in ("cy", "ada", "ben"):
        game.send(player, game.options(player)[0])


def test_a_sealed_bid_is_absent_until_the_unseal(game: Game) -> None:
    through_returns(game)
    game.send("ada", "bid 17")
    assert "bid 17" not in game.path.read_text()
    assert "bid 17" in json.dumps(game.secrets()["generations"])
    entry = game.load(whole=False).log[-1]
    assert entry["kind"] == "sealed" and len(entry["commitment"]) == 64 and "block" not in entry
    game.send("ada", "bid 2")  # a newer bid replaces it until the unseal (test_rebid.py)
    game.send("ada", "bid 17")
    game.send("ben", "bid 3")
    game.send("cy", "bid 4")
    log = game.load(whole=False).log
    assert log[-2]["kind"] == "sealed" and log[-2]["commitment"]
    unseal = log[-1]
    assert unseal["kind"] == "unseal" and sorted(unseal["blocks"]) == ["ada", "ben", "cy"]
    assert "bid 17" in unseal["blocks"]["ada"] and "ada: bid 17" in entry_texts(unseal)[0]
    generations = game.secrets()["generations"]
    assert isinstance(generations, list) and generations[-1]["sealed"] == {}
    assert api.verify(game.path, game.load(whole=False)).seed_checked


def test_verify_without_the_secrets_checks_commitments(game: Game) -> None:
    through_returns(game)
    for player, bid in (("ada", 5), ("ben", 3), ("cy", 1)):
        game.send(player, f"bid {bid}")
    secrets = game.path.parent / "g.seed"
    secrets.rename(game.path.parent / "moderator.json")
    result = api.verify(game.path, game.load(whole=False))
    assert not result.replayed and not result.seed_checked
    full = api.verify(game.path, game.load(whole=False), game.path.parent / "moderator.json")
    assert full.replayed and full.seed_checked
    with pytest.raises(UsageError, match="only the moderator"):
        api.legal_lines(game.load(whole=False))
    tampered = game.path.read_text().replace("bid 5", "bid 6")
    game.path.write_text(tampered)
    with pytest.raises(CorruptGameError, match="commitment"):
        api.verify(game.path, game.load(whole=False))


def test_a_lost_generation_is_rebuilt_from_seed_and_log_even_mid_bid(game: Game) -> None:
    through_returns(game)
    game.send("ben", "bid 9")
    before = game.options("ada")
    secrets = game.secrets()
    generations = secrets["generations"]
    assert isinstance(generations, list)
    sealed = generations[-1]["sealed"]
    secrets["generations"] = [{**generations[0], "post_state": "0" * 64, "sealed": sealed}]
    (game.path.parent / "g.seed").write_text(json.dumps(secrets))
    untouched = (game.path.parent / "g.seed").read_text()
    assert game.options("ada") == before
    assert (game.path.parent / "g.seed").read_text() == untouched  # reading never writes
    game.send("ada", "bid 1")
    game.send("cy", "bid 2")
    assert "ben: bid 9" in entry_texts(game.load(whole=False).log[-1])[0]


def test_random_moderated_play_keeps_every_hand_out_of_the_file(tmp_path: Path) -> None:
    game = Game(tmp_path, 4)
    rng = random.Random(8)
    played = 0
    for _ in range(160):
        status = api.status(game.path)  # head-only reads: the log is checked once, at the end
        if status["over"]:
            break
        owed = status["waiting_for"]
        player = rng.choice(owed)
        lines = game.options(player)
        if lines[0].startswith(("tokens", "bid")):
            lines = [x for x in lines if 0 <= int(x.split()[1]) <= 12]
        game.send(player, rng.choice(lines))
        played += 1
    shown = strings_in(fast_yaml.safe_load(game.path.read_text()))
    gf = game.load()
    assert gf.full is not None and gf.state["turn"] >= 1
    for data in gf.full[0]["players"].values():
        for card in data["hand"].values():
            assert card not in shown
    assert all(d["outcome"] == "hidden" for e in gf.log for d in e.get("draws", [])
               if "to" in d)
    result = api.verify(game.path, game.load(whole=False))
    assert result.seed_checked and result.entries == len(gf.log)
    runner = CliRunner()
    for player in game.keys:
        report = runner.invoke(app, ["report", str(game.path), "--for", player]).stdout
        assert report.count("YOUR HAND") == 1 and "HAND OF" not in report
    public = runner.invoke(app, ["report", str(game.path)]).stdout
    assert "YOUR HAND" not in public and "Public report" in public


def test_without_the_secrets_only_public_commands_work(game: Game) -> None:
    (game.path.parent / "g.seed").rename(game.path.parent / "elsewhere")
    runner = CliRunner()
    for args in (["options", str(game.path)], ["report", str(game.path), "--for", "ada"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "only the moderator" in result.stderr, args
    before = game.path.read_bytes()
    block = game.path.parent / "b.txt"
    block.write_text(game.block("ada", "return h1"))
    result = runner.invoke(app, ["apply", str(game.path), str(block)])
    assert result.exit_code == 2 and "secrets file" in result.stderr
    assert game.path.read_bytes() == before
    assert runner.invoke(app, ["report", str(game.path)]).exit_code == 0
    assert runner.invoke(app, ["status", str(game.path)]).exit_code == 0
    result = runner.invoke(app, ["verify", str(game.path)])
    assert result.exit_code == 0 and "public checks only" in result.stdout


def test_hand_labels_come_from_the_seed_and_survive_a_rebuild(game: Game) -> None:
    gf = game.load()
    assert gf.full is not None
    labels = {x for data in gf.full[0]["players"].values() for x in data["hand"]}
    assert len(labels) == 9 and all(re.fullmatch(r"[a-z][0-9][a-z0-9]{2,}", x) for x in labels)
    returned = sorted(gf.full[0]["players"]["ada"]["hand"])[0]
    assert f"return {returned}" in game.options("ada")
    game.send("ada", f"return {returned}")
    secrets = game.secrets()
    secrets["generations"] = []
    (game.path.parent / "g.seed").write_text(json.dumps(secrets))
    rebuilt = game.load()  # the state is rebuilt by replaying the log with the seed
    assert rebuilt.full is not None and rebuilt.full[1][0]["answers"] == {"ada": f"return {returned}"}
    assert {x for data in rebuilt.full[0]["players"].values() for x in data["hand"]} == labels
