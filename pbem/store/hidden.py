"""Hidden information in moderated Age of Renaissance games (issue 8; aor-pbem.md 5 and 6).

The game file and its state hash hold only the public state: hand sizes instead of hands, the
deck's size instead of its cards, and sealed answers as "received". The whole state lives in
the moderator's secrets file beside the game (the seed file grown into JSON): the seed, a cache
of the whole state at the file's seq (keyed by the public state hash) and the sealed blocks not
yet opened. The cache is derived: when it is missing or stale it is rebuilt by replaying the log
with the seed (pbem.pipeline.hidden_replay).

Private draws are logged as `{n, purpose, to, outcome: hidden}`; dice keep their outcome. A
sealed answer is logged with `commitment = sha256(salt | payload)`, salt = HMAC(seed, "seal" |
game | node | player); the last one is followed by an `unseal` entry with every block and salt.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.aor.draws import audience
from engine.core.chance import Draw
from engine.core.table import Table
from pbem.errors import CorruptGameError, UsageError
from pbem.store import gamefile
from pbem.store.gamefile import GameFile, state_hash

SECRETS_FORMAT = "pbem-secrets-1"
RECEIVED = "received"
HIDDEN = "hidden"
_PLACEHOLDER = "?"


def is_hidden(gf: GameFile) -> bool:
    """A game whose file holds only the public state."""
    return gf.game.get("ruleset") == "aor" and gf.randomness.get("mode") == "moderated"


# --- the public projection ------------------------------------------------------------------


def public_state(state: dict[str, Any]) -> dict[str, Any]:
    """The state without hands or the deck's contents (their sizes stay)."""
    public = copy.deepcopy(state)
    for data in public["players"].values():
        data["hand_size"] = len(data.pop("hand"))
    public["deck_size"] = len(public.pop("deck"))
    return public


def public_agenda(agenda: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sealed answers show only that they were received."""
    nodes = copy.deepcopy(list(agenda))
    for node in nodes:
        if node.get("sealed"):
            node["answers"] = {p: RECEIVED for p in node.get("answers", {})}
    return nodes


def public_hash(game: dict[str, Any], seq: int, state: dict[str, Any],
                agenda: Sequence[dict[str, Any]]) -> str:
    return state_hash(game, seq, public_state(state), public_agenda(agenda))


def viewable(state: dict[str, Any]) -> dict[str, Any]:
    """A public state in the engine's shape, hidden cards as placeholders (for status and the
    public report, which read only sizes)."""
    shaped = copy.deepcopy(state)
    for data in shaped["players"].values():
        data["hand"] = {f"{_PLACEHOLDER}{i}": _PLACEHOLDER for i in range(data.pop("hand_size"))}
    shaped["deck"] = [_PLACEHOLDER] * int(shaped.pop("deck_size"))
    return shaped


def mask_draws(draws: Sequence[Draw]) -> list[dict[str, object]]:
    """Dice with their outcome; cards drawn into hands as `to` and `outcome: hidden`."""
    shown: list[dict[str, object]] = []
    for draw in draws:
        seen = audience(draw.purpose)
        if seen is None:
            shown.append(draw.to_data())
        else:
            shown.append({"n": draw.n, "purpose": draw.purpose, "to": seen, "outcome": HIDDEN})
    return shown


def set_public(gf: GameFile, state: dict[str, Any], agenda: list[dict[str, Any]]) -> None:
    """Keep the whole state attached and its public part in the file."""
    gf.full = (state, agenda)
    gf.state, gf.agenda = public_state(state), public_agenda(agenda)


# --- sealing --------------------------------------------------------------------------------


def seal_salt(seed: bytes, game_id: str, node: str, player: str) -> bytes:
    return hmac.new(seed, f"seal|{game_id}|{node}|{player}".encode(), hashlib.sha256).digest()


def commitment(salt: bytes, payload: bytes) -> str:
    return hashlib.sha256(salt + payload).hexdigest()


# --- the secrets file -----------------------------------------------------------------------


@dataclass
class Secrets:
    seed: bytes
    sealed: dict[str, dict[str, str]] = field(default_factory=dict)  # node -> player -> block
    cache: dict[str, Any] | None = None  # {seq, post_state, state, agenda}

    def to_text(self) -> str:
        data = {"format": SECRETS_FORMAT, "seed": self.seed.hex(), "sealed": self.sealed,
                "cache": self.cache}
        return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def parse_secrets(text: str, where: str) -> Secrets:
    try:
        data = json.loads(text)
        seed = bytes.fromhex(str(data["seed"]))
    except (ValueError, KeyError, TypeError):
        raise CorruptGameError(f"{where} is not a pbem secrets file") from None
    return Secrets(seed, dict(data.get("sealed") or {}), data.get("cache"))


def read_secrets(path: Path) -> Secrets | None:
    if not path.exists():
        return None
    return parse_secrets(path.read_text(encoding="utf-8"), path.name)


def write_secrets(path: Path, secrets: Secrets) -> None:
    """Atomically (the temp file is created mode 0600, and the rename keeps it)."""
    gamefile.write_atomic(path, secrets.to_text())


def cache_of(gf: GameFile) -> dict[str, Any]:
    if gf.full is None:
        raise CorruptGameError("internal: no whole state attached")
    return {"seq": gf.seq, "post_state": gamefile.current_hash(gf),
            "state": gf.full[0], "agenda": gf.full[1]}


# --- attaching the whole state ----------------------------------------------------------------


def secrets_path(path: Path, gf: GameFile) -> Path:
    from pbem.store import seeds

    return seeds.seed_path(path, gf)


def load_secrets(path: Path, gf: GameFile) -> Secrets | None:
    return read_secrets(secrets_path(path, gf))


def require_whole(gf: GameFile, what: str = "list options") -> None:
    """Refuse, in a moderated Age of Renaissance game, what needs hands the run cannot see."""
    if is_hidden(gf) and gf.full is None:
        raise UsageError(f"only the moderator can {what} in a moderated Age of Renaissance "
                         "game: the hands and the deck are in the moderator's secrets file")


def attach(path: Path, gf: GameFile, *, required: bool = False) -> bool:
    """Attach the whole state from the secrets file (the cache, or a replay of the log) when
    this run has it; with `required`, say that only the moderator can do this."""
    if not is_hidden(gf) or gf.full is not None:
        return gf.full is not None
    secrets = load_secrets(path, gf)
    if secrets is None:
        if required:
            raise UsageError(
                "hands and the deck of this moderated Age of Renaissance game are in the "
                f"moderator's secrets file {secrets_path(path, gf).name}; only the moderator "
                "can list options, render private reports or apply orders")
        return False
    cache = secrets.cache
    if cache and cache.get("seq") == gf.seq and \
            cache.get("post_state") == gamefile.current_hash(gf):
        gf.full = (cache["state"], cache["agenda"])
        return True
    from pbem.pipeline.hidden_replay import replay_full

    table = replay_full(gf, secrets.seed, secrets.sealed)
    gf.full = (table.state, table.agenda)
    secrets.cache = cache_of(gf)
    write_secrets(secrets_path(path, gf), secrets)
    return True


def table_state(gf: GameFile) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What `pbem.rulesets.table_of` builds a table from: the whole state when attached, else
    the public state shaped for the engine's views."""
    if gf.full is not None:
        return gf.full
    return viewable(gf.state), gf.agenda


def whole_table(gf: GameFile, catalog: Any) -> Table:
    state, agenda = table_state(gf)
    return Table(state, agenda, catalog)
