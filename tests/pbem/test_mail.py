"""Mail out (issue 7): settings, the messages, threading, the outbox, and real SMTP on loopback
(plain, STARTTLS with a login, implicit TLS). The SMTP password never lands anywhere."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.delivery import mail, queue, transport
from pbem.errors import UsageError
from tests.pbem.test_mail_helpers import (
    HOST,
    accept_ada,
    acting,
    block_for,
    first_move,
    make_game,
    server_tls,
    settings_for,
    smtp_server,
)

NOW = datetime(2027, 3, 5, 12, 0, tzinfo=UTC)
runner = CliRunner()


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return make_game(tmp_path)


def body(message: EmailMessage, subtype: str) -> str:
    part = message.get_body((subtype,))
    assert part is not None, f"no text/{subtype} part"
    return str(part.get_content())


def by_reader(messages: list[EmailMessage]) -> dict[str, EmailMessage]:
    return {str(m["X-Pbem-For"]): m for m in messages}


def test_settings_from_the_file_beside_the_game_and_the_environment(game: Path) -> None:
    (game.parent / "pbem.toml").write_text(
        '[mail]\nfrom = "Host <h@example.org>"\n[smtp]\nhost = "smtp.example.org"\n'
        'port = 2525\nsecurity = "tls"\nuser = "h"\npassword_command = "pass show smtp"\n')
    with pytest.raises(UsageError, match="password_command is read only from a settings file"):
        mail.load_settings(game, env={})  # a file beside the game may not run commands
    named = game.parent / "host.toml"
    named.write_text((game.parent / "pbem.toml").read_text())
    settings = mail.load_settings(game, named, env={})
    (game.parent / "pbem.toml").write_text(
        (game.parent / "pbem.toml").read_text().replace('password_command = "pass show smtp"\n',
                                                        ""))
    assert (settings.host, settings.port, settings.security, settings.user) == \
        ("smtp.example.org", 2525, "tls", "h")
    assert settings.password_command == "pass show smtp" and settings.domain == "example.org"
    env = {"PBEM_SMTP_HOST": "relay.example.net", "PBEM_SMTP_SECURITY": "STARTTLS",
           "PBEM_SMTP_PORT": "587"}
    overridden = mail.load_settings(game, env=env)
    assert (overridden.host, overridden.port, overridden.security) == \
        ("relay.example.net", 587, "starttls")
    assert "password" not in repr(overridden).replace("password_command", "")


def test_a_password_in_the_settings_file_is_refused(game: Path, tmp_path: Path) -> None:
    config = tmp_path / "other.toml"
    config.write_text('[smtp]\nhost = "x"\npassword = "hunter2"\n')
    with pytest.raises(UsageError, match="never write a password") as caught:
        mail.load_settings(game, config, env={})
    assert "hunter2" not in str(caught.value)
    config.write_text('[smtp]\nsecurity = "ssl3"\n')
    with pytest.raises(UsageError, match="unknown SMTP security 'ssl3'"):
        mail.load_settings(game, config, env={})


def test_password_from_environment_or_command() -> None:
    assert mail.secret("PBEM_SMTP_PASSWORD", None, {"PBEM_SMTP_PASSWORD": "pw"}) == "pw"
    command = f"{sys.executable} -c \"print('from-command')\""
    assert mail.secret("PBEM_SMTP_PASSWORD", command, {}) == "from-command"
    failing = f"{sys.executable} -c \"print('leaked'); raise SystemExit(3)\""
    with pytest.raises(UsageError) as caught:
        mail.secret("PBEM_SMTP_PASSWORD", failing, {})
    assert "exit 3" in str(caught.value) and "leaked" not in str(caught.value)
    assert mail.secret("PBEM_SMTP_PASSWORD", None, {}) is None


def test_each_player_gets_their_own_report_in_text_and_html(game: Path) -> None:
    with smtp_server() as (sink, port):
        settings = settings_for(port)
        sent = queue.send_reports(game, transport.Smtp(settings), settings, NOW)
    assert len(sent) == 4 and len(sink.envelopes) == 4
    mover = acting(game)
    messages = by_reader(sink.messages)
    assert set(messages) == {"coeur", "medici", "marchionni", "public"}
    for reader, message in messages.items():
        assert message.get_content_type() == "multipart/alternative"
        assert [p.get_content_type() for p in message.iter_parts()] == \
            ["text/plain", "text/html"]
        # One subject per game and reader, whatever the seq (issue 15 point 11).
        whom = "public report" if reader == "public" else f"{reader.title()} ("
        assert message["Subject"].startswith("[lisbon] Pax Renaissance (2nd edition): ")
        assert whom in message["Subject"] and "seq" not in message["Subject"]
        assert message["From"] == f"Lisbon host <{HOST}>"
        assert message["Auto-Submitted"] == "auto-generated"
        text, page = body(message, "plain"), body(message, "html")
        assert "PAX RENAISSANCE - game lisbon" in text and "<h1>Pax Renaissance: lisbon</h1>" in page
        has_block = "-----BEGIN PBEM ORDERS-----" in text
        assert has_block == (reader == mover), reader
        assert ("It is your move" in text) == (reader == mover)
    envelope_to = {tuple(rcpt) for _, rcpt, _ in sink.envelopes}
    assert ("max@example.org",) in envelope_to and ("ada@example.org",) in envelope_to
    assert "Public report" in body(messages["public"], "plain")


def test_one_thread_per_game(game: Path) -> None:
    with smtp_server() as (sink, port):
        settings = settings_for(port)
        queue.send_reports(game, transport.Smtp(settings), settings, NOW)
        queue.send_reports(game, transport.Smtp(settings), settings, NOW, only=["medici"])
    first, second = by_reader(sink.messages[:4]), sink.messages[4]
    # Each reader's first message is their thread's root, and it was really sent.
    assert all(m["References"] is None and m["In-Reply-To"] is None for m in first.values())
    root = first["medici"]["Message-ID"]
    assert second["In-Reply-To"] == root and second["References"].split() == [root]
    assert second["Subject"] == first["medici"]["Subject"]
    ids = [m["Message-ID"] for m in sink.messages]
    assert len(set(ids)) == len(ids) and all(i.endswith("@example.org>") for i in ids)
    book = mail.Book.load(game)
    assert book.data["roots"]["medici"] == root
    assert book.data["sent"]["medici"] == second["Message-ID"]


def test_outbox_writes_eml_files_that_parse_back(game: Path, tmp_path: Path) -> None:
    settings = settings_for(1)
    lines = queue.send_reports(game, transport.Outbox(tmp_path / "out"), settings, NOW)
    files = sorted((tmp_path / "out").glob("*.eml"))
    assert len(lines) == len(files) == 4
    assert [f.name for f in files] == ["lisbon-0-report-coeur.eml", "lisbon-0-report-marchionni.eml",
                                       "lisbon-0-report-medici.eml", "lisbon-0-report-public.eml"]
    message = BytesParser(policy=policy.default).parsebytes(files[0].read_bytes())
    assert message["To"] == "ada <ada@example.org>"
    assert b"\r\n" in files[0].read_bytes()
    queue.send_reports(game, transport.Outbox(tmp_path / "out"), settings, NOW)
    assert (tmp_path / "out" / "lisbon-0-report-coeur-2.eml").exists()


def test_starttls_with_login_and_the_password_stays_secret(
        game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    context, cert = server_tls(tmp_path)
    with smtp_server(tls_context=context, require_starttls=True, authenticator=accept_ada,
                     auth_required=True) as (sink, port):
        settings = settings_for(port, security="starttls", user="ada", cafile=str(cert))
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "s3cret")
        assert len(queue.send_reports(game, transport.Smtp(settings), settings, NOW)) == 4
        monkeypatch.setenv("PBEM_SMTP_PASSWORD", "wrong")
        with pytest.raises(UsageError) as caught:
            queue.send_reports(game, transport.Smtp(settings), settings, NOW)
        assert "wrong" not in str(caught.value) and f"127.0.0.1:{port}" in str(caught.value)
    assert len(sink.envelopes) == 4
    for path in tmp_path.rglob("*"):
        if path.is_file() and path.suffix in (".yaml", ".json", ".eml", ".seed"):
            assert b"s3cret" not in path.read_bytes(), path


def test_implicit_tls(game: Path, tmp_path: Path) -> None:
    context, cert = server_tls(tmp_path)
    with smtp_server(ssl_context=context) as (sink, port):
        settings = settings_for(port, security="tls", cafile=str(cert))
        queue.send_reports(game, transport.Smtp(settings), settings, NOW, only=["moderator"])
    assert [m["X-Pbem-For"] for m in sink.messages] == ["public"]


def test_tls_refuses_an_untrusted_certificate(game: Path, tmp_path: Path) -> None:
    context, _ = server_tls(tmp_path)
    with smtp_server(tls_context=context, require_starttls=True) as (sink, port):
        settings = settings_for(port, security="starttls")
        with pytest.raises(UsageError, match="cannot send mail through 127.0.0.1"):
            queue.send_reports(game, transport.Smtp(settings), settings, NOW)
    assert sink.envelopes == []


def test_apply_mails_the_new_reports(game: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    block = tmp_path / "block.txt"
    block.write_text(block_for(game, first_move(game)))
    with smtp_server() as (sink, port):
        for name, value in (("PBEM_SMTP_HOST", "127.0.0.1"), ("PBEM_SMTP_PORT", str(port)),
                            ("PBEM_SMTP_SECURITY", "none"), ("PBEM_MAIL_FROM", HOST)):
            monkeypatch.setenv(name, value)
        result = runner.invoke(app, ["apply", str(game), str(block), "--mail"])
    assert result.exit_code == 0, result.stderr
    assert "sent report for public to Max <max@example.org>" in result.stdout
    assert {m["Subject"].split(":")[0] for m in sink.messages} == \
        {"[lisbon] Pax Renaissance (2nd edition)"}


def test_send_command_and_its_errors(game: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PBEM_SMTP_HOST", "PBEM_MAIL_FROM"):
        monkeypatch.delenv(name, raising=False)
    result = runner.invoke(app, ["send", str(game), "--outbox", str(tmp_path / "o")])
    assert result.exit_code == 2 and "no From address" in result.stderr
    monkeypatch.setenv("PBEM_MAIL_FROM", HOST)
    result = runner.invoke(app, ["send", str(game)])
    assert result.exit_code == 2 and "no SMTP host" in result.stderr
    result = runner.invoke(app, ["send", str(game), "--outbox", str(tmp_path / "o"),
                                 "--to", "Medici"])
    assert result.exit_code == 0 and result.stdout.startswith("wrote lisbon-0-report-medici.eml")
    result = runner.invoke(app, ["apply", str(game), "x.txt", "--dry-run", "--commit"])
    assert result.exit_code == 2 and "--dry-run writes nothing" in result.stderr


def test_every_delivery_command_has_help() -> None:
    for command in ("send", "inbox", "post", "remind", "timeout", "deadlines", "roster",
                    "replace-player"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout, command
