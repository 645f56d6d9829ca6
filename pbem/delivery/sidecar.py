"""The files a game keeps beside it for delivery, read without the mail machinery (status and
reports read them on every run): the post book (GAME.post.json: what was mailed and looked at,
deadline clocks, bounces) and the folder of the outgoing mail queue (GAME.queue/)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.delivery import deadlines
from pbem.errors import CorruptGameError
from pbem.store import files, gamefile
from pbem.store.files import named
from pbem.store.gamefile import GameFile
from pbem.views.report import safe_text


def queue_dir(game: Path) -> Path:
    return named(game).with_name(game.stem + ".queue")


def queued(game: Path) -> list[Path]:
    folder = queue_dir(game)
    return sorted(folder.glob("*.eml")) if folder.is_dir() else []


# --- the post book --------------------------------------------------------------------------


def book_path(game: Path) -> Path:
    return named(game).with_name(game.stem + ".post.json")


class Book:
    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path, self.data = path, data

    @classmethod
    def load(cls, game: Path) -> Book:
        path = book_path(game)
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except (OSError, ValueError):
            raise CorruptGameError(f"the post book {path.name} cannot be read") from None
        if not isinstance(data, dict):
            raise CorruptGameError(f"the post book {path.name} is not a JSON object")
        for key in ("sent", "clock", "processed"):
            data.setdefault(key, {})
        return cls(path, data)

    def save(self) -> None:
        text = json.dumps(self.data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        gamefile.write_atomic(self.path, text)

    def since(self, gf: GameFile, now: datetime) -> datetime:
        """When the clock of what is owed now started (starting it now if it is new). A clock
        belongs to what a player owes in one go (deadlines.clock_key): a partial block does
        not restart it, and a turn interrupted by someone else's out-of-turn answer resumes
        its own clock afterwards."""
        key = deadlines.clock_key(gf)
        clock = self.data["clock"]
        if clock.get("game") != gf.game_id or clock.get("key") != key:
            kept = self.data.setdefault("clocks", {})
            if clock.get("game") == gf.game_id and clock.get("key"):
                kept[str(clock["key"])] = clock  # an interrupted turn's clock, to resume
            self.data["clock"] = kept.pop(key, None) or {
                "game": gf.game_id, "key": key, "since": deadlines.iso(now), "reminded": []}
            self.data["clocks"] = dict(list(kept.items())[-20:])
        return deadlines.parse_time(str(self.data["clock"]["since"]))

    def started(self, gf: GameFile) -> datetime | None:
        """When the clock of what is owed now started, if a mail run has started it (read-only)."""
        key = deadlines.clock_key(gf)
        clock = self.data["clock"]
        if clock.get("game") != gf.game_id or clock.get("key") != key:
            clock = dict(self.data.get("clocks", {}).get(key) or {})
            if clock.get("game") != gf.game_id:
                return None
        return deadlines.parse_time(str(clock["since"]))

    def root(self, reader: str | None) -> str | None:
        """The first message really sent to a reader: their thread's root (None before it).
        A book written before roots were kept has only a made-up `thread` id, never sent,
        so it is not used."""
        root = dict(self.data.get("roots") or {}).get(reader or "public")
        return str(root) if root else None

    def processed(self, key: str) -> dict[str, Any] | None:
        entry = self.data["processed"].get(key)
        return entry if isinstance(entry, dict) else None


def last_posted(book: Book, channel: str) -> int:
    """The seq the channel's last public post covered up to (-1: never posted, so its first
    post covers the whole game)."""
    seq = dict(book.data.get("posted") or {}).get(channel)
    return int(seq) if isinstance(seq, int) else -1


def mark_posted(book: Book, channel: str, seq: int) -> None:
    book.data.setdefault("posted", {})[channel] = seq


@contextlib.contextmanager
def open_book(game: Path) -> Iterator[Book]:
    """The game's post book under its lock; saved when the block ends without an error."""
    with gamefile.locked(book_path(game)):
        files.remove_stale_temps_in(queue_dir(game))  # the queue is written under this lock
        book = Book.load(game)
        yield book
        book.save()


def message_id(gf: GameFile, what: str, domain: str) -> str:
    """Unique, and short enough not to be folded: <pbem.GAME.WHAT.RANDOM@DOMAIN>."""
    import secrets  # start-up: only a message sent needs an id

    game = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in gf.game_id)[:24]
    return f"<pbem.{game}.{what}.{secrets.token_hex(6)}@{domain}>"



def who(gf: GameFile, player: str) -> str:
    entry = gf.roster_entry(player)
    return f"{player.title()} ({safe_text(entry['name'])})" if entry else player.title()
