"""Reports in the reader's language (issue 18): the catalogs, `--lang`, and the machinery.

English is the source language and has no catalog: its reports are the golden ones of
test_report.py, unchanged. Hungarian is the first translation (pbem/locale/hu).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pbem import i18n
from pbem.cli import fast
from pbem.errors import UsageError
from pbem.i18n import build
from tests.pbem.test_fast_cli import game, through_main, through_typer  # noqa: F401 - a fixture

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{([^{}:!]*)[^{}]*\}")  # a field; its format spec may differ
# a decision's words for the reader's person: a language may say it without them ("akció választása")
PERSON = {"their", "they", "them"}


def fields(text: str) -> set[str]:
    return {name or field for name, field in PLACEHOLDER.findall(text)} - {"num"}


def test_each_committed_mo_is_what_its_po_compiles_to() -> None:
    assert build.po_languages() == ["hu"]
    assert build.stale() == [], "run: python -m pbem.i18n.build compile"


def test_the_languages_are_english_and_every_compiled_catalog() -> None:
    assert i18n.languages() == ("en", "hu")
    with pytest.raises(UsageError, match="unknown language 'xx'; languages: en, hu"):
        i18n.check_language("xx")


def test_a_translation_keeps_the_placeholders_of_its_english() -> None:
    with build.po_path("hu").open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = fields(ids[-1])
        for said in strings:
            if not said:
                continue
            found = fields(said)
            assert found - PERSON == wanted - PERSON and found <= wanted, \
                (message.context, ids[0], said)


def test_terms_translate_each_word_of_a_token_or_none() -> None:
    assert i18n.term("hu", "catholic knight") == "katolikus lovag"
    assert i18n.term("hu", "Mary the Rich") == "Mary the Rich"  # a card's name stays as printed
    assert i18n.term("en", "catholic knight") == "catholic knight"


def test_lists_and_articles_in_hungarian() -> None:
    words = i18n.formatter("hu")
    assert words.format("{x:and}", x=["catholic", "islamic", "reformist"]) == \
        "katolikus, muszlim és református"
    assert words.format("{x:or}", x=["knight", "rook"]) == "lovag vagy bástya"
    assert words.format("{t:a}", t="islamic pirate") == "a muszlim kalóz"
    assert words.format("{t:a}", t="reformist rook") == "a református bástya"
    assert i18n.hungarian_article("Aragon") == "az Aragon"


@pytest.mark.parametrize("options", [["--lang", "hu"], ["--lang=hu", "--format", "markdown"],
                                     ["--for", "coeur", "--lang", "hu", "--format", "bbcode"],
                                     ["--lang", "xx"]])
def test_lang_reads_alike_on_the_fast_path_and_typers(
        game: Path, options: list[str], monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", str(game), *options]
    assert fast.parse(argv) is not None
    fast_result = through_main(monkeypatch, capsys, argv)
    assert fast_result == through_typer(argv)
    code, out, err = fast_result
    if "xx" in options:
        assert code != 0 and "unknown language 'xx'; languages: en, hu" in err
    else:
        assert code == 0 and "térkép alap" in out  # the options, in Hungarian


def test_english_is_the_default_and_the_same_as_asked_for(
        game: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        capsys: pytest.CaptureFixture[str]) -> None:
    plain = through_main(monkeypatch, capsys, ["report", str(game), "--for", "coeur"])
    asked = through_main(monkeypatch, capsys, ["report", str(game), "--for", "coeur", "--lang", "en"])
    assert plain == asked and "Report for Coeur" in plain[1]
