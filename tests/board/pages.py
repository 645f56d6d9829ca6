"""Reading an HTML report as a person's mail client or browser would: the text of its <pre>
blocks (what a copy gives), and the ids of its elements."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem import api
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import parse_public_key, public_key_line, sign
from pbem.pipeline.opening import open_game
from pbem.store import gamefile, seeds


class _Pres(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str] = {}
        self.ids: list[str] = []
        self._current: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs).get("id")
        if named:
            self.ids.append(named)
        if tag == "pre":
            self._current = named or f"pre{len(self.found)}"
            self.found[self._current] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self._current = None

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self.found[self._current] += data


def pre_texts(page: str) -> dict[str, str]:
    """The text of every <pre>, by id, as a copy from the page gives it (the newline right
    after <pre> is not part of the text, and CRLF reads as LF, as HTML says)."""
    parser = _Pres()
    parser.feed(page.replace("\r\n", "\n"))
    return {key: text.removeprefix("\n") for key, text in parser.found.items()}


def element_ids(page: str) -> list[str]:
    parser = _Pres()
    parser.feed(page)
    return parser.ids


def keys_for(names: tuple[str, ...]) -> dict[str, Ed25519PrivateKey]:
    return {name: Ed25519PrivateKey.from_private_bytes(seeds.make_seed(f"k-{name}")) for name in names}


def moderated_aor(path: Path, players: int, returns: int = 0, **options: str) -> Path:
    """A moderated Age of Renaissance game (hands hidden in the game file), in which the first
    `returns` players have answered the opening decision."""
    names = ("ada", "ben", "cy", "dee", "eve", "fay")[:players]
    keys = keys_for(names)
    publics = [parse_public_key(public_key_line(k.public_key().public_bytes_raw(), name, None))
               for name, k in keys.items()]
    api.new_game(path, publics, game_id="g", ruleset_name="aor", seed_text="html",
                 options={"end": "epoch1", **options})
    for name in names[:returns]:
        gf = open_game(path, head_only=False).gf
        line = api.legal_lines(gf, name)["lines"][0]
        state = gamefile.fingerprint(gamefile.current_hash(gf))
        payload = canonical_payload("g", name, gf.seq, state, [line])
        api.apply_block(path, format_block("g", name, gf.seq, state, [line], sign(keys[name], payload)))
    return path


def hands(path: Path) -> dict[str, dict[str, str]]:
    """Every hand, label to card id, from the moderator's whole state."""
    gf = open_game(path, head_only=False).gf
    assert gf.full is not None
    return {p: dict(data["hand"]) for p, data in gf.full[0]["players"].items()}
