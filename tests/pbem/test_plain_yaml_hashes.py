"""A 64-digit hex value (a state hash, a payload hash) is read without asking PyYAML's
resolvers (issue 17): it must still be what PyYAML reads, hashes that look like numbers too."""

from __future__ import annotations

import hashlib
import random

import pytest

from tests.pbem.test_plain_yaml import check

RNG = random.Random(17)
HASHES = [hashlib.sha256(str(n).encode()).hexdigest() for n in range(200)]
LOOKALIKES = [
    "0b" + "".join(RNG.choice("01") for _ in range(62)),  # a binary int to YAML 1.1
    "0b" + "1" * 61 + "a",
    "".join(RNG.choice("0123456789") for _ in range(64)),  # a decimal int
    "0" + "".join(RNG.choice("01234567") for _ in range(63)),  # an octal int
    "".join(RNG.choice("0123456789b") for _ in range(64)),
    "b" * 64,
    "a" * 64,
    "f" * 63,  # not 64 digits
    "f" * 65,
    "F" * 64,  # upper case: left to the resolvers
]


@pytest.mark.parametrize("value", HASHES)
def test_a_hash_reads_as_pyyaml_reads_it_on_the_fast_path(value: str) -> None:
    assert check(f"post_state: {value}\nlog:\n- {value}\n")


@pytest.mark.parametrize("value", LOOKALIKES)
def test_a_hash_that_looks_like_a_number_reads_as_pyyaml_reads_it_or_steps_aside(
        value: str) -> None:
    check(f"post_state: {value}\nlog:\n- {value}\n")  # asserts agreement when it answers
