"""Reports: a view model rendered through Jinja2 templates, one template per ruleset and format.

`render(model, fmt)` renders `templates/<ruleset>/report.<fmt>.j2`. The model is plain data
built by the service; templates see only it (never the game state):

- `header`: game id, ruleset, seq, state fingerprint, options, players (id, name) in seat order;
- `viewer`: the player the report is for, or None for the public report;
- `view`: the ruleset's `view_for(table, viewer)`;
- `history`: what happened since the viewer's last block, already redacted;
- `waiting_for` and `decision`: who must act next and what they are asked;
- `menu`: None, or the legal lines and block skeleton for the player who must act.

Jinja2 runs with `StrictUndefined`, so a missing key raises `jinja2.UndefinedError` (a bug in
the caller, not a user error). A format is any `report.<fmt>.j2` in the ruleset's template
folder: adding `templates/pax/report.bbcode.j2` makes `render(model, "bbcode")` work. The
filters below are layout helpers shared by every format; rendering reads no clock or
environment, so the same model always gives the same text.

Data in the model is the players' and the host's (names come from a `.pub` comment): every
string is stripped of bidirectional and terminal controls before rendering (`safe_text`), and a
template shows data through its format's escape filter, `md` or `bbcode`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from pbem import i18n
from pbem.errors import UsageError
from pbem.resources import templates_dir
from pbem.views.formats import FORMATS as FORMATS

if TYPE_CHECKING:
    import jinja2

_NAME = re.compile(r"^[a-z0-9_]+$")
_TEMPLATE = re.compile(r"^report\.([a-z0-9_]+)\.j2$")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")
# Characters no report shows from data: bidirectional controls (U+202A-E, U+2066-9, U+200E/F),
# which can make a name read backwards or reorder the text around it, and the C0 and C1
# controls (bar tab and newline), which a terminal runs as commands.
UNSAFE: dict[int, None] = dict.fromkeys(  # U+2028/9 break a mail header like CR and LF
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x2028, 0x2029,
     *(code for code in range(0x20) if chr(code) not in "\t\n"), *range(0x7F, 0xA0)])
# BBCode has no escape character: a zero-width space after "[" keeps a forum from reading a
# tag ("[url=...]", "[img]", "[/code]"), and the reader sees the same text. The block finder
# drops it, so a line copied from a report still reads as written.
_BBCODE_BREAK = "[\u200b"


# BoardGameGeek's forum markup is BBCode's cousin: [b], [i], [u] and [q] as in BBCode, code as
# [c], no lists and no [size]. A bgg report is the bbcode one, translated tag by tag; data was
# escaped for BBCode ("[" then a zero-width space), which BGG reads as text too, so no tag in
# data is translated or opened.
_BGG_TAGS = (("[code]", "[c]"), ("[/code]", "[/c]"),
             ("[quote]", "[q]"), ("[/quote]", "[/q]"), ("[list]\n", ""), ("[/list]\n", ""),
             ("[list]", ""), ("[/list]", ""), ("[*]", "- "))
_BGG_SIZE = re.compile(r"\[size=\d+\]|\[/size\]")
DERIVED = {"bgg": "bbcode"}  # a format made from another's text


def bgg_from_bbcode(text: str) -> str:
    """A BBCode report in BoardGameGeek's forum markup."""
    for tag, bgg in _BGG_TAGS:
        text = text.replace(tag, bgg)
    return _BGG_SIZE.sub("", text)


_NUMBERED = re.compile(r"^(.*\S) (-?\d+)$")
RANGE_MIN = 4  # a run of fewer numbers stays as lines (market slots, say)


def with_ranges(lines: Iterable[str]) -> list[str]:
    """Legal lines with each run of lines that differ only in a last whole number, counting
    up by one, written as a range: 'bid 0' ... 'bid 40' -> 'bid 0..40'. Only a menu shows
    ranges (it says how to write one number of a range); `options --json` lists every line."""
    shown: list[str] = []
    run: list[tuple[str, int]] = []

    def flush() -> None:
        if len(run) >= RANGE_MIN:
            shown.append(f"{run[0][0]} {run[0][1]}..{run[-1][1]}")
        else:
            shown.extend(f"{prefix} {number}" for prefix, number in run)
        run.clear()

    for line in lines:
        match = _NUMBERED.match(line)
        if match and run and run[-1][0] == match.group(1) and \
                run[-1][1] + 1 == int(match.group(2)):
            run.append((match.group(1), int(match.group(2))))
            continue
        flush()
        if match:
            run.append((match.group(1), int(match.group(2))))
        else:
            shown.append(line)
    flush()
    return shown


def range_note(lines: Iterable[str], gettext: Callable[[str], str] = str) -> str:
    """How to write one line of a range, with an example from the menu ('' when none), in the
    language of `gettext`."""
    first = next((line for line in with_ranges(lines) if ".." in line), None)
    if first is None:
        return ""
    prefix, span = first.rsplit(" ", 1)
    low = span.split("..")[0]
    return gettext("LOW..HIGH stands for one whole number from LOW to HIGH: write the number, "
                   "e.g. '{example}'.").format(example=f"{prefix} {low}")


def group_by_verb(lines: Iterable[str]) -> list[list[str]]:
    """Order lines grouped by their first word, groups in order of first appearance."""
    groups: dict[str, list[str]] = {}
    for line in lines:
        verb = line.split(" ", 1)[0]
        groups.setdefault(verb, []).append(line)
    return list(groups.values())


def columns(lines: Sequence[str], width: int = 88, indent: int = 4, gap: int = 3) -> list[str]:
    """Lay `lines` out in columns, row by row, within `width`; every line stays whole."""
    if not lines:
        return []
    cell = max(len(line) for line in lines) + gap
    per_row = max(1, (width - indent + gap) // cell)
    rows = []
    for start in range(0, len(lines), per_row):
        chunk = lines[start:start + per_row]
        text = "".join(line.ljust(cell) for line in chunk[:-1]) + chunk[-1]
        rows.append(" " * indent + text)
    return rows


def safe_text(text: object) -> str:
    """Text without bidirectional or terminal control characters (the `safe` filter)."""
    return str(text).translate(UNSAFE)


def markdown_escape(text: object) -> str:
    """Text safe inside Markdown prose and table cells."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", safe_text(text))


def bbcode_escape(text: object) -> str:
    """Text safe inside BBCode prose and [code]: no tag can start in it."""
    return safe_text(text).replace("[", _BBCODE_BREAK)


def _safe_model(data: Any) -> Any:
    """The model with `safe_text` applied to every string in it, keys included, so that every
    format (plain text too) is free of control characters whatever its template does."""
    if isinstance(data, str):
        return data.translate(UNSAFE)
    if isinstance(data, dict):
        return {_safe_model(key): _safe_model(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_safe_model(item) for item in data]
    if isinstance(data, tuple):
        return tuple(_safe_model(item) for item in data)
    return data


def plural(count: int, singular: str, many: str | None = None) -> str:
    """'1 card', '2 cards', '0 cards'."""
    word = singular if count == 1 else (many if many is not None else singular + "s")
    return f"{count} {word}"


def join_words(items: Iterable[object], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def install_language(env: jinja2.Environment, lang: str) -> None:
    """The `_`, `ngettext` and `pgettext` of the templates, and the `term` filter, in `lang`
    (English: the templates' own words; newstyle: `_("%(n)s", n=...)` formats, and `%` is `%%`)."""
    translations = i18n.translations(lang)
    env.install_gettext_translations(translations, newstyle=True)  # type: ignore[attr-defined]
    env.filters["term"] = lambda word: i18n.term(lang, str(word))
    env.filters["range_note"] = lambda lines: range_note(lines, translations.gettext)
    env.globals["lang"] = lang  # an HTML page's lang attribute


@cache
def _environment(lang: str = i18n.SOURCE) -> jinja2.Environment:
    import jinja2  # start-up: only rendering pays for Jinja2, not checking a format

    from pbem.views import template_cache

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.do", "jinja2.ext.i18n"],
    )
    env.filters.update({
        "group_by_verb": group_by_verb,
        "with_ranges": with_ranges,
        "range_note": range_note,
        "columns": columns,
        "md": markdown_escape,
        "bbcode": bbcode_escape,
        "safe_text": safe_text,
        "plural": plural,
        "join_words": join_words,
    })
    install_language(env, lang)
    template_cache.attach(env)
    return env


@cache
def formats(ruleset: str) -> tuple[str, ...]:
    """The report formats a ruleset has templates for: FORMATS first, then others by name."""
    folder = templates_dir() / ruleset
    found = set()
    if _NAME.match(ruleset) and folder.is_dir():
        for path in folder.iterdir():
            match = _TEMPLATE.match(path.name)
            if match:
                found.add(match.group(1))
    found |= {fmt for fmt, base in DERIVED.items() if base in found}
    known = [fmt for fmt in FORMATS if fmt in found]
    return tuple(known + sorted(found - set(known)))


def render(model: dict[str, Any], fmt: str, lang: str = i18n.SOURCE) -> str:
    """The report for `model` in format `fmt` ("text", "markdown", ...), its template's words in
    the language `lang` (the model's words were rendered in it by report_model)."""
    ruleset = str(model["header"]["templates"])
    available = formats(ruleset)
    if fmt not in available:
        if not available:
            raise UsageError(f"no report templates for ruleset '{ruleset}'")
        raise UsageError(f"unknown report format '{fmt}'; formats: {', '.join(available)}")
    if fmt in DERIVED:
        return bgg_from_bbcode(render(model, DERIVED[fmt], lang))
    template = _environment(lang).get_template(f"{ruleset}/report.{fmt}.j2")
    return template.render(_safe_model(model))
