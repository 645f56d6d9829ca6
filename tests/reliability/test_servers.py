"""Real servers that misbehave (issue 20 §1 and §6): an SMTP server that refuses one recipient
never hides an apply, and the refused mail goes out on the next run; an IMAP server that drops
the connection, at the greeting or in the middle of a message, gives one line and exit 2 (as
the README's table says for a server that cannot be used), and nothing is lost."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from pbem.delivery import queue
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import Collect, drop, free_port, make_maildir, plain
from tests.reliability.kit import copy_game, next_block, pbem, snapshot


class RefuseOne(Collect):
    """An SMTP sink that answers 550 for one address and takes every other."""

    def __init__(self, refused: str | None) -> None:
        super().__init__()
        self.refused = refused

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          rcpt_options: list[str]) -> str:
        if address == self.refused:
            return "550 5.1.1 mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"


@contextmanager
def sink(refused: str | None) -> Iterator[tuple[RefuseOne, dict[str, str]]]:
    handler, port = RefuseOne(refused), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, {"PBEM_MAIL_FROM": "host@example.org", "PBEM_SMTP_HOST": "127.0.0.1",
                        "PBEM_SMTP_PORT": str(port), "PBEM_SMTP_SECURITY": "none"}
    finally:
        controller.stop()


def test_a_refused_recipient_is_queued_and_sent_on_the_next_run(tmp_path: Path) -> None:
    game = copy_game("pax", tmp_path)
    maildir = make_maildir(tmp_path / "Maildir")
    drop(maildir, plain(next_block(game).read_text(), "cy@example.org"))
    with sink("ben@example.org") as (server, env):
        result = pbem("inbox", str(game), "--maildir", str(maildir), env=env)
    assert result.exit_code == 0, result.stderr
    said = re.search(r"applied as seq (\d+); (\d+) message\(s\) out; (\d+) mail\(s\) queued",
                     result.stdout)
    assert said is not None, result.stdout
    assert said.group(1) == "1" and said.group(3) == "1" and len(queue.queued(game)) == 1
    assert gamefile.load(game).seq == 1
    assert all("ben@example.org" not in rcpt for _, rcpt, _ in server.envelopes)
    with sink(None) as (server, env):
        again = pbem("inbox", str(game), "--maildir", str(maildir), env=env)
    assert again.exit_code == 0 and "ben@example.org" in again.stdout, again.stdout
    assert [rcpt for _, rcpt, _ in server.envelopes] == [["ben@example.org"]]
    assert queue.queued(game) == [] and gamefile.load(game).seq == 1


@contextmanager
def imap_server(drop_at: str) -> Iterator[int]:
    """Just enough IMAP4rev1 for pbem's reader; it hangs up at `drop_at`: 'greeting' (accept
    and close) or 'fetch' (half a message literal, then close)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]

    def serve() -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            if drop_at == "greeting":
                return
            conn.sendall(b"* OK IMAP4rev1 ready\r\n")
            reader = conn.makefile("rb")
            for raw in reader:
                tag, _, rest = raw.decode().strip().partition(" ")
                verb = rest.split(" ")[0].upper()
                sub = rest.split(" ")[1].upper() if verb == "UID" else ""
                if verb == "CAPABILITY":
                    conn.sendall(f"* CAPABILITY IMAP4rev1\r\n{tag} OK done\r\n".encode())
                elif verb == "SELECT":
                    conn.sendall(b"* 1 EXISTS\r\n" + f"{tag} OK [READ-WRITE]\r\n".encode())
                elif sub == "SEARCH":
                    conn.sendall(b"* SEARCH 7\r\n" + f"{tag} OK done\r\n".encode())
                elif sub == "FETCH":
                    conn.sendall(b"* 1 FETCH (UID 7 BODY[] {400}\r\nFrom: cy@example.org\r\n")
                    return  # the connection drops in the middle of the message
                else:  # LOGIN, LOGOUT and the rest
                    conn.sendall(f"{tag} OK done\r\n".encode())

    worker = threading.Thread(target=serve, daemon=True)
    worker.start()
    try:
        yield port
    finally:
        listener.close()
        worker.join(5)


@pytest.mark.parametrize("drop_at", ["greeting", "fetch"])
def test_an_imap_server_that_hangs_up_is_one_line_and_loses_nothing(
        tmp_path: Path, drop_at: str) -> None:
    game = copy_game("pax", tmp_path)
    before = snapshot(tmp_path)
    with imap_server(drop_at) as port:
        result = pbem("inbox", str(game), "--imap", f"imap://host@127.0.0.1:{port}/INBOX",
                      env={"PBEM_IMAP_PASSWORD": "x", "PBEM_MAIL_FROM": "host@example.org"})
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"127.0.0.1:{port}" in result.stderr
    assert ("cannot reach" in result.stderr) == (drop_at == "greeting")  # fetch: logged in
    assert snapshot(tmp_path) == before  # nothing applied, nothing marked: the mail waits
