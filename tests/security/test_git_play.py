"""Git play a group can host safely (issue 21 §2): the example workflow runs trusted code from
the protected main branch, takes a pull request's files as data, refuses anything outside
orders/, verifies the game before applying, and installs a pinned pbem."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests import fast_yaml

WORKFLOW = (Path(__file__).resolve().parents[2] / "games" / "examples" / "git-play" / ".github"
            / "workflows" / "pbem.yml")


def steps() -> list[dict[str, object]]:
    data = fast_yaml.safe_load(WORKFLOW.read_text())
    return list(data["jobs"]["apply"]["steps"])


def test_the_workflow_runs_from_main_and_never_from_the_pull_request() -> None:
    data = fast_yaml.safe_load(WORKFLOW.read_text())
    triggers = data[True] if True in data else data["on"]  # YAML 1.1 reads `on` as true
    assert set(triggers) == {"pull_request_target"}
    checkout = steps()[0]
    assert checkout["uses"] == "actions/checkout@v4" and checkout["with"]["ref"] == "main"
    text = WORKFLOW.read_text()
    assert "github.event.pull_request.head.ref" not in text  # never checked out as code
    assert "pip install \"${{ vars.PBEM_PACKAGE }}\"" in text


def test_verify_comes_before_the_seed_and_the_apply() -> None:
    runs = [str(step.get("run", "")) for step in steps()]
    verify = next(i for i, run in enumerate(runs) if "pbem verify" in run)
    seed = next(i for i, run in enumerate(runs) if "PBEM_SEED" in run)
    applying = next(i for i, run in enumerate(runs) if "apply-orders.sh" in run)
    assert verify < seed < applying


@pytest.mark.parametrize(("changed", "refused"), [
    ("orders/5-medici.txt", False),
    ("orders/5-medici.txt\norders/6-coeur.asc", False),
    ("orders/5-medici.txt\nlisbon.yaml", True),
    ("apply-orders.sh", True),
    (".github/workflows/pbem.yml", True),
    ("orders/applied/5-medici.txt", True),
])
def test_the_path_check_refuses_anything_but_order_files(changed: str, refused: bool) -> None:
    text = WORKFLOW.read_text()
    pattern = text.split("grep -qv '", 1)[1].split("'", 1)[0]
    found = subprocess.run(["grep", "-qv", pattern], input=changed + "\n", text=True,
                           check=False)
    assert (found.returncode == 0) == refused
