"""Headless Chromium for the board and page tests: a fresh profile per run, no network, every
console message caught, a probe that measures the SVG's text in the browser's own layout."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
_CONSOLE = re.compile(r":CONSOLE[:(]\d*\)?\] (.*)")
_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")

# Measures every <text> of the first <svg> against the first rect of its nearest group and the
# canvas, and every pair of texts that are not parts of one token; writes what it finds into
# the page.
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
document.getElementById('probe-out').textContent = 'FOUND' + JSON.stringify(out) + 'END';
</script>"""


def run(*args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """Chromium with a new empty profile (so no state leaks between runs)."""
    assert CHROMIUM is not None
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout, check=False)


def open_page(page: Path) -> tuple[str, list[str]]:
    """The DOM as the browser built it, and every console message the page caused."""
    done = run("--enable-logging=stderr", "--v=0", "--dump-dom", page.resolve().as_uri())
    return done.stdout, [m.group(1) for m in _CONSOLE.finditer(done.stderr)]


def _probed(page_text: str, path: Path) -> tuple[str, list[str], list[str]]:
    """The page with the probe added, written to `path` and opened: (the DOM, what the probe
    finds in the page's first SVG, the console messages)."""
    body = re.sub(r"^<\?xml[^>]*>\n", "", page_text)
    probe = f'<pre id="probe-out"></pre>{PROBE}'
    body = body.replace("</body>", probe + "</body>") if "</body>" in body else \
        f'<html><body style="margin:0">{body}{probe}</body></html>'
    path.write_text(body, encoding="utf-8")
    dom, console = open_page(path)
    found = re.search(r"FOUND(.*)END", dom)
    assert found, f"the probe did not run: {console}"
    problems: list[str] = json.loads(html.unescape(found.group(1)))
    return dom, problems, console


def layout_problems(page_text: str, folder: Path) -> tuple[list[str], list[str]]:
    """What the probe finds in the page's (first) SVG, and the console messages of the page."""
    _, problems, console = _probed(page_text, folder / "probe.html")
    return problems, console


def open_probed(page: Path) -> tuple[str, list[str], list[str]]:
    """One browser run for a page's DOM, console and layout: the page with the probe added,
    opened from the page's own folder (so its links resolve as the page's do): (the DOM, what
    the probe finds in its first SVG, the console messages)."""
    return _probed(page.read_text(encoding="utf-8"), page.with_name(f"{page.stem}.probe.html"))


def printed_pages(page: Path, folder: Path) -> int:
    """How many A4 pages the page prints to (its own @page size), counted in the PDF."""
    pdf = folder / (page.stem + ".pdf")
    run("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.resolve().as_uri())
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF"), "no PDF was printed"
    return len(_PAGE.findall(data))


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 2400) -> None:
    run(f"--screenshot={png}", f"--window-size={width},{height}", "--hide-scrollbars",
        page.resolve().as_uri())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "no screenshot"
