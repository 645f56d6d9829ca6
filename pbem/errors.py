"""Errors that reach the user: each carries a documented exit code (README, "Exit codes")."""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, Self

from engine.core.errors import Reason, RuleError, because


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
    """An error for people: one line, no traceback, no secrets. Its reason is data where it
    is keyed (`why`, a Reason; `rule`, the engine's rejection): the edge says it in the
    reader's language (pbem.i18n.errors); `message` is the English."""

    exit_code: ExitCode = ExitCode.INTERNAL

    def __init__(self, message: str | Reason, *, rule: RuleError | None = None) -> None:
        super().__init__(str(message))
        self.message = str(message)
        self.why = message if isinstance(message, Reason) else None
        self.rule = rule

    @classmethod
    def keyed(cls, key: str, /, **fields: Any) -> Self:
        """This error with pbem's reason `key` (pbem.errors.REASONS)."""
        return cls(because(REASONS, key, **fields))

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

    @classmethod
    def from_rule(cls, error: RuleError, suffix: str = "") -> Self:
        """The engine's rejection, kept as data for the edge (`suffix`: English for the CLI)."""
        return cls(error.message() + suffix, rule=error)


# pbem's own reasons that a player may read in a rejection mail (keyed: the edge translates).
REASONS: Mapping[str, str] = {
    "reason:pbem.no_block": "no order block found: expected a '-----BEGIN PBEM ORDERS-----' block",
    "reason:pbem.other_game": "the block is for game '{block_game}', but this file is game "
                              "'{game}'",
    "reason:pbem.unknown_player": "unknown player '{player}'; players: {players}",
    "reason:pbem.unsigned": "the block is not signed; sign it with: pbem sign ORDERS --key KEY",
    "reason:pbem.no_orders": "the block holds no orders",
    "reason:pbem.game_over": "the game is over; no more orders are taken",
    "reason:pbem.stale": "stale block: written against seq {seq} state {state}, but the game "
                         "is at seq {game_seq} state {game_state}; read the latest report and "
                         "write new orders",
    "reason:pbem.stale_replaced": "stale block: {player} replaced the answer it was written "
                                  "before (seq {seq}); a newer answer is written against seq "
                                  "{replaced_seq} or later",
    "reason:pbem.already_answered": "{player} has already answered this decision (already "
                                    "answered)",
    "reason:pbem.already_sealed": "{player} has already answered this decision (already "
                                  "sealed; a bid cannot be changed)",
    "reason:pbem.not_your_decision": "it is not {player}'s decision now: waiting for {waiting}",
    "reason:pbem.not_your_decision_to": "it is not {player}'s decision now: waiting for "
                                        "{waiting} to {decision}",
    "reason:pbem.already_applied": "already applied as seq {seq}: this block was applied "
                                   "before, so nothing changed",
    # reading a block (pbem.orders.blockfinder, orderblock)
    "reason:pbem.no_header": "the order block has no {keys} header line",
    "reason:pbem.sig_empty": "the block has a {sig} line but no signature",
    "reason:pbem.header_too_long": "header line {line} is {length} characters long; a line holds "
                                   "at most {limit}",
    "reason:pbem.header_repeats": "header line {line} repeats '{key}:'",
    "reason:pbem.header_form": "header line {line} is not 'key: value'; a blank line must "
                               "separate the header from the orders",
    "reason:pbem.header_key": "header line {line} has unknown key {key} (expected {keys})",
    "reason:pbem.header_empty": "header line {line} has no value",
    "reason:pbem.header_seq": "header line {line}: seq must be a whole number",
    "reason:pbem.block_too_big": "the order block is {size} bytes long; a block holds at most "
                                 "{limit} bytes (64 kB)",
    "reason:pbem.line_too_long": "line {number} is {length} characters long; an order line holds "
                                 "at most {limit}",
    "reason:pbem.too_many_lines": "line {number}: a block holds at most {limit} order lines; "
                                  "send the rest in another block",
    "reason:pbem.text_too_big": "the text is {size} bytes; pbem looks for an order block in at "
                                "most {limit} bytes (1 MB)",
    "reason:pbem.marker_first": "found a {kind} line without a {begin} line before it",
    "reason:pbem.second_begin": "a block has a second {begin} line before its {end} line",
    "reason:pbem.two_sigs": "a block has two {sig} lines",
    "reason:pbem.no_end": "a block starts with {begin} but has no {end} line",
    "reason:pbem.bad_signature": "bad signature: the block was changed after signing, or signed "
                                 "with another key",
    # absences, pauses, bots, takebacks and sandboxes (issue 24; pbem.pipeline.life*,
    # takeback*, pbem.orders.life_lines, takeback_lines, pbem.store.sandbox)
    "reason:pbem.quiet_stale": "stale block: written against seq {seq}, but the game is at seq "
                               "{game_seq}; sign a new one",
    "reason:pbem.quiet_applied": "already applied: this block was applied before, so nothing "
                                 "changed",
    "reason:pbem.line_expected": "line {number}: expected {expected}",
    "reason:pbem.own_block": "line {number}: '{line}' goes in a block of its own, without orders "
                             "or other lines",
    "reason:pbem.not_a_date": "'{written}' is not a date and time; write e.g. {example} or "
                              "{example_time}",
    "reason:pbem.moderator_life": "the moderator sends 'pause', 'resume' or 'bot off SEAT', not "
                                  "'{line}'",
    "reason:pbem.moderator_bot_seat": "the moderator names the seat: 'bot off SEAT'; seats: "
                                      "{seats}",
    "reason:pbem.bot_off_own": "'bot off' takes back the player's own seat, not {seat}'s",
    "reason:pbem.handover_passed": "{until} has passed; a handover ends in the future",
    "reason:pbem.not_handed": "{player}'s seat is not handed to a bot",
    "reason:pbem.absence_passed": "{until} has passed; an absence ends in the future",
    "reason:pbem.no_absence": "this game allows no absence: the host sets an allowance with "
                              "{command}",
    "reason:pbem.absence_too_long": "an absence until {until} needs {asked} more, but {player} "
                                    "has {left} of absence left in this game (of {allowance})",
    "reason:pbem.not_away": "{player} is not away",
    "reason:pbem.already_paused": "the game is already paused; send 'resume' to end the pause",
    "reason:pbem.pause_signed": "{player} has already signed this pause; waiting for {waiting}",
    "reason:pbem.not_paused": "the game is not paused",
    "reason:pbem.moderator_paused": "the moderator paused this game, so only the moderator "
                                    "resumes it",
    "reason:pbem.moderator_takeback": "the moderator sends 'takeback SEQ' (granted at once), not "
                                      "'{line}'",
    "reason:pbem.takeback_over": "the game is over; nothing is taken back",
    "reason:pbem.takeback_refused": "{line}: {why}",
    "reason:pbem.takeback_no_block": "there is no block at seq {seq}; the game is at seq "
                                     "{game_seq}",
    "reason:pbem.takeback_not_orders": "seq {seq} is a {kind} entry, not a block of orders",
    "reason:pbem.takeback_not_yours": "seq {seq} is {player}'s block, not yours",
    "reason:pbem.takeback_taken": "seq {seq} was already taken back at seq {taken}",
    "reason:pbem.takeback_final": "seq {seq} is final ({final}): a takeback never undoes "
                                  "randomness or a revealed secret",
    "reason:pbem.final_drew": "it drew or rolled ({purposes})",
    "reason:pbem.final_sealed": "a sealed answer",
    "reason:pbem.final_unseal": "the sealed answers opened",
    "reason:pbem.final_reveal": "the seed revealed",
    "reason:pbem.final_setup": "the setup",
    "reason:pbem.final_opened": "an opened sealed answer",
    "reason:pbem.final_shown": "the last answer to a decision every player answers at once: the "
                               "answers were shown",
    "reason:pbem.takeback_open": "takeback {seq} is still open: it is accepted, refused or lapses "
                                 "first",
    "reason:pbem.takeback_not_open": "no takeback of seq {seq} is open",
    "reason:pbem.takeback_need_not": "{player} need not answer takeback {seq}; it waits for "
                                     "{waiting}",
    "reason:pbem.takeback_accepted": "{player} already accepted takeback {seq}",
    "reason:pbem.sandbox": "{game} is a sandbox (a what-if copy of game {of} at seq {at}): "
                           "{command} refuses it, so it is never mailed as the real game; play "
                           "it with apply, options and report",
    # a malformed signature (pbem.orders.signatures); the armor lines quoted as they are
    "reason:pbem.signature_empty": "the signature is empty",
    "reason:pbem.sig_no_end": "the SSH signature has no '{end}' line",
    "reason:pbem.sig_text_after": "there is text after the '{end}' line",
    "reason:pbem.sig_not_sshsig": "the SSH signature is not in SSHSIG format",
    "reason:pbem.sig_form": "a signature must be 'ed25519 <base64>' or an armored SSH signature",
    "reason:pbem.sig_length": "an ed25519 signature has 64 bytes, not {length}",
    "reason:pbem.sig_version": "SSH signature version {version} is not supported (expected 1)",
    "reason:pbem.sig_namespace": "the SSH signature is for namespace {shown}, not {namespace}",
    "reason:pbem.sig_hash": "the SSH signature uses hash {shown}; expected sha256 or sha512",
    "reason:pbem.sig_other_key": "the SSH signature was made with another key than the player's",
    "reason:pbem.sig_not_ed25519": "the SSH signature is not an ssh-ed25519 signature",
}
