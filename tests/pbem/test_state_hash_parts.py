"""The state hash's canonical JSON is built from reused encodings of the state's parts (issue
17): the bytes stay exactly those of one canonical encoding of the whole, whatever changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.store import hashing
from pbem.store.hashing import canonical_json, state_json
from tests.engine.playing import random_pax_positions

GAME = {"id": "g", "ruleset": "pax", "options": {}}


def whole(state: dict[str, Any], agenda: list[Any], seq: int = 3,
          game: dict[str, Any] = GAME) -> bytes:
    """The reference: one canonical encoding of everything, as the hash was always taken."""
    return canonical_json({"game": game, "seq": seq, "state": state, "agenda": agenda})


def test_every_position_of_random_games_encodes_as_the_whole() -> None:
    hashing._FRAGMENTS.clear()
    positions = 0
    for seq, table in enumerate(random_pax_positions("hash-parts", 3, 120, unsettled=True)):
        expected = whole(table.state, table.agenda, seq)
        assert state_json(GAME, seq, table.state, table.agenda) == expected  # parts made
        assert state_json(GAME, seq, table.state, table.agenda) == expected  # parts reused
        positions += 1
    assert positions > 200


@pytest.mark.parametrize("value", [1, True, 1.0, "1", [1], (1,), {"1": 1}, None, 0, False,
                                   -0.0, 0.0, 10**30, "é\u2028\"\\", [True, 1, 1.0]])
def test_a_part_that_changes_type_but_not_equality_is_encoded_anew(value: object) -> None:
    # Python's == tells none of 1, True and 1.0 apart; the hash does.
    for earlier in (1, True, 1.0, "1", [1], {"1": 1}, 0, False):
        state_json(GAME, 1, {"part": earlier, "other": [1, 2]}, [])
        state = {"part": value, "other": [1, 2]}
        assert state_json(GAME, 1, state, []) == whole(state, [], 1)


def test_keys_are_sorted_and_escaped_as_the_encoder_does() -> None:
    state = {"zeta": 1, "Alpha": [2], "é": {"b": 1, "a": 2}, 'qu"ote': None, "": 0, "a b": "x"}
    agenda = [{"id": 2, "action": "turn"}, {"id": 1}]
    game = {"z": 1, "a": {"trail": []}}
    assert state_json(game, 7, state, agenda) == whole(state, agenda, 7, game)
    assert state_json(game, 7, {}, []) == whole({}, [], 7, game)


def test_keys_that_are_not_strings_take_the_encoder_whole() -> None:
    assert state_json(GAME, 1, {1: "a", 2: "b"}, []) == whole({1: "a", 2: "b"}, [], 1)
    with pytest.raises(TypeError):  # the encoder cannot sort 1 against "a"
        state_json(GAME, 1, {1: "a", "b": 2}, [])


def test_what_is_not_json_fails_as_the_encoder_fails() -> None:
    class Custom:
        """Not JSON, and not marshal's data either."""

    with pytest.raises(TypeError):
        state_json(GAME, 1, {"part": Custom()}, [])
    with pytest.raises(TypeError):
        state_json(GAME, 1, {"part": {1, 2}}, [])  # marshal takes a set; JSON does not
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError):
        state_json(GAME, 1, {"part": cycle}, [])


@pytest.mark.parametrize("seq", [True, 2.0, 2])
def test_an_odd_seq_or_a_tuple_part_encodes_as_the_whole(seq: Any) -> None:
    assert state_json(GAME, seq, {"t": (1, 2)}, []) == whole({"t": (1, 2)}, [], seq)


def test_the_kept_encodings_are_bounded() -> None:
    for n in range(hashing._FRAGMENTS_KEPT + 50):
        state = {"n": n}
        assert json.loads(state_json(GAME, 1, state, []))["state"] == state
    assert len(hashing._FRAGMENTS) <= hashing._FRAGMENTS_KEPT


@pytest.mark.parametrize(("first", "second"), [
    (1, True), (1, 1.0), (0, False), ("1", 1), ([1], (1,)), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
    ({1: "x"}, {"1": "x"}),
    ([{"kind": "info", "args": {"n": 1}}], [{"args": {"n": 1}, "kind": "info"}]),
    ([{"n": 1}], [{"n": 2}]), (None, []), ("é", "e"), ([], [])])
def test_same_json_is_equal_canonical_json(first: object, second: object) -> None:
    assert hashing.same_json(first, second) == (canonical_json(first) == canonical_json(second))
    assert hashing.same_json(second, first) == hashing.same_json(first, second)


def test_same_json_refuses_what_json_cannot_hold() -> None:
    with pytest.raises(TypeError):
        hashing.same_json({"a": {1, 2}}, {"a": [1, 2]})


def reads_back(state: dict[Any, Any], seq: Any = 3) -> bool:
    return hashing.reads_back(hashing.encode_state(GAME, seq, state, []), GAME, seq, state, [])


def whole_reads_back(state: dict[str, Any], agenda: list[Any], seq: int = 3) -> bool:
    data = {"game": GAME, "seq": seq, "state": state, "agenda": agenda}
    return bool(json.loads(canonical_json(data).decode()) == data)


def test_reads_back_agrees_with_the_whole_text_read_back_at_every_position() -> None:
    hashing._READ_BACK.clear()
    for seq, table in enumerate(random_pax_positions("reads-back", 2, 80)):
        assert hashing.reads_back(hashing.encode_state(GAME, seq, table.state, table.agenda),
                                  GAME, seq, table.state, table.agenda) is True
        assert whole_reads_back(table.state, table.agenda, seq)
    assert hashing._READ_BACK  # the parts' verdicts are kept


@pytest.mark.parametrize("part", [(1, 2), {1: "x"}, [float("nan")], {"a": (1,)}, [1, {2: 3}]])
def test_a_part_that_json_changes_does_not_read_back(part: object) -> None:
    state = {"fine": [1, "a", True, None, 1.5], "part": part}
    assert whole_reads_back(state, []) is False
    for _ in range(2):  # and not once its bytes were seen
        assert reads_back(state) is False
    assert reads_back({"fine": state["fine"]}) is True


def test_reads_back_takes_odd_keys_and_seqs_whole() -> None:
    assert reads_back({1: "a"}) is False  # the key comes back "1"
    assert reads_back({"a": 1}, True) is True  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # no JSON at all: the encoder's own error
        reads_back({"a": {1, 2}})


def test_the_parts_restore_the_state_they_were_encoded_from() -> None:
    for table in random_pax_positions("restore", 1, 40):
        encoded = hashing.encode_state(GAME, 1, table.state, table.agenda)
        state, agenda = encoded.restore()
        assert (state, agenda) == (table.state, table.agenda)
        assert list(state) == sorted(table.state)  # the keys as the text orders them
        assert state is not table.state and agenda is not table.agenda
        assert hashing.encode_state(GAME, 1, state, agenda).text == encoded.text
