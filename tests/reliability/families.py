"""The input families of the fuzz (issue 20 §6): order lines, armored blocks, mail messages,
game files, scenario files and CLI arguments. Each family turns a `random.Random` into one
case (arguments, standard input, files); an Arena runs it through the CLI in-process in a
game's folder, restored before each case. The promise checked: no exit 70, no traceback, and
a run that fails leaves every file as it was. The hypothesis tests (test_fuzz_families.py)
and `make fuzz` (tools/fuzz.py) share these."""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from pbem.orders.signing import sign_orders
from tests import fast_yaml
from tests.pbem.test_mail_helpers import make_maildir, plain
from tests.reliability import mutate
from tests.reliability.kit import copy_game, invoke, key_of, next_block, ok, snapshot, status

ENV = {"PBEM_MAIL_FROM": "host@example.org", "PBEM_SMTP_HOST": "127.0.0.1",
       "PBEM_SMTP_PORT": "1", "PBEM_SMTP_SECURITY": "none", "PBEM_IMAP_PASSWORD": "x"}
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@dataclass
class Case:
    family: str
    argv: list[str]  # "{g}" is the game file, "{d}" its folder
    stdin: bytes | None = None
    files: dict[str, bytes] = field(default_factory=dict)  # written before the run


@dataclass
class Outcome:
    case: Case
    code: int
    seconds: float  # CPU time of the run (the machine may be shared)
    changed: bool
    output: str

    @property
    def ok(self) -> bool:
        """Not a crash, and a failure changed nothing (speed is the fuzz run's own check)."""
        return self.code != 70 and "Traceback" not in self.output and \
            (self.code == 0 or not self.changed)

    def describe(self) -> str:
        shown = repr(self.case.stdin[:300]) if self.case.stdin else ""
        return (f"{self.case.family}: pbem {' '.join(self.case.argv)} -> exit {self.code} in "
                f"{self.seconds:.2f}s{' (changed files)' if self.changed else ''} {shown} "
                f"{list(self.case.files)}\n{self.output[-600:]}")


class Arena:
    """A moderated Pax game in `folder`, with what the families draw on."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.game = copy_game("pax", folder)
        self.player = str(status(self.game)["waiting_for"][0])  # type: ignore[index]
        self.key = key_of(self.game, self.player)
        self.block = next_block(self.game).read_text()
        self.lines = [str(x) for x in
                      __import__("json").loads(ok("options", str(self.game), "--json"))["lines"]]
        self.game_text = self.game.read_text()
        make_maildir(folder / "Maildir")
        (folder / "pbem.toml").write_text('[mail]\nfrom = "host@example.org"\n')
        self.scenarios = [p.read_text() for p in sorted(SCENARIOS.rglob("*.yaml"))[::60]]
        self.pristine = snapshot(folder)
        self.folders = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_dir()}

    def restore(self) -> None:
        for path in sorted(self.folder.rglob("*"), reverse=True):
            name = str(path.relative_to(self.folder))
            if path.is_dir():
                if name not in self.folders:
                    shutil.rmtree(path, ignore_errors=True)
            elif name not in self.pristine and not name.endswith(".lock"):
                path.unlink()
        for name, data in self.pristine.items():
            path = self.folder / name
            if not path.is_file() or path.read_bytes() != data:
                path.write_bytes(data)

    def run(self, case: Case) -> Outcome:
        self.restore()
        for name, data in case.files.items():
            (self.folder / name).write_bytes(data)
        argv = [a.replace("{g}", str(self.game)).replace("{d}", str(self.folder))
                for a in case.argv]
        before = snapshot(self.folder)
        here = os.getcwd()
        os.chdir(self.folder)  # keygen and friends write to "." by default
        start = time.process_time()
        try:
            result = invoke(argv, case.stdin, ENV)
        finally:
            os.chdir(here)
        seconds = time.process_time() - start
        output = result.output + (result.stderr if result.stderr_bytes else "")
        code = result.exit_code
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            code, output = 70, f"{output}\nuncaught {result.exception!r}"
        return Outcome(case, code, seconds, snapshot(self.folder) != before, output)


# --- the families ---------------------------------------------------------------------------


def order_lines(rng: random.Random, arena: Arena) -> Case:
    lines = [mutate.line(rng, rng.choice(arena.lines)) for _ in range(rng.randint(1, 4))]
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.3:  # sign --game checks the lines first, and writes nothing
        return Case("order lines", ["sign", "{d}/x.orders", "--key", str(arena.key),
                                    "--game", "{g}"],
                    files={"x.orders": text.encode("utf-8", "surrogateescape")})
    try:
        block = sign_orders(text, arena.key, arena.game)
    except Exception:  # noqa: BLE001 - a text the signer refuses: apply the text as it is
        block = text
    return Case("order lines", ["apply", "{g}", "-"], block.encode("utf-8", "replace"))


def armored_blocks(rng: random.Random, arena: Arena) -> Case:
    data = mutate.text(rng, arena.block).encode("utf-8", "surrogateescape")
    command = rng.choice((["apply", "{g}", "-"], ["apply", "{g}", "-", "--dry-run"],
                         ["payload", "-"], ["sign", "-", "--key", str(arena.key)]))
    return Case("armored blocks", command, data)


def mail_messages(rng: random.Random, arena: Arena) -> Case:
    body = arena.block if rng.random() < 0.3 else mutate.text(rng, arena.block)
    # a mail's text is characters; mutate.mail puts the undecodable bytes into the message
    body = body.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    raw = mutate.mail(rng, plain(body, "cy@example.org"))
    return Case("mail messages", ["inbox", "{g}", "--maildir", "{d}/Maildir", "--outbox",
                                  "{d}/out"], files={"Maildir/new/1.fuzz": raw})


GAME_COMMANDS = (["verify", "{d}/m.yaml"], ["status", "{d}/m.yaml", "--json"],
                 ["options", "{d}/m.yaml"], ["report", "{d}/m.yaml"], ["post", "{d}/m.yaml"],
                 ["apply", "{d}/m.yaml", "{d}/block.txt"], ["roster", "{d}/m.yaml"],
                 ["deadlines", "{d}/m.yaml", "--set", "default=72h"],
                 ["timeout", "{d}/m.yaml", "--force"], ["map", "{d}/m.yaml"])


def game_files(rng: random.Random, arena: Arena) -> Case:
    text = mutate.yaml_text(rng, arena.game_text)
    return Case("game files", list(rng.choice(GAME_COMMANDS)),
                files={"m.yaml": text.encode("utf-8", "surrogateescape"),
                       "block.txt": arena.block.replace("game: lisbon", "game: m").encode()})


def scenario_files(rng: random.Random, arena: Arena) -> Case:
    source = fast_yaml.safe_load(rng.choice(arena.scenarios))
    changed = mutate.structure(rng, source)
    text = yaml.safe_dump(changed, allow_unicode=True) if rng.random() < 0.9 else \
        mutate.text(rng, yaml.safe_dump(source))
    files = {"s1.yaml": text.encode("utf-8", "surrogateescape")}
    argv = ["scenario", "{d}/s1.yaml"]
    if rng.random() < 0.3:  # a bad file never stops the batch
        files["s2.yaml"] = rng.choice(arena.scenarios).encode()
        argv.append("{d}/s2.yaml")
    return Case("scenario files", argv, files=files)


def cli_arguments(rng: random.Random, arena: Arena) -> Case:
    return Case("cli arguments", mutate.argv(rng, str(arena.key)))


FAMILIES: dict[str, Callable[[random.Random, Arena], Case]] = {
    "order lines": order_lines, "armored blocks": armored_blocks,
    "mail messages": mail_messages, "game files": game_files,
    "scenario files": scenario_files, "cli arguments": cli_arguments,
}
