"""The pictures as a browser lays them out (headless Chromium, when installed): no text leaves
its box or the canvas, no two labels overlap, and a screenshot is taken."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pbem.views.board import draw
from tests.board.games import played

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")

# Measures every <text> against the first rect of its nearest group and the canvas, and every
# pair of texts that are not parts of one token; writes what it finds into the page.
PROBE = """<script>
const out = [], svg = document.querySelector('svg');
const W = +svg.getAttribute('width'), H = +svg.getAttribute('height');
const texts = [...svg.querySelectorAll('text')];
const box = e => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
for (const t of texts) {
  const b = box(t);
  if (b[0] < 0 || b[1] < 0 || b[2] > W || b[3] > H) out.push('off the canvas: ' + t.textContent);
  for (let g = t.parentElement; g && g.tagName !== 'svg'; g = g.parentElement) {
    const r = [...g.children].find(c => c.tagName === 'rect');
    if (!r) continue;
    const rb = box(r);
    if (b[0] < rb[0] - 1 || b[2] > rb[2] + 1 || b[1] < rb[1] - 1 || b[3] > rb[3] + 1)
      out.push('out of its box: ' + t.textContent);
    break;
  }
}
for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
  const a = box(texts[i]), b = box(texts[j]);
  const ox = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), oy = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (ox > 1 && oy > 2) out.push('overlap: ' + texts[i].textContent + ' / ' + texts[j].textContent);
}
document.getElementById('out').textContent = 'FOUND' + JSON.stringify(out) + 'END';
</script>"""


def _layout_problems(svg: str, folder: Path) -> list[str]:
    body = re.sub(r"^<\?xml[^>]*>\n", "", svg)
    page = folder / "probe.html"
    page.write_text(f'<html><body style="margin:0">{body}<pre id="out"></pre>{PROBE}</body></html>',
                    encoding="utf-8")
    assert CHROMIUM is not None
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", str(page)],
                         capture_output=True, text=True, timeout=120, check=False).stdout
    found = re.search(r"FOUND(.*)END", dom)
    assert found, "the probe did not run"
    problems: list[str] = json.loads(html.unescape(found.group(1)))
    return problems


CASES = [("pax", 4, 120, {"map": "default"}), ("pax", 4, 120, {"map": "1550"}),
         ("pax", 4, 120, {"map": "age_of_reformation"}), ("aor", 3, 150, {"end": "epoch1"}),
         ("aor", 6, 150, {"end": "epoch1"})]


@pytest.mark.parametrize(("ruleset", "players", "steps", "options"), CASES)
def test_no_text_leaves_its_box_and_a_screenshot_is_taken(
        ruleset: str, players: int, steps: int, options: dict[str, str], tmp_path: Path) -> None:
    game = played(ruleset, players, steps, seed=f"browser-{ruleset}", **options)
    svg = draw(game, game.gf.player_ids()[0])
    assert _layout_problems(svg, tmp_path) == []
    (tmp_path / "board.svg").write_text(svg, encoding="utf-8")
    assert CHROMIUM is not None
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--screenshot={tmp_path / 'board.png'}", "--window-size=1400,1010",
                    str(tmp_path / "board.svg")], capture_output=True, timeout=120, check=False)
    assert (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_probe_finds_text_out_of_its_box(tmp_path: Path) -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><g><title>t</title>'
           '<rect x="0" y="0" width="40" height="20"><title>r</title></rect>'
           '<text x="2" y="14" font-size="12">far too long for the box</text></g></svg>')
    assert _layout_problems(svg, tmp_path) == ["out of its box: far too long for the box"]
