"""Errors that reach the user: each carries a documented exit code (README, "Exit codes")."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    REJECTED = 1  # orders rejected by the rules
    USAGE = 2  # bad arguments, missing file
    BAD_BLOCK = 3  # no block, malformed, bad or missing signature, unknown player
    DOES_NOT_FIT = 4  # other game, stale seq/state, not the sender's decision
    CORRUPT = 5  # corrupt or tampered game file
    INTERNAL = 70  # a bug in pbem
    IO = 74  # the machine refused a read or write (permissions, disk full, file too big)
    BUSY = 75  # another run holds the game's lock


class PbemError(Exception):
    """An error for people: one line, no traceback, no secrets."""

    exit_code: ExitCode = ExitCode.INTERNAL

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class UsageError(PbemError):
    exit_code = ExitCode.USAGE


class BlockError(PbemError):
    exit_code = ExitCode.BAD_BLOCK


class SignatureError(BlockError):
    pass


class DoesNotFitError(PbemError):
    exit_code = ExitCode.DOES_NOT_FIT


class CorruptGameError(PbemError):
    exit_code = ExitCode.CORRUPT


class BusyError(PbemError):
    exit_code = ExitCode.BUSY


class IOFailure(PbemError):
    exit_code = ExitCode.IO


class OrdersRejected(PbemError):
    exit_code = ExitCode.REJECTED
