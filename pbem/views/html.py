"""The HTML report (`pbem report --format html`): one self-contained page.

The page is `templates/<ruleset>/report.html.j2` rendered from the report model, the same
model the text, markdown and bbcode reports use, with the board SVG drawn from that model too:
no second source of truth, and the page shows only what the model's reader may see. It needs
no JavaScript, fetches nothing (styles inline, generic fonts) and has a print style for A4.
"""

from __future__ import annotations

from typing import Any

from pbem.views import report
from pbem.views.board import draw_model

FORMATS = (*report.FORMATS, "html")


def strip_declaration(svg: str) -> str:
    """The SVG without its XML declaration, ready to sit inline in HTML."""
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg


def page(model: dict[str, Any], preface: str = "") -> str:
    """The report page for `model`. `preface` is HTML (already escaped) put above the report:
    a mail's greeting and deadlines."""
    return report.render({**model, "board": strip_declaration(draw_model(model)),
                          "preface": preface}, "html")


def render(model: dict[str, Any], fmt: str) -> str:
    """A report in any format, the HTML page included."""
    return page(model) if fmt == "html" else report.render(model, fmt)
