"""Why a line or a block was refused, in the reader's language (issue 18): a reason is data (a
key, its English template and fields) that the edge says through the catalog; order-language
fields, the refused line and the legal lines stay verbatim; English is the error's own message,
byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.aor.reasons import REASONS as AOR_REASONS
from engine.core.errors import REASONS as CORE_REASONS
from engine.core.errors import IllegalOrder, Reason, UnreadableOrder, Verbatim, because
from engine.core.words import fields
from engine.pax.messages.reasons import REASONS as PAX_REASONS
from pbem.errors import REASONS as PBEM_REASONS
from pbem.errors import DoesNotFitError, OrdersRejected
from pbem.i18n.errors import say_error, say_reason, say_rule
from pbem.words import decision_reason
from tests.pbem.test_mail_helpers import drop, make_maildir, plain
from tests.pbem.test_seat_language import Table, mails, text_of, waiting
from tests.security.test_names_bound import cli


def test_a_rule_error_in_hungarian_quotes_the_line_and_the_legal_lines_verbatim() -> None:
    error = UnreadableOrder(because(CORE_REASONS, "reason:core.unknown_word_near",
                                    word=Verbatim("biy"), near=Verbatim("buy west 2")),
                            line="biy west 2", number=3,
                            options=[f"buy west {n}" for n in range(14)])
    english = say_rule(error, "en")
    assert english == error.message()  # English: the message itself
    assert english.startswith("line 3: 'biy west 2': unknown order word 'biy'; did you mean")
    said = say_rule(error, "hu")
    assert said.startswith("3. sor: 'biy west 2': ismeretlen parancsszó: 'biy'; erre "
                           "gondoltál: 'buy west 2'?; szabályos sorok: buy west 0 | ")
    assert said.endswith("buy west 11 (és még 2)")


def test_an_order_word_is_never_taken_for_a_term_to_translate() -> None:
    """'buy' is a data word (a term: "vásárlás") in sentences; in a reason it is the order
    word the player wrote, and stays as it is."""
    error = IllegalOrder(because(CORE_REASONS, "reason:core.not_legal", verb=Verbatim("buy"),
                                 near=Verbatim("")))
    assert say_rule(error, "hu") == "most nem szabályos 'buy' parancs"


def test_a_nested_reason_is_said_in_the_same_language() -> None:
    decision = decision_reason("pax", "turn")
    error = DoesNotFitError.keyed("reason:pbem.not_your_decision_to", player="ada",
                                  waiting=["ben"], decision=decision)
    assert say_error(error, "en") == str(error) == \
        "it is not ada's decision now: waiting for ben to choose an action"
    assert say_error(error, "hu") == "most nem ada dönt: várakozás rá: ben (akció választása)"


@pytest.mark.parametrize("catalog", [CORE_REASONS, PBEM_REASONS, PAX_REASONS, AOR_REASONS])
def test_every_keyed_reason_is_said_in_hungarian_with_its_fields(catalog: dict[str, str]) -> None:
    for key, template in catalog.items():
        reason = Reason(key, template, {name: f"<{name}>" for name in fields(template)})
        said = say_reason(reason, "hu")
        assert said != str(reason), key
        assert all(f"<{name}>" in said for name in fields(template)), (key, said)


def test_an_engine_rejection_keeps_its_data_through_pbem() -> None:
    error = IllegalOrder(because(PAX_REASONS, "reason:pax.actions_used"), line="buy west 1",
                         number=2)
    rejected = OrdersRejected.from_rule(error)
    assert str(rejected) == error.message() and rejected.rule is error
    assert say_error(rejected, "hu").startswith("2. sor: 'buy west 1': ennek a körnek mindkét")


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setenv("PBEM_MAIL_FROM", "Lisbon host <host@example.org>")
    return Table(tmp_path)


def test_a_rules_explanation_reaches_a_hungarian_rejection_mail(table: Table,
                                                                 tmp_path: Path) -> None:
    """Pax's own reason (a tableau with no cards has no ops), in the sender's language."""
    mover = waiting(table.game)
    assert table.language(mover) == "hu"
    table.mail_in(mover, ["ops east"], tmp_path / "rejected")
    (message,) = mails(tmp_path / "rejected")
    flat = " ".join(text_of(message).split())
    assert "1. sor: 'ops east': a keleti tablódon nincs lap, így nincs aktiválható művelete " \
           "(E4)" in flat


def test_an_unreadable_block_is_refused_in_the_senders_language(table: Table,
                                                                tmp_path: Path) -> None:
    """The block cannot even be read (no END line): why, in Hungarian, with the markers
    quoted as they are."""
    mover = waiting(table.game)
    before = table.game.read_bytes()
    signed = table.signed(mover, ["buy west 1"])
    broken = "\n".join(line for line in signed.splitlines() if "END PBEM ORDERS" not in line)
    maildir = make_maildir(tmp_path / "Maildir")
    drop(maildir, plain(broken, f"{table.names[mover]}@example.org"))
    code, _, err = cli("inbox", str(table.game), "--maildir", str(maildir), "--outbox",
                       str(tmp_path / "out"), "--now", "2027-03-05T12:00Z")
    assert code == 0, err
    (message,) = mails(tmp_path / "out")
    flat = " ".join(text_of(message).split())
    assert message["X-Pbem-Kind"] == "rejection" and table.game.read_bytes() == before
    assert "egy blokk '-----BEGIN PBEM ORDERS-----' sorral kezdődik, de nincs " \
           "'-----END PBEM ORDERS-----' sora" in flat, flat
