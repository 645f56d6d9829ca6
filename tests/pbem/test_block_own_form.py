"""A block exactly as pbem writes it is read without the transport guesses
(`orderblock._own_form`); that shortcut must give what the general reading gives, for the
written form and for any damage to it (the same blocks, or the same error)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.orders import orderblock
from pbem.orders.orderblock import canonical_payload, format_block
from pbem.orders.signatures import sign
from pbem.store import gamefile
from tests.pbem.test_orderblock import KEY

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# What a mail, a forum or a hand can put into a block: the characters each transport reading
# looks for, markers' words, quoting, comments, and blanks.
PIECES = ["<", "<b>", "[b]", "[", ">", "> ", "=", "=3D", "==", "#", " ", "\t", "\n", "\r",
          "\r\n", "-", "-----", "pbem", "PBEM", "\u00e9", "\u200b", "\u2028", "Transfer",
          "Content-Transfer-Encoding: base64", ":", "game: x", "seq: 7", "A", "Q", "z", "9",
          "/", "+", "\n\n", "-----BEGIN PBEM ORDERS-----", "-----END PBEM ORDERS-----",
          "-----BEGIN PBEM SIGNATURE-----", "\n-----END PBEM ORDERS-----\n",
          "\n-- BEGIN pbem signature --\n", "\n-----BEGIN PBEM ORDERS-----\n", "<br>\n",
          "ed25519 ", "x" * 600]


def _reading(text: str, *, shortcut: bool) -> object:
    """What `_find` makes of `text` (its blocks' fields, or its error), with or without the
    shortcut."""
    saved = orderblock._own_form
    if not shortcut:
        orderblock._own_form = lambda text: None  # type: ignore[assignment]
    try:
        blocks = orderblock._find(text, None, False)
    except PbemError as error:
        return type(error).__name__, str(error)
    finally:
        orderblock._own_form = saved  # type: ignore[assignment]
    return [(b.game, b.player, b.seq, b.state, b.lines, b.signature, b.text) for b in blocks]


def _written(lines: list[str], seq: int = 12) -> str:
    state = "0123456789abcdef"
    payload = canonical_payload("own-form-game", "coeur", seq, state, lines)
    return format_block("own-form-game", "coeur", seq, state, lines, sign(KEY, payload))


def _stored_blocks() -> list[str]:
    texts = []
    for path in sorted(FIXTURES.rglob("*.yaml")):
        try:
            log = gamefile.load(path).log
        except PbemError:
            continue
        texts += [str(e["block"]) for e in log if isinstance(e, dict) and e.get("block")]
    return texts


def _damaged(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(text) + 1)
        cut = rng.choice((0, 0, 1, 2))
        text = text[:at] + rng.choice(PIECES) + text[at + cut:]
    return text


def test_the_written_form_takes_the_shortcut_and_reads_alike() -> None:
    texts = [_written(["end"]), _written(["buy east 2", "play card 3  # a comment", ""]),
             _written(["Sell  West 1", "  levy  ", "# only a comment"]), *_stored_blocks()[:200]]
    taken = 0
    for text in texts:
        taken += orderblock._own_form(text) is not None
        assert _reading(text, shortcut=True) == _reading(text, shortcut=False), text
    assert taken >= 3


@pytest.mark.parametrize("seed", range(4))
def test_damaged_blocks_read_alike_with_and_without_the_shortcut(seed: int) -> None:
    rng = random.Random(seed)
    bases = [_written(["end"]), _written(["buy east 2", "play card 3 # why"]),
             *_stored_blocks()[seed::40][:10]]
    taken = 0
    for _ in range(1500):
        text = _damaged(rng.choice(bases), rng)
        taken += orderblock._own_form(text) is not None
        assert _reading(text, shortcut=True) == _reading(text, shortcut=False), repr(text)
    assert taken > 40  # much of the damage leaves a block in the written form
