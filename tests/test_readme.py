"""The README's shell blocks run as written, in order, in one fresh folder (issue 15).

A block that cannot run here says so on the line before its fence, in a comment the reader of
the rendered README does not see and this test reads:

    <!-- readme-test: skip: REASON -->

Every other ```sh block runs with `bash -e`, `pbem` on the PATH, in a fresh temporary folder
(HOME too), after the blocks before it: a reader following the README top to bottom.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
FENCE = re.compile(r"(?:<!-- readme-test: skip: (?P<reason>[^>]+?) -->\n)?```sh\n(?P<body>.*?)```",
                   re.DOTALL)


def blocks() -> list[tuple[int, str, str | None]]:
    text = README.read_text(encoding="utf-8")
    return [(text[:m.start("body")].count("\n") + 1, m.group("body"), m.group("reason"))
            for m in FENCE.finditer(text)]


def test_every_skipped_block_says_why() -> None:
    found = blocks()
    assert len(found) >= 10
    for line, _, reason in found:
        assert reason is None or len(reason.split()) >= 3, f"README line {line}: say why"


def test_the_readme_commands_run_as_written(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    ran = 0
    for line, body, reason in blocks():
        if reason is not None:
            continue
        result = subprocess.run(["bash", "-e", "-c", body], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=600, check=False)
        assert result.returncode == 0, f"README line {line}:\n{body}\n{result.stderr}"
        ran += 1
    assert ran >= 5
