"""Mail in over IMAP against a real Dovecot started for the test on 127.0.0.1.

Dovecot comes from Debian's `dovecot-imapd` package; without it the test is skipped and says
so. As root the mail is owned by the `dovecot` user (Dovecot refuses uid 0); as anyone else
everything runs as that user.
"""

from __future__ import annotations

import getpass
import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import inbox, mail, mailboxes, transport
from pbem.errors import UsageError
from pbem.store import gamefile
from tests.pbem.test_mail_helpers import (
    acting,
    block_for,
    first_move,
    free_port,
    make_game,
    plain,
    quoted_printable,
    settings_for,
)

NOW = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)
PASSWORD = "imap-pw"
DOVECOT = shutil.which("dovecot") or next(
    (p for p in ("/usr/sbin/dovecot", "/usr/local/sbin/dovecot") if os.path.exists(p)), None)

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
ssl = no
listen = 127.0.0.1
protocols = imap
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_login_user = {login}
first_valid_uid = {mail_uid}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_group} home={root}/home/%u
}}
mail_location = maildir:{root}/home/%u/Maildir
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""


def _users() -> tuple[str, str, str]:
    """(internal user, login user, mail user) for this uid."""
    if os.getuid() != 0:
        me = getpass.getuser()
        return me, me, me
    for name in ("dovecot", "dovenull"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            pytest.skip(f"Dovecot is installed but its '{name}' user is missing")
    return "dovecot", "dovenull", "dovecot"


@pytest.fixture
def imap_port() -> Iterator[int]:
    if DOVECOT is None:
        pytest.skip("the IMAP test needs Dovecot (Debian: apt-get install dovecot-imapd), "
                    "which is not installed here")
    internal, login, mail_user = _users()
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    port = free_port()
    try:
        root.chmod(0o755)
        for sub in ("run", "state", "home/host/Maildir"):
            (root / sub).mkdir(parents=True)
        (root / "passwd").write_text(f"host:{{PLAIN}}{PASSWORD}\n")
        owner = pwd.getpwnam(mail_user)
        for path in (root / "home", root / "home/host", root / "home/host/Maildir"):
            os.chown(path, owner.pw_uid, owner.pw_gid)
        (root / "dovecot.conf").write_text(CONFIG.format(
            root=root, internal=internal, login=login, mail_user=mail_user,
            mail_uid=owner.pw_uid, mail_group=owner.pw_gid, port=port))
        server = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _wait_for(port, server, root)
            yield port
        finally:
            server.terminate()
            server.wait(timeout=20)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _wait_for(port: int, server: subprocess.Popen[bytes], root: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if server.poll() is not None:
            log = (root / "dovecot.log").read_text() if (root / "dovecot.log").exists() else ""
            err = server.stderr.read().decode() if server.stderr else ""
            pytest.fail(f"dovecot exited: {err} {log}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    pytest.fail("dovecot did not start listening")


def append(port: int, raw: bytes) -> None:
    client = imaplib.IMAP4("127.0.0.1", port)
    client.login("host", PASSWORD)
    client.append("INBOX", None, None, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    client.logout()


def unseen(port: int) -> int:
    client = imaplib.IMAP4("127.0.0.1", port)
    client.login("host", PASSWORD)
    client.select("INBOX")
    count = len(client.uid("SEARCH", "UNSEEN")[1][0].split())
    client.logout()
    return count


class Recorder:
    def __init__(self) -> None:
        self.count = 0

    def deliver_each(self, messages: list[object]) -> list[transport.Sent]:
        self.count += len(messages)
        return [transport.Sent(True, "ok") for _ in messages]


def test_inbox_over_imap(tmp_path: Path, imap_port: int,
                         monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game(tmp_path)
    mover = acting(game)
    sender = f"{gamefile.load(game).roster_entry(mover)['name']}@example.org"  # type: ignore[index]
    append(imap_port, quoted_printable(block_for(game, first_move(game)), sender))
    append(imap_port, plain("no orders, just chat", sender))
    url = f"imap://host@127.0.0.1:{imap_port}/INBOX"
    settings, out = settings_for(1), Recorder()
    with pytest.raises(UsageError, match="never put the password in the IMAP URL"), \
            mailboxes.imap_messages(f"imap://host:pw@127.0.0.1:{imap_port}/", settings):
        pass
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    with mailboxes.imap_messages(url, settings) as items:
        lines = inbox.process(items, [game], out, settings, NOW, verbose=True)
    assert "applied as seq 1" in lines[0] and lines[1].endswith("left alone: no order block")
    # the receipt, two players' reports and the public one: the mover gets no digest of their move
    assert gamefile.load(game).seq == 1 and out.count == 4
    assert unseen(imap_port) == 1  # the chat stays unseen, the orders are flagged \Seen
    monkeypatch.setenv("PBEM_MAIL_FROM", "host@example.org")
    result = CliRunner().invoke(app, ["inbox", str(game), "--imap", url, "--outbox",
                                      str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""  # the chat was looked at before: a quiet run
    result = CliRunner().invoke(app, ["inbox", str(game), "--imap", url, "--outbox",
                                      str(tmp_path / "out"), "--verbose"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("\n") == 1 and "no order block (before)" in result.stdout
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "wrong")
    result = CliRunner().invoke(app, ["inbox", str(game), "--imap", url])
    assert result.exit_code == 2 and "IMAP 127.0.0.1" in result.stderr
    assert "wrong" not in result.stderr
    assert mail.Book.load(game).data["processed"]
