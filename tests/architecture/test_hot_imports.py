"""Start-up (issue 17), continued: each hot command loads only the parts of a ruleset it uses,
and makes only the typed log's classes it builds (engine.core.records). Reading a
game's status loads none of the game's actions, its catalog or the adjudicator; no hot command
but `report` loads the views (or the card pages they use); a report for the player to move
loads no signature code. Checked on what a real process has loaded and made when it exits,
never on time."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from tests import fast_yaml

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "format1"
PROBE = ("import atexit, gc, json, sys\n"
         "out = sys.argv.pop()\n"
         "def dump():\n"
         "    entries = sys.modules.get('pbem.store.entries')\n"
         "    made = sorted(name for name, value in vars(entries).items() if isinstance(value, type)\n"
         "                  and '__dataclass_params__' in vars(value)) if entries else []\n"
         "    every = sorted(f'{name}.{key}' for name, module in list(sys.modules.items())\n"
         "                   if name.startswith(('pbem', 'engine'))\n"
         "                   and type(module).__name__ != '_LazyModule'\n"
         "                   for key, value in list(vars(module).items())\n"
         "                   if type(value) is type and value.__module__ == name\n"
         "                   and '__dataclass_params__' in vars(value))\n"
         "    modules = sorted(name for name, module in sys.modules.items()\n"
         "                     if type(module).__name__ != '_LazyModule')\n"  # never loaded
         "    open(out, 'w').write(json.dumps({'modules': modules, 'made': made,\n"
         "                                     'every': every, 'gc': running_gc,\n"
         "                                     'frozen': gc.get_freeze_count()}))\n"
         "atexit.register(dump)\n"
         "sys.argv = ['pbem', *sys.argv[1:]]\n"
         "from pbem.cli import fast, main\n"
         "running_gc, run = [], fast.run\n"
         "def watched(*args):\n"  # the collector's threshold while the command runs
         "    running_gc.extend(gc.get_threshold())\n"
         "    return run(*args)\n"
         "fast.run = watched\n"
         "main()\n")
PAGES = {"engine.pax.cards_view", "engine.aor.cards_view"}  # `pbem cards`, and views' words


def probe(tmp_path: Path, *args: str) -> tuple[set[str], list[str]]:
    """The modules a real `pbem ARGS` process loaded, and the log classes it made."""
    modules, made, _ = probe_all(tmp_path, *args)
    return modules, made


def probe_all(tmp_path: Path, *args: str) -> tuple[set[str], list[str], list[str]]:
    """The modules a real `pbem ARGS` process loaded, the log classes it made dataclasses, and
    every class of pbem and engine it made a dataclass (module.class)."""
    out = tmp_path / "probe.json"
    done = subprocess.run([sys.executable, "-c", PROBE, *args, str(out)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(out.read_text())
    assert found["gc"][0] >= 10_000  # a hot command collects cycles seldom (pbem.cli.main)
    # and its objects are frozen at exit, before the interpreter's last collection would walk
    # them (the probe's own exit hook, registered first, runs after pbem's)
    assert found["frozen"] > 10_000
    return set(found["modules"]), found["made"], found["every"]


def actions(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.startswith("engine.pax.actions")
                  or m == "engine.pax.ruleset_actions")


@pytest.fixture(params=["pax-open", "pax-moderated"])
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    for source in FIXTURES.iterdir():
        if source.name.startswith(request.param):
            shutil.copy(source, tmp_path / source.name)
    return tmp_path / f"{request.param}.yaml"


def test_status_loads_no_action_and_makes_no_log_class(tmp_path: Path, game: Path) -> None:
    modules, made = probe(tmp_path, "status", str(game))
    assert "engine.pax.ruleset" in modules  # it did open the game
    assert actions(modules) == []
    assert not modules & (PAGES | {"engine.pax.view", "engine.pax.invariants",
                                   "engine.pax.lines_said", "engine.pax.notation",
                                   "engine.pax.catalog", "engine.core.adjudicate",
                                   "zoneinfo",  # no seat of these games has a time zone
                                   "tempfile"})  # it writes nothing
    assert made == []


def test_an_age_of_renaissance_status_loads_none_of_its_rules(tmp_path: Path) -> None:
    for source in FIXTURES.iterdir():
        if source.name.startswith("aor-moderated"):
            shutil.copy(source, tmp_path / source.name)
    modules, made = probe(tmp_path, "status", str(tmp_path / "aor-moderated.yaml"))
    assert "engine.aor.ruleset" in modules  # it did open the game
    assert sorted(m for m in modules if m.startswith("engine.aor.")) == [
        "engine.aor.lines_said", "engine.aor.messages", "engine.aor.reasons",
        "engine.aor.ruleset"]  # the words it may say; no action, catalog, view or card
    assert made == []


def test_options_loads_the_actions_but_no_view_and_makes_no_log_class(tmp_path: Path,
                                                                     game: Path) -> None:
    modules, made = probe(tmp_path, "options", str(game))
    assert "engine.pax.ruleset_actions" in modules  # the legal lines come from the actions
    assert not modules & (PAGES | {"engine.pax.view", "engine.pax.invariants", "tempfile",
                                   "gettext"})  # it writes nothing and says no words
    assert made == []


def test_a_report_for_the_player_to_move_loads_no_signature_code(tmp_path: Path,
                                                                 game: Path) -> None:
    to_move = json.loads(subprocess.run(
        [sys.executable, "-m", "pbem", "status", str(game), "--json"], capture_output=True,
        text=True, check=True).stdout)["waiting_for"][0]
    modules, _ = probe(tmp_path, "report", str(game), "--for", to_move)
    assert "jinja2" in modules and "engine.pax.ruleset_actions" in modules  # it drew the menu
    signatures = {"pbem.orders.orderblock", "pbem.orders.signatures", "cryptography", "nacl",
                  "pbem.orders.base64parts", "html"}  # nor a mail's decoding
    assert not modules & signatures, sorted(modules & signatures)


def test_apply_makes_only_the_log_classes_it_builds(tmp_path: Path) -> None:
    runner = CliRunner()
    for name in ("ada", "ben"):
        keygen = runner.invoke(app, ["keygen", name, "--email", f"{name}@example.org",
                                     "--dir", str(tmp_path)])
        assert keygen.exit_code == 0, keygen.output
    game = tmp_path / "g.yaml"
    made_game = runner.invoke(app, ["new", str(game), "--player", str(tmp_path / "ada.pub"),
                                    "--player", str(tmp_path / "ben.pub"), "--seed", "hot"])
    assert made_game.exit_code == 0, made_game.output
    data = fast_yaml.safe_load(game.read_text())
    to_move = data["agenda"][0]["player"]
    name = next(p["name"] for p in data["roster"]["players"] if p["id"] == to_move)
    orders = tmp_path / "orders.txt"
    orders.write_text("buy west 1\nend\n")
    signed = runner.invoke(app, ["sign", str(orders), "--key", str(tmp_path / f"{name}.key"),
                                 "--game", str(game)])
    assert signed.exit_code == 0, signed.output
    block = tmp_path / "block.txt"
    block.write_text(signed.stdout)
    modules, made, every = probe_all(tmp_path, "apply", str(game), str(block))
    # it checked the signature (libsodium) and made no key: cryptography stays unloaded
    assert "engine.pax.ruleset_actions" in modules and "nacl.bindings" in modules
    assert "cryptography" not in modules
    assert not modules & (PAGES | {"engine.pax.view", "engine.pax.lines_said", "html",
                                   "pbem.pipeline.life_apply", "pbem.pipeline.handover",
                                   "pbem.views.report"})  # it renders no report
    # each decision's and op family's module loads when the game reaches it (engine.core.registry)
    assert not modules & {"engine.pax.actions.oneshots", "engine.pax.battle",
                          "engine.pax.actions.ops.borrow", "engine.pax.explain"}
    assert "tempfile" not in modules  # its temporary file is made by pbem.store.files
    # It builds the entry it follows and its own, the catalog, the block, the choices and the
    # tables, but compares, hashes and prints none of them: none is made a dataclass.
    assert made == []
    assert every == []  # the store's GameFile and Projection included
    after = game.read_text()
    assert "kind: orders" in after and "buy" in after  # and it did apply the block


def test_a_hot_command_run_in_process_leaves_the_collector_as_it_was(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pbem.cli.main raises the cyclic collector's threshold for its own run only: a test or a
    script that calls it keeps its own collector settings."""
    import gc

    from pbem.cli import main

    before = gc.get_threshold()
    monkeypatch.setattr(sys, "argv", ["pbem", "status", str(game)])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 0
    assert gc.get_threshold() == before and gc.isenabled()
    assert gc.get_freeze_count() == 0  # frozen only at the caller's own exit
