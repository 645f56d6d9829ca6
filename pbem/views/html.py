"""The HTML report (`pbem report --format html`): one self-contained page.

The page is `templates/<ruleset>/page.html.j2` rendered from the report model, the same
model the text, markdown and bbcode reports use, with the board SVG drawn from that model too:
no second source of truth, and the page shows only what the model's reader may see. It needs
no JavaScript, fetches nothing (styles inline, generic fonts) and has a print style for A4.

HTML templates get their own Jinja2 environment with autoescape on for every template it
loads, the shared phrase macros (`pax/_macros.j2`) included: every piece of data is escaped
where it is written, and only the board (drawn by pbem.views.board, which escapes its data)
and a caller's preface are marked safe. Every string of the model is also stripped of
bidirectional and terminal controls, as for the other formats.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup, escape

from pbem import i18n
from pbem.errors import UsageError
from pbem.resources import templates_dir
from pbem.views import report, template_cache

FORMATS = (*report.FORMATS, "html")
# report.safe_text as one regular expression: a big SVG is cleaned in C, not char by char
_UNSAFE = re.compile("[" + "".join(re.escape(chr(code)) for code in report.UNSAFE) + "]")


def join_words(items: Iterable[object], last: str = "and") -> Markup:
    """report.join_words for HTML: each item escaped once (a macro's output is already)."""
    return Markup(report.join_words([escape(item) for item in items], last))


def ranges_only(lines: Iterable[str]) -> list[str]:
    """The menu's runs of numbered lines written as ranges ('bid 0..40'); the page lists every
    line too, for copying."""
    return [line for line in report.with_ranges(lines) if ".." in line]


@cache
def environment(lang: str = i18n.SOURCE) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())), undefined=jinja2.StrictUndefined,
        autoescape=True, trim_blocks=True, lstrip_blocks=True,
        extensions=["jinja2.ext.do", "jinja2.ext.i18n"])
    env.filters.update({"plural": report.plural, "join_words": join_words,
                        "ranges_only": ranges_only})
    env.globals["Markup"] = Markup  # a translated phrase with a tag inside: the tag is ours
    report.install_language(env, lang)
    template_cache.attach(env)
    return env


def strip_declaration(svg: str) -> str:
    """The SVG without its XML declaration, ready to sit inline in HTML."""
    return svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg


def page(model: dict[str, Any], preface: str = "", lang: str = i18n.SOURCE) -> str:
    """The report page for `model`. `preface` is HTML (already escaped) put above the report:
    a mail's greeting and deadlines, a history page's links."""
    from pbem.views.board import draw_model  # start-up: text reports import this module too

    board = Markup(_UNSAFE.sub("", strip_declaration(draw_model(model))))
    folder = model["header"]["templates"]
    try:
        template = environment(lang).get_template(f"{folder}/page.html.j2")
    except jinja2.TemplateNotFound:
        raise UsageError(f"no HTML page for ruleset '{folder}': templates/{folder}/page.html.j2 "
                         "is missing") from None
    # the same cleaning as every other format: no string of the model keeps a control character
    clean: dict[str, Any] = report._safe_model(model)
    return template.render({**clean, "board": board, "preface": Markup(preface)})


def render(model: dict[str, Any], fmt: str, lang: str = i18n.SOURCE) -> str:
    """A report in any format, the HTML page included, in the language `lang`."""
    return page(model, lang=lang) if fmt == "html" else report.render(model, fmt, lang)
