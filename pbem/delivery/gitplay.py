"""Git play: commit the game file after each turn, and an allowed_signers file from the roster.

Players push signed order files to a repository; a CI job (or the moderator) runs
`pbem apply GAME ORDERS --commit`, which commits the game file, and only it, with the turn
summary as the message, in the game's language (its first line stays data: game, seq, actor).
`pbem roster GAME --allowed-signers` lets anyone check SSH-signed blocks and signed commits
with stock `ssh-keygen -Y verify` and `git verify-commit`.
"""

from __future__ import annotations

import base64
import shutil
import struct
import subprocess
from collections.abc import Sequence
from pathlib import Path

from engine.core.agenda import next_pending
from pbem import i18n
from pbem.errors import UsageError
from pbem.orders.signatures import parse_public_key
from pbem.pipeline.game import from_gamefile
from pbem.pipeline.queries import status
from pbem.store.gamefile import GameFile
from pbem.words import decision_phrase

_FALLBACK_IDENTITY = ("-c", "user.name=pbem", "-c", "user.email=pbem@localhost")


def _git(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("git") is None:
        raise UsageError("git is not installed; --commit needs it")
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False,
                          timeout=120)


def commit_message(gf: GameFile, texts: Sequence[str], lang: str = i18n.SOURCE) -> str:
    """First line: game, seq and who acted; then what happened (`texts`, said in `lang`) and
    who must act now, in `lang` (the game's language)."""
    gettext = i18n.translations(lang).gettext
    entry = gf.log[-1] if gf.log else {}
    actor = entry.get("player") or entry.get("kind", "setup")
    game = from_gamefile(gf)
    data = status(game)
    body = [f"- {text}" for text in texts] or [gettext("- (nothing public happened)")]
    node = next_pending(gf.agenda)
    if data["over"]:
        body.append(gettext("Game over: {winners} won.").format(
            winners=", ".join(data["winners"])))
    elif node is not None:
        body.append(gettext("Waiting for {players} to {decision} (state {state}).").format(
            players=", ".join(data["waiting_for"]), state=data["state"],
            decision=decision_phrase(game.ruleset.name, node["action"], you=False, lang=lang)))
    return f"{gf.game_id} seq {gf.seq}: {actor}\n\n" + "\n".join(body) + "\n"


def require_repository(path: Path) -> None:
    """Check before applying, so a block is never applied without its commit."""
    if _git(["rev-parse", "--show-toplevel"], path.resolve().parent).returncode != 0:
        raise UsageError(f"{path} is not inside a git repository; run `git init` there first")


def commit_game(path: Path, message: str) -> str:
    """Commit only the game file in the repository holding it; returns the short hash."""
    where = path.resolve().parent
    require_repository(path)
    identity = [] if _git(["config", "user.email"], where).stdout.strip() else \
        list(_FALLBACK_IDENTITY)
    add = _git(["add", "--", path.resolve().name], where)
    done = _git([*identity, "commit", "--quiet", "-m", message, "--", path.resolve().name],
                where) if add.returncode == 0 else add
    if done.returncode != 0:
        reason = (done.stderr or done.stdout).strip().splitlines()
        raise UsageError(f"git commit failed: {reason[-1] if reason else 'no reason given'}; "
                         "the orders were applied, the game file is not committed")
    return _git(["rev-parse", "--short", "HEAD"], where).stdout.strip()


def ssh_public_key(roster_key: str) -> str:
    """`ssh-ed25519 AAAA...`: the OpenSSH form of a roster key."""
    raw = parse_public_key(roster_key).raw
    blob = b"".join(struct.pack(">I", len(part)) + part for part in (b"ssh-ed25519", raw))
    return "ssh-ed25519 " + base64.b64encode(blob).decode("ascii")


def allowed_signers(gf: GameFile) -> str:
    """An OpenSSH allowed_signers file: principals are the e-mail address and the player id."""
    lines = [f"# allowed_signers for pbem game {gf.game_id}: ssh-keygen -Y verify -f FILE "
             "-I PRINCIPAL -n pbem (blocks) or -n git (commits)"]
    entries = [(p["id"], p) for p in gf.roster["players"]]
    if gf.roster.get("moderator"):
        entries.append(("moderator", gf.roster["moderator"]))
    for ident, entry in entries:
        principals = ",".join(dict.fromkeys(x for x in (entry.get("email"), ident) if x))
        lines.append(f"# {ident}: {entry.get('name', ident)}")
        lines.append(f'{principals} namespaces="pbem,git" {ssh_public_key(entry["key"])}')
    return "\n".join(lines) + "\n"
