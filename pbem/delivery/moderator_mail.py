"""A moderator's signed block arriving by mail (issue 21 §1): a replacement (`replace PLAYER`),
a settings change (`nmr`, `deadline`, `email` lines; `deadlines ... --print`, `roster --email
... --print`) or forced timeouts (`timeout PLAYER`; `timeout --force --print`). The inbox takes
it only from the moderator's roster address, and applies it through the same checks as the
command's `--block` option (pbem.pipeline.handover, pbem.pipeline.timeout)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from pbem.delivery.deadlines import MODERATOR
from pbem.delivery.reading import roster_player
from pbem.errors import BlockError, UsageError
from pbem.orders.orderblock import find_blocks
from pbem.pipeline import apply, handover
from pbem.pipeline import opening as games
from pbem.pipeline import timeout as timeouts
from pbem.store import gamefile
from pbem.store.gamefile import GameFile

Since = Callable[[GameFile], datetime]


def kind_of(text: str) -> str:
    """'replace', 'timeout', 'pause', 'resume', 'bot' or 'settings': what the moderator's
    (last) block in `text` does."""
    blocks = [b for b in find_blocks(text) if (b.player or "").lower() == MODERATOR]
    if not blocks or not blocks[-1].lines:
        raise BlockError("no moderator block with lines found ('player: moderator')")
    first = blocks[-1].lines[0].text.split()[:1]
    return first[0].lower() if first and first[0].lower() in ("replace", "timeout", "pause",
                                                              "resume", "bot") else "settings"


def apply_moderator_block(path: Path, text: str, message: EmailMessage, since: Since,
                          now: datetime) -> list[dict[str, object]]:
    """Apply the moderator's block mailed in `message`; the public events of what it did.
    UsageError (set aside for the host) when the sender is not the moderator's address or the
    block changed nothing; the block's own errors as the `--block` option gives them."""
    gf = games.open_game(path, whole=False).gf
    sender = roster_player(gf, message)
    if sender is None or sender[0] != MODERATOR:
        raise UsageError("a moderator's block, but not from the moderator's address in the "
                         "roster")
    before = gf.seq
    kind = kind_of(text)
    if kind == "replace":
        handover.apply_replacement(path, text)
    elif kind in ("pause", "resume", "bot"):  # a block of life (issue 24): pause, bot off SEAT
        apply.apply_block(path, text, now=now)
    elif kind == "timeout":
        _, results = timeouts.run_timeout(path, since, now, block_text=text)
        if not any(r.lines for r in results):
            notes = "; ".join(f"{r.player}: {r.note}" for r in results) or "no decision pending"
            raise UsageError(f"the moderator's timeouts applied to no one ({notes})")
    else:
        handover.apply_settings(path, changes={}, nmr=None, emails={}, block_text=text)
    log = gamefile.load(path).log
    if int(log[-1]["seq"]) == before:
        raise UsageError("the moderator's block changed nothing")
    return [event for entry in log[before + 1:] for event in entry.get("events") or []]
