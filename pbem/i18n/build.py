"""The translators' steps, with Babel: extract, update, compile, check (`python -m pbem.i18n.build`).

- extract: every message a reader may see, into `pbem/locale/pbem.pot`: the templates' `_()`
  and `ngettext()` (jinja2.ext.i18n), pbem's `gettext`/`ngettext`/`pgettext` calls, and the keyed
  English catalogs (each ruleset's event messages, decision phrases and draw messages, the core's
  and pbem's messages; their id is the context), plus the data words of `pbem.i18n.terms`;
- update: merge the template into each language's `pbem.po` (new messages appear untranslated);
- compile: write each `pbem.mo` beside its `.po` (committed, so a wheel carries it);
- check: fail when a committed `.mo` is not what its `.po` compiles to.

Babel is a translators' and test dependency only: at run time pbem reads the .mo files with
the standard library's gettext.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from pbem import i18n, rulesets
from pbem.i18n.terms import TERMS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
FIXED_DATE = datetime(2026, 12, 6, tzinfo=UTC)  # no clock in a committed file
JINJA_OPTIONS = {"extensions": "jinja2.ext.do,jinja2.ext.i18n", "trim_blocks": "true",
                 "lstrip_blocks": "true", "newstyle_gettext": "true"}


def keyed_messages() -> Iterator[tuple[str, str]]:
    """(context, English template) of every message keyed by an id."""
    from engine.core.errors import REASONS as CORE_REASONS
    from engine.core.messages import MESSAGES as CORE
    from pbem.errors import REASONS as PBEM_REASONS
    from pbem.words import PBEM_MESSAGES

    yield from sorted({**CORE, **PBEM_MESSAGES, **CORE_REASONS, **PBEM_REASONS}.items())
    for name in sorted(rulesets.TABLE):
        rules = rulesets.ruleset_for(name)
        yield from sorted(rules.messages.items())
        yield from sorted(getattr(rules, "reasons", {}).items())  # why a line is refused
        yield from sorted((f"decision:{name}.{action}", phrase)
                          for action, phrase in rules.decisions.items())
        yield from sorted((f"draw:{name}.{kind}", text)
                          for kind, text in (rules.draw_messages or {}).items())
        keyed_texts = getattr(rules, "keyed_texts", None)  # words from the data (Pax: abilities)
        if keyed_texts is not None:
            yield from sorted(keyed_texts(rulesets.catalog_for(name)).items())


def extract() -> Catalog:
    catalog = Catalog(project="pbem", domain=i18n.DOMAIN, charset="utf-8", fuzzy=False,
                      creation_date=FIXED_DATE, revision_date=FIXED_DATE)
    sources = [(ROOT / "templates", [("**.j2", "jinja2.ext:babel_extract")],
                {"**.j2": JINJA_OPTIONS}),
               (ROOT / "pbem", [("**.py", "python")], {})]
    for folder, method_map, options in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
                folder, method_map, options, keywords=KEYWORDS, strip_comment_tags=True):
            where = f"{folder.name}/{filename}"
            catalog.add(message, locations=[(where, lineno)], auto_comments=comments,
                        context=context)
    for context, text in keyed_messages():
        catalog.add(text, context=context)
    for word in TERMS:
        catalog.add(word, context=i18n.TERM)
    return catalog


def po_path(lang: str) -> Path:
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def po_languages() -> list[str]:
    return sorted(p.parent.parent.name for p in i18n.LOCALE_DIR.glob(f"*/LC_MESSAGES/{i18n.DOMAIN}.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def write(path: Path, catalog: Catalog) -> None:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=True, ignore_obsolete=True,
             include_previous=False)
    path.write_bytes(buffer.getvalue())


def compiled(lang: str) -> bytes:
    """What the language's .po compiles to (the bytes its .mo must hold)."""
    buffer = io.BytesIO()
    write_mo(buffer, read(po_path(lang)), use_fuzzy=False)
    return buffer.getvalue()


def update() -> None:
    template = extract()
    template.header_comment = "# The messages pbem's readers see (python -m pbem.i18n.build extract)."
    write(TEMPLATE, template)
    for lang in po_languages():
        catalog = read(po_path(lang))
        catalog.update(template, no_fuzzy_matching=True)
        write(po_path(lang), catalog)


def compile_all() -> None:
    for lang in po_languages():
        po_path(lang).with_suffix(".mo").write_bytes(compiled(lang))


def stale() -> list[str]:
    """The languages whose committed .mo is missing or differs from their compiled .po."""
    found = []
    for lang in po_languages():
        mo = po_path(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(lang):
            found.append(lang)
    return found


def main(argv: list[str]) -> int:
    step = argv[0] if argv else ""
    if step == "extract":
        update()
    elif step == "compile":
        compile_all()
    elif step == "check":
        bad = stale()
        if bad:
            print(f"stale .mo for {', '.join(bad)}: run python -m pbem.i18n.build compile")
            return 1
    else:
        print("usage: python -m pbem.i18n.build extract|compile|check")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
