"""The fast reader of pbem's YAML (pbem.store.plain_yaml) against PyYAML's safe loader: for
any text, it either gives exactly PyYAML's data (types and key order included) or steps aside
with NotPlain; never a different answer.

The generated-input tests try Hypothesis's default 100 examples each under `make test`, and
the 300 to 400 they tried before issue 17 under `make test-long` (tests/scale.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.store import gamefile, plain_yaml, yaml_codec
from pbem.store.yaml_codec import DUMPERS
from tests import scale

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
WORDS = ["", " ", "a", "b c", "yes", "No", "on", "~", "null", "NULL", "true", "False", "0", "-1",
         "+2", "07", "0x1f", "1_000", "1:20", "1.5", ".inf", "2026-12-07", "<<", "=", "-", "- a",
         "a: b", "a:", ":a", "# x", "a #b", "a#b", "'q'", "it's", '"d"', "\\", "x\n", "x\ny",
         "\nlead", " lead", "trail ", "x\n\n", "tab\there", "é ü", "\u2028", "\x85", "\x07",
         "[a]", "{b}", "&a", "*a", "!x", "|", ">", "%", "@", "`", "?", "? a", "---", "...",
         "-----BEGIN-----\ngame: x\n\nline\n"]


def same(a: Any, b: Any) -> bool:
    """Equal with equal types and equal key order (Python's == takes True for 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def check(text: str) -> bool:
    """True when the fast reader answered (and so agreed with PyYAML)."""
    try:
        fast = plain_yaml.load(text)
    except plain_yaml.NotPlain:
        return False
    slow = yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader
    assert same(fast, slow), text
    return True


def dumped(data: Any) -> str:
    text: str = yaml.dump(data, Dumper=DUMPERS["c"], sort_keys=False,
                          allow_unicode=True, width=1_000_000, default_flow_style=False)
    return text


scalars = st.one_of(st.sampled_from(WORDS), st.text(max_size=12), st.integers(-10**12, 10**12),
                    st.booleans(), st.none())
keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=8))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)), max_leaves=25)


@settings(max_examples=scale.count(100, 400), deadline=None)
@given(st.one_of(st.dictionaries(keys, documents, max_size=5), st.lists(documents, max_size=5)))
def test_what_our_dumper_writes_reads_the_same(data: Any) -> None:
    check(dumped(data))


@settings(max_examples=scale.count(100, 400), deadline=None)
@given(st.dictionaries(keys, documents, min_size=1, max_size=4), st.randoms(use_true_random=False))
def test_damaged_text_reads_the_same_or_steps_aside(data: Any, rng: random.Random) -> None:
    text = dumped(data)
    for _ in range(3):
        at = rng.randrange(len(text) + 1)
        change = rng.choice(["del", "ins", "dup"])
        if change == "del":
            text = text[:at] + text[at + 1:]
        elif change == "ins":
            text = text[:at] + rng.choice(" -:#'\"\n|a1&{[") + text[at:]
        else:
            line_start = text.rfind("\n", 0, at) + 1
            text = text[:line_start] + "  " + text[line_start:]
    try:
        expected = yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        with pytest.raises(plain_yaml.NotPlain):
            plain_yaml.load(text)
        return
    try:
        fast = plain_yaml.load(text)
    except plain_yaml.NotPlain:
        return
    assert same(fast, expected), text


@pytest.mark.parametrize("text", [
    "a: 1\nb:\n- x\n- - y\n  - z\nc:\n  d: |\n    one\n\n    two\n  e: |-\n    three\n",
    "- k: |+\n    kept\n\n\n- '2': ''\n  v: \"tab\\there \\u00e9\"\n- []\n- {}\n",
    "a: |2-\n    lead\n  x\nb: 0\n", "a: b\n  c\n", "a: 1 # note\n", "a:\n  - x\n  - y\n",
    "a: yes\nb: 0o7\nc: 1_0\n", "a: 1.5\n", "? a\n: b\n", "a: &x 1\nb: *x\n", "a: !!str 1\n",
    "- x\n-\n", "a:\n\nb: 1\n", "a: 'x\n  y'\n", "'a': 1\n\"b\": 2\n",
    # indentation indicators in each kind of parent, both orders with chomping, keep at the end
    "a: |-2\n   x\n", "- |1\n  x\n", "a:\n- |2\n   x\n  y\n", "- k: |2\n    x\n",
    "a:\n  - |1\n     x\n", "a: |+\n  x\n\n\n", "a: |+\n  x\n\nb: 1\n", "a: |\n\n  x\n",
    "a: |\n x\nb: |3\n    y\n", "a: |1\nx\n", "a: |\n  x\n   y\n  z\n",
    # keys: a colon inside, a quote inside, long quoted keys, escapes PyYAML knows and we don't
    "a:b: c\n", "a\"b: c\n", "'a''b': c\n", "'" + "k" * 1030 + "': 1\n",
    # duplicate keys (the last value, at the first place), keys equal as Python values
    "a: 1\nb: 2\na: 3\n", "1: x\ntrue: y\n", "null: 1\n~: 2\n", "a: 1\n'a': 2\n",
    "a:\n  b: 1\na: 2\n", "0: a\nfalse: b\n-0: c\n",
    "a: \"\\/\"\n", "a: \"\\x41\\u00e9\\U0001F600\"\n", "a: \"\\ud800\"\n",
])
def test_hand_written_layouts(text: str) -> None:
    try:
        yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        with pytest.raises(plain_yaml.NotPlain):
            plain_yaml.load(text)
        return
    check(text)


def test_common_layouts_take_the_fast_path() -> None:
    assert check("a: 1\nb:\n- x\n- k: |\n    line\n  n: null\nc: {}\nd: ''\n")


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.yaml")), ids=str)
def test_every_fixture_reads_as_pyyaml_reads_it(path: Path) -> None:
    check(path.read_text(encoding="utf-8"))


def pyyaml_dumped(data: Any) -> str:
    """The game file's dump as PyYAML's own safe representer builds it (before issue 17)."""

    class Dumper(LOADER_DUMPER):  # type: ignore[misc, valid-type]
        def ignore_aliases(self, data: Any) -> bool:
            return True

    def literal(dumper: Any, value: str) -> Any:
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, literal)
    text: str = yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True,
                          width=1_000_000, default_flow_style=False)
    return text


LOADER_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@settings(max_examples=scale.count(100, 300), deadline=None)
@given(st.one_of(documents, st.dictionaries(keys, documents, max_size=5),
                 st.lists(st.one_of(documents, st.floats(allow_nan=False)), max_size=5)))
def test_the_dump_is_pyyamls_byte_for_byte(data: Any) -> None:
    assert dumped(data) == pyyaml_dumped(data)


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.yaml")), ids=str)
def test_every_fixture_dumps_back_to_its_bytes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    data = yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader
    assert dumped(data) == pyyaml_dumped(data)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["\n", "\n", "a", ":", "-", " ", "#", "\t", "b: c", "\nx:", "é",
                                 "\u2028", "- k: v\n"]), max_size=14).map("".join))
def test_a_stray_top_level_key_is_found_as_the_pattern_finds_it(text: str) -> None:
    slow, fast = gamefile._TOP_LEVEL.search(text), gamefile._top_level_key(text)
    assert (slow and (slow.span(), slow.group(1))) == (fast and (fast.span(), fast.group(1)))


@settings(max_examples=scale.count(100, 400), deadline=None)
@given(st.one_of(documents, st.dictionaries(keys, documents, max_size=5),
                 st.lists(st.one_of(documents, st.floats(allow_nan=False)), max_size=5),
                 st.dictionaries(st.text(min_size=95, max_size=140), documents, max_size=2)))
def test_the_fast_writer_writes_pyyamls_bytes(data: Any) -> None:
    assert yaml_codec.dump(data) == dumped(data)


@pytest.mark.parametrize("path", sorted(FIXTURES.rglob("*.yaml")), ids=str)
def test_the_fast_writer_writes_every_fixture_back(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    data = yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader
    head = {key: value for key, value in data.items() if key != "log"}
    assert yaml_codec.dump(head) == dumped(head)
    assert yaml_codec.dump(data["log"]) == dumped(data["log"])
    assert yaml_codec.dump(data) == text
