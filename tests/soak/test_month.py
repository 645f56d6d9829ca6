"""One simulated day of a host's crontab over three games (issue 23 §6): the month's checks at
a size `make test` can afford. `make soak-mail` runs the whole month (DAYS=30)."""

from __future__ import annotations

from pathlib import Path

from tests.soak import clients
from tests.soak.month import Month


def test_one_day_under_cron(tmp_path: Path) -> None:
    month = Month(tmp_path, days=1)
    figures = month.run()
    assert month.problems == [], month.problems[:10]
    assert figures["commands"] > 24 * 10  # inbox, then remind, timeout, digest for 3 games
    assert figures["blocks_sent"], "no player answered: the day tested nothing"
    assert month.listed, "the inbox listed nothing: the junk never arrived"
    assert set(month.junk) >= {"malformed", "spam", "invalid utf-8", "stranger", "phishing",
                               "270 KB attachment", "stranger bounce"}, month.junk
    assert month.bounced["permanent"], "the full mailbox never bounced"
    assert month.later == [] or all(hour >= 24 for hour, _, _ in month.later)


def test_every_client_style_keeps_the_block_readable() -> None:
    """Each style's bytes hold one block the inbox finds whole (the month only samples them)."""
    from datetime import UTC, datetime
    from email import policy
    from email.message import EmailMessage
    from email.parser import BytesParser

    from pbem.delivery.reading import message_blocks

    report = EmailMessage()
    report["Subject"], report["Message-ID"] = "[g] seq 3", "<r@example.org>"
    report.set_content("YOUR ORDERS\n\n-----BEGIN PBEM ORDERS-----\ngame: g\nplayer: p\nseq: 3\n"
                       "state: 0123456789abcdef\n\n# your orders here\n-----END PBEM ORDERS-----\n")
    block = ("-----BEGIN PBEM ORDERS-----\ngame: g\nplayer: p\nseq: 3\nstate: 0123456789abcdef\n"
             "\nplay \"Oratory of Divine Love\" # a comment long enough to be wrapped\nend\n"
             "-----END PBEM ORDERS-----\n")
    for name, style in clients.STYLES.items():
        raw = style(block, "ada@players.example", report, datetime(2027, 3, 1, tzinfo=UTC))
        message = BytesParser(policy=policy.default).parsebytes(raw)
        assert isinstance(message, EmailMessage)
        found = message_blocks(message)
        assert [[line.canonical for line in b.lines] for b in found] == \
            [['play "oratory of divine love"', "end"]], name
