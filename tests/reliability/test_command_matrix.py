"""The failing-command matrix (issue 20 §2 and §6): at least one failing invocation of EVERY
subcommand, each run in a game's folder. Each must exit with its documented code (never 0,
never 70), say one line on stderr, and leave every file in the folder byte-identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import app
from tests.reliability.kit import copy_game, next_block, ok, pbem, snapshot

MAIL = ["--mail-config", "{d}/mail.toml"]  # a From address, so the other checks are reached
# (name, arguments with {g} the game and {d} its folder, exit code, words of the error)
CASES: list[tuple[str, list[str], int, str]] = [
    ("map-unknown-player", ["map", "{g}", "--for", "nobody"], 2, "nobody"),
    ("map-missing-game", ["map", "{d}/missing.yaml"], 2, "missing.yaml"),
    ("map-no-folder", ["map", "{g}", "--out", "{d}/nodir/x.svg"], 2, "x.svg"),
    ("cards-unknown-ruleset", ["cards", "--ruleset", "chess"], 2, "chess"),
    ("send-unknown-reader", ["send", "{g}", "--to", "nobody", "--outbox", "{d}/o",
                             "--mail-config", "{d}/mail.toml"], 2, "unknown reader"),
    ("send-no-from", ["send", "{g}", "--outbox", "{d}/o"], 2, "no From address"),
    ("inbox-not-a-maildir", ["inbox", "{g}", *MAIL, "--maildir", "{d}"], 2, "is not a Maildir"),
    ("inbox-two-sources", ["inbox", "{g}", *MAIL, "--maildir", "{d}", "--mbox", "{d}/m"], 2,
     "choose one"),
    ("inbox-no-source", ["inbox", "{g}", *MAIL], 2, "say where the mail is"),
    ("inbox-not-imap", ["inbox", "{g}", *MAIL, "--imap", "ftp://x/y"], 2, "not an imap"),
    ("inbox-no-from", ["inbox", "{g}", "--maildir", "{d}/Maildir"], 2, "no From address"),
    ("inbox-missing-mbox", ["inbox", "{g}", *MAIL, "--mbox", "{d}/none.mbox"], 2, "no mbox file"),
    ("post-unknown-format", ["post", "{g}", "--format", "latex"], 2, "unknown format"),
    ("post-no-folder", ["post", "{g}", "--out", "{d}/nodir/x"], 74, "cannot write"),
    ("remind-bad-now", ["remind", "{g}", "--now", "yesterday"], 2, "is not a time"),
    ("remind-missing-config", ["remind", "{g}", "--mail-config", "{d}/none.toml"], 2,
     "cannot read mail settings"),
    ("timeout-unknown-player", ["timeout", "{g}", "--force", "--player", "nobody"], 2,
     "unknown player"),
    ("timeout-missing-secrets", ["timeout", "{d}/g.yaml", "--force"], 2, "secrets file"),
    ("timeout-bad-now", ["timeout", "{g}", "--now", "9999-12-31T23:00:00Z"], 2,
     "is not a time"),
    ("timeout-mail-no-from", ["timeout", "{g}", "--force", "--mail"], 2, "no From address"),
    ("timeout-missing-config", ["timeout", "{g}", "--force", "--mail", "--mail-config",
                                "{d}/none.toml"], 2, "cannot read mail settings"),
    ("deadlines-bad-duration", ["deadlines", "{g}", "--set", "default=soon"], 2, "soon"),
    ("deadlines-unknown-player", ["deadlines", "{g}", "--set", "default=72h", "--for", "x"], 2,
     "unknown player"),
    ("deadlines-bad-nmr", ["deadlines", "{g}", "--nmr", "panic"], 2, "panic"),
    ("deadlines-overflow", ["deadlines", "{g}", "--set", "default=72h", "--now",
                            "0001-01-01T00:00:00+14:00"], 2, "is not a time"),
    ("roster-bad-zone", ["roster", "{g}", "--timezone", "coeur=Europe/Lisbon", "--timezone",
                         "medici=Mars/Olympus"], 2, "unknown timezone"),
    ("roster-zone-folder", ["roster", "{g}", "--timezone", "coeur=America/Argentina"], 2,
     "unknown timezone"),
    ("roster-bad-digest", ["roster", "{g}", "--digest", "coeur=weekly"], 2, "weekly"),
    ("digest-no-from", ["digest", "{g}", "--outbox", "{d}/o"], 2, "no From address"),
    ("digest-bad-now", ["digest", "{g}", "--now", "noon", "--outbox", "{d}/o",
                        "--mail-config", "{d}/mail.toml"], 2, "is not a time"),
    ("replace-bad-email", ["replace-player", "{g}", "coeur", "--key", "{d}/max.key", "--email",
                           "not an address"], 2, "is not one e-mail address"),
    ("replace-unknown-player", ["replace-player", "{g}", "nobody", "--key", "{d}/max.key",
                                "--email", "eve@example.org"], 3, "nobody"),
    ("replace-missing-key", ["replace-player", "{g}", "coeur", "--key", "{d}/none.key",
                             "--email", "eve@example.org"], 2, "none.key"),
    ("keygen-exists", ["keygen", "ada", "--dir", "{d}"], 2, "ada.key"),
    ("keygen-no-folder", ["keygen", "zed", "--dir", "{d}/nodir"], 2, "zed"),
    ("new-exists", ["new", "{g}", "--player", "{d}/ada.pub", "--player", "{d}/ben.pub"], 2,
     "exists"),
    ("new-missing-key", ["new", "{d}/h.yaml", "--player", "{d}/none.pub", "--player",
                         "{d}/ben.pub"], 2, "none.pub"),
    ("new-unknown-ruleset", ["new", "{d}/h.yaml", "--player", "{d}/ada.pub", "--player",
                             "{d}/ben.pub", "--ruleset", "chess"], 2, "chess"),
    ("new-bad-option", ["new", "{d}/h.yaml", "--player", "{d}/ada.pub", "--player",
                        "{d}/ben.pub", "--player", "{d}/cy.pub", "--ruleset", "aor",
                        "--option", "end=never"], 2, "never"),
    ("sign-missing-key", ["sign", "{d}/ada.pub", "--key", "{d}/none.key"], 2, "none.key"),
    ("sign-illegal-line", ["sign", "{d}/bad.orders", "--key", "{d}/cy.key", "--game", "{g}"],
     1, "fly to the moon"),
    ("payload-no-block", ["payload", "{d}/ada.pub"], 2, "found 0"),
    ("apply-no-block", ["apply", "{g}", "{d}/ada.pub"], 3, "no order block"),
    ("apply-stale", ["apply", "{g}", "{d}/first.block"], 4, "already applied"),
    ("apply-missing-secrets", ["apply", "{d}/g.yaml", "{d}/first.block"], 2, "secrets file"),
    ("options-unknown-player", ["options", "{g}", "--for", "nobody"], 2, "nobody"),
    ("report-unknown-format", ["report", "{g}", "--format", "latex"], 2, "unknown format"),
    ("report-unknown-player", ["report", "{g}", "--for", "nobody"], 2, "nobody"),
    ("status-missing-game", ["status", "{d}/missing.yaml"], 2, "missing.yaml"),
    ("status-bad-now", ["status", "{g}", "--now", "soon"], 2, "is not a time"),
    ("verify-missing-secrets", ["verify", "{g}", "--secrets", "{d}/none.seed"], 2,
     "no seed or secrets file"),
    ("verify-bad-expect", ["verify", "{g}", "--expect", "banana"], 2, "banana"),
    ("verify-tampered", ["verify", "{d}/tampered.yaml"], 5, "does not match"),
    ("reveal-not-over", ["reveal", "{g}"], 2, "not over"),
    ("log-unknown-player", ["log", "{g}", "--for", "nobody"], 2, "nobody"),
    ("history-missing-game", ["history", "{d}/missing.yaml", "-o", "{d}/site"], 2,
     "missing.yaml"),
    ("scenario-bad-file", ["scenario", "{d}/bad.scenario.yaml"], 2, "BAD"),
    ("bot-wrong-key", ["bot", "{g}", "--seat", "coeur", "--key", "{d}/ben.key", "--apply"], 2,
     "is not coeur's key"),
    ("bot-unknown-policy", ["bot", "{g}", "--seat", "coeur", "--key", "{d}/ada.key", "--policy",
                            "clever", "--apply"], 2, "unknown policy"),
    ("deadlines-bad-absence", ["deadlines", "{g}", "--absence", "soon"], 2, "soon"),
    ("fork-exists", ["fork", "{g}", "--out", "{g}", "--for", "coeur"], 2, "already exists"),
    ("fork-unknown-player", ["fork", "{g}", "--out", "{d}/w.yaml", "--for", "nobody"], 2,
     "nobody"),
    ("selfplay-bad-players", ["selfplay", "--players", "9", "--games", "1", "--out",
                              "{d}/sp"], 2, "players"),
]


def test_the_matrix_covers_every_subcommand() -> None:
    names = {command.name or command.callback.__name__  # type: ignore[union-attr]
             for command in app.registered_commands}
    covered = {args[0] for _, args, _, _ in CASES}
    assert names - covered == set(), f"no failing case for {sorted(names - covered)}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Pax game after one block, an AoR game beside it without its secrets file, and the
    files the cases read."""
    d = tmp_path_factory.mktemp("matrix")
    game = copy_game("pax", d)
    first = next_block(game, "first")
    ok("apply", str(game), str(first))
    aor = copy_game("aor", d / "aor")
    (d / "g.yaml").write_bytes(aor.read_bytes())  # its secrets stay behind in aor/
    for sub in ("new", "cur", "tmp"):
        (d / "Maildir" / sub).mkdir(parents=True)
    (d / "Maildir" / "new" / "1.mail").write_text("From: cy@example.org\n\n" +
                                                  first.read_text())
    (d / "mail.toml").write_text('[mail]\nfrom = "host@example.org"\n')
    (d / "bad.orders").write_text("fly to the moon\n")
    (d / "bad.scenario.yaml").write_text("ruleset: pax\nplayers: 0\nsteps: 7\n")
    text = game.read_text()
    (d / "tampered.yaml").write_text(text.replace("seq: 1", "seq: 2", 1))
    return d


@pytest.mark.parametrize("name,args,code,words", CASES, ids=[c[0] for c in CASES])
def test_a_failing_command_changes_nothing(folder: Path, name: str, args: list[str],
                                           code: int, words: str) -> None:
    game = folder / "lisbon.yaml"
    filled = [a.replace("{g}", str(game)).replace("{d}", str(folder)) for a in args]
    before = snapshot(folder)
    result = pbem(*filled, env={"PBEM_MAIL_FROM": ""})
    assert result.exit_code == code, (name, result.exit_code, result.stdout, result.stderr)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert words.lower() in (result.stderr + result.stdout).lower(), (name, result.stderr)
    assert len(errors) <= 1, (name, result.stderr)
    assert snapshot(folder) == before, f"{name} wrote before failing"
