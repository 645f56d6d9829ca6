"""A wheel built from the checkout ships templates/ and games/ and plays from any directory."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("src")
    # Build from a copy so the checkout's own build/ stays clean.
    for name in ("pyproject.toml", "README.md", "pbem", "engine", "templates", "games"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, build / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, build / name)
    # The test extras install the build backend (hatchling): pip builds with it as installed,
    # instead of installing it into a fresh environment first (most of this fixture's time).
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-q",
                           "-w", str(out), str(build)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot build a wheel here (no build backend reachable): {done.stderr[-300:]}")
    return next(out.glob("pbem-*.whl"))


def test_wheel_contains_data(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "pbem/_data/games/pax/cards.yaml" in names
    assert "pbem/_data/templates/pax/report.text.j2" in names
    assert "engine/pax/ruleset.py" in names
    assert "pbem/locale/hu/LC_MESSAGES/pbem.mo" in names  # translations need no build step


def test_installed_wheel_plays_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target",
                    str(target), str(wheel)], check=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}

    def pbem(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=work, env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    pbem("keygen", "ada")
    pbem("keygen", "ben")
    pbem("new", "g.yaml", "--player", "ada.pub", "--player", "ben.pub", "--open", "--seed", "w")
    assert "Nyilvános jelentés" in pbem("report", "g.yaml", "--lang", "hu")
    first = json.loads(pbem("status", "g.yaml", "--json"))["waiting_for"][0]
    report = pbem("report", "g.yaml", "--for", first)
    assert "BEGIN PBEM ORDERS" in report
    import_check = subprocess.run(
        [sys.executable, "-c", "import pbem.resources as r; print(r.games_dir())"],
        cwd=work, env=env, capture_output=True, text=True)
    assert str(target) in import_check.stdout
