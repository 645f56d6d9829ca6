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


def _shots(pdf: Path | None, png: Path | None, size: tuple[int, int]) -> list[str]:
    """The flags that print the page to `pdf` and take its screenshot into `png` in the same
    browser run as the DOM dump (headless Chromium does all three after the page loads; a
    launch costs about 0.6 CPU s and 2 s of wall, so a page is opened once)."""
    flags = [] if pdf is None else ["--no-pdf-header-footer", f"--print-to-pdf={pdf}"]
    if png is not None:
        flags += [f"--screenshot={png}", f"--window-size={size[0]},{size[1]}",
                  "--hide-scrollbars"]
    return flags


def _check_shots(pdf: Path | None, png: Path | None) -> None:
    if pdf is not None:
        assert pdf.read_bytes().startswith(b"%PDF"), "no PDF was printed"
    if png is not None:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "no screenshot"


def open_page(page: Path, pdf: Path | None = None, png: Path | None = None,
              size: tuple[int, int] = (1280, 2400)) -> tuple[str, list[str]]:
    """The DOM as the browser built it, and every console message the page caused; in the
    same run, the page printed to `pdf` and its screenshot taken into `png` (when given)."""
    done = run("--enable-logging=stderr", "--v=0", "--dump-dom", *_shots(pdf, png, size),
               page.resolve().as_uri())
    _check_shots(pdf, png)
    return done.stdout, [m.group(1) for m in _CONSOLE.finditer(done.stderr)]


def _probed(page_text: str, path: Path, pdf: Path | None = None, png: Path | None = None,
            size: tuple[int, int] = (1280, 2400)) -> tuple[str, list[str], list[str]]:
    """The page with the probe added, written to `path` and opened: (the DOM, what the probe
    finds in the page's first SVG, the console messages). The probe's <pre> is not displayed,
    so the page prints and looks as it does without the probe."""
    body = re.sub(r"^<\?xml[^>]*>\n", "", page_text)
    probe = f'<pre id="probe-out" style="display:none"></pre>{PROBE}'
    body = body.replace("</body>", probe + "</body>") if "</body>" in body else \
        f'<html><body style="margin:0">{body}{probe}</body></html>'
    path.write_text(body, encoding="utf-8")
    dom, console = open_page(path, pdf, png, size)
    found = re.search(r"FOUND(.*)END", dom)
    assert found, f"the probe did not run: {console}"
    problems: list[str] = json.loads(html.unescape(found.group(1)))
    return dom, problems, console


def layout_problems(page_text: str, folder: Path, png: Path | None = None,
                    size: tuple[int, int] = (1280, 2400)) -> tuple[list[str], list[str]]:
    """What the probe finds in the page's (first) SVG, and the console messages of the page;
    a screenshot of the page into `png` in the same browser run, when given."""
    _, problems, console = _probed(page_text, folder / "probe.html", None, png, size)
    return problems, console


def open_probed(page: Path, pdf: Path | None = None, png: Path | None = None
                ) -> tuple[str, list[str], list[str]]:
    """One browser run for a page's DOM, console and layout (and, when asked, its print and
    screenshot): the page with the probe added, opened from the page's own folder (so its
    links resolve as the page's do): (the DOM, what the probe finds in its first SVG, the
    console messages)."""
    return _probed(page.read_text(encoding="utf-8"), page.with_name(f"{page.stem}.probe.html"),
                   pdf, png)


def pdf_pages(pdf: Path) -> int:
    """How many pages a printed PDF holds."""
    return len(_PAGE.findall(pdf.read_bytes()))


def screenshot(page: Path, png: Path, width: int = 1280, height: int = 2400) -> None:
    run(*_shots(None, png, (width, height)), page.resolve().as_uri())
    _check_shots(None, png)
