"""Start-up (issue 17): a command loads only what it uses. Reading a game (`status`,
`options`) never loads cryptography, the block parser or jinja2, and `pbem --help` loads no
YAML and none of a game's modules. Checked on the modules a real process has loaded when it
exits, not on time."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "format1" / "pax-open.yaml"
PROBE = ("import atexit, json, sys\n"
         "out = sys.argv.pop()\n"
         "atexit.register(lambda: open(out, 'w').write(json.dumps(sorted(\n"
         "    name for name, module in sys.modules.items()\n"
         "    if type(module).__name__ != '_LazyModule'))))\n"  # pbem.lazy's, never loaded
         "sys.argv = ['pbem', *sys.argv[1:]]\n"
         "from pbem.cli import main\n"
         "main()\n")
NEVER_FOR_READING = ("cryptography.hazmat.bindings._rust", "pbem.orders.blockfinder",
                     "pbem.orders.orderblock", "jinja2", "pbem.views.model")


def loaded(tmp_path: Path, *args: str) -> set[str]:
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", PROBE, *args, str(out)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text()))


@pytest.mark.parametrize("command", ["status", "options"])
def test_reading_a_game_loads_no_signatures_block_parser_or_templates(tmp_path: Path,
                                                                      command: str) -> None:
    game = tmp_path / "game.yaml"
    shutil.copy(FIXTURE, game)
    modules = loaded(tmp_path, command, str(game))
    assert "yaml" in modules and "pbem.pipeline.game" in modules  # it did read the game
    assert not modules & set(NEVER_FOR_READING), sorted(modules & set(NEVER_FOR_READING))


def test_help_loads_no_yaml_and_no_game(tmp_path: Path) -> None:
    modules = loaded(tmp_path, "--help")
    assert "typer" in modules
    assert not modules & {"yaml", "pbem.store.gamefile", "pbem.pipeline.game", "jinja2"}
