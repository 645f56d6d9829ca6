"""The game file's writer renders a plain word itself instead of asking PyYAML (start-up,
issue 17): every string it writes as it is must be one PyYAML writes as it is, as a key and as
a value, and every game file it writes must be PyYAML's bytes."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest
import yaml

from pbem.store import gamefile, yaml_codec

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RESOLVED = ["yes", "Yes", "NO", "on", "Off", "true", "FALSE", "null", "Null", "~", "1", "007",
            "0x1f", "0o7", "0b101", "1_000", "1.5", "1.", "1e5", "6.8523015e+5", "190:20:30",
            "2026-12-01", "2026-12-01t10:00:00", ".inf", ".NaN", "-1", "+1", "=", "<<"]
WORDS = ["y", "n", "_", "a-b", "a.b", "x-", "x.", "1-2", "12e", "0.5.5", "1__0", "inf", "nan",
         "e1f225d95f19a24e", "pax.turn.end", "seat_1", "0b", "0x"]


def _as_pyyaml_writes_it(value: str) -> tuple[str, str]:
    return (yaml_codec.pyyaml_dump({"k": value})[len("k: "):-1],
            yaml_codec.pyyaml_dump({value: 0})[:-len(": 0\n")])


@pytest.mark.parametrize("value", RESOLVED + WORDS)
def test_a_word_is_written_plain_only_when_pyyaml_writes_it_plain(value: str) -> None:
    assert yaml_codec._plain_word(value) == (_as_pyyaml_writes_it(value) == (value, value))
    assert yaml_codec.dump({value: value}) == yaml_codec.pyyaml_dump({value: value})


def test_random_words_are_written_as_pyyaml_writes_them() -> None:
    rnd = random.Random(17)
    alphabets = (string.ascii_letters + string.digits + "_.-", string.digits + "._-xXoObBeE:")
    for _ in range(3000):
        alphabet = rnd.choice(alphabets)
        value = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 12)))
        if yaml_codec._plain_word(value):
            assert _as_pyyaml_writes_it(value) == (value, value), value
        data = {value: [value, {"k": value}]}
        assert yaml_codec.dump(data) == yaml_codec.pyyaml_dump(data), value


def test_every_fixture_game_is_written_as_pyyaml_writes_it() -> None:
    games = sorted(FIXTURES.rglob("*.yaml"))
    assert games
    for path in games:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "log" in data:
            assert gamefile.dump_text(gamefile.GameFile.from_data(data)) == \
                gamefile.dump_text(gamefile.GameFile.from_data(data), "py"), path.name
