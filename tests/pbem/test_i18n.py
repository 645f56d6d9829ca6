"""Reports in the reader's language (issue 18): the catalogs, `--lang`, and the machinery.

English is the source language and has no catalog: its reports are the golden ones of
test_report.py, unchanged. Hungarian is the first translation (pbem/locale/hu).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from engine.core.adjudicate import options_now
from engine.core.agenda import waiting_for
from pbem import i18n
from pbem.cli import fast
from pbem.errors import UsageError
from pbem.i18n import build
from pbem.views import html, report
from pbem.views.model import reader_language, report_model
from pbem.words import say
from tests.board.games import played
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
    assert words.format("{t:a}", t="islamic pirate") == "egy muszlim kalóz"  # the indefinite article
    assert words.format("{t:a}", t="reformist rook") == "egy református bástya"


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


class Recording(gettext.NullTranslations):
    """The Hungarian catalog, noting each message looked up that it has no translation of
    (data words are looked up too, and stay as they are when they are names: not noted)."""

    def __init__(self, inner: gettext.NullTranslations) -> None:
        super().__init__()
        self.inner = inner
        self.known: dict[Any, str] = getattr(inner, "_catalog")  # noqa: B009 - gettext's own table
        self.missing: set[str] = set()
        self.asked = 0

    def _note(self, key: Any, shown: str) -> None:
        self.asked += 1
        if key not in self.known or not self.known[key]:
            self.missing.add(shown)

    def gettext(self, message: str) -> str:
        self._note(message, message)
        return self.inner.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        self._note((singular, 0), singular)
        return self.inner.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        if context != i18n.TERM:
            self._note(f"{context}\x04{message}", f"{context}: {message}")
        return self.inner.pgettext(context, message)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recording]:
    recorder = Recording(i18n.translations("hu"))
    real = i18n.translations
    monkeypatch.setattr(i18n, "translations", lambda lang: recorder if lang == "hu" else real(lang))
    report._environment.cache_clear()
    html.environment.cache_clear()
    yield recorder
    report._environment.cache_clear()
    html.environment.cache_clear()


TRANSLATED_FORMATS = ("markdown", "bbcode", "bgg", "html")  # and text


@pytest.mark.parametrize("steps", [0, 13, 40, 90])
def test_a_hungarian_report_of_a_real_game_has_every_message_translated(
        recording: Recording, steps: int) -> None:
    position = played("pax", 4, steps)
    acting = waiting_for(position.table().agenda)[0]
    for viewer in (acting, None):
        model = report_model(position, viewer, lang="hu")
        assert "PAX RENAISSANCE - játék:" in html.render(model, "text", "hu")
        for fmt in TRANSLATED_FORMATS:
            html.render(model, fmt, "hu")
    assert recording.asked > 100 and recording.missing == set()
    # the order lines stay as the engine lists them: each legal line is in the report
    lines = [c.line for c in options_now(position.ruleset, position.table(), acting)]
    mine = html.render(report_model(position, acting, lang="hu"), "text", "hu")
    assert all(line in mine for line in report.with_ranges(lines))


def test_each_buy_line_says_in_hungarian_what_it_buys_and_for_how_much(recording: Recording) -> None:
    position = played("pax", 4, 0)
    acting = waiting_for(position.table().agenda)[0]
    text = html.render(report_model(position, acting, lang="hu"), "text", "hu")
    assert re.search(r"^    buy west 2 +— megveszed a Nyugati piac 2\. lapját \(2 forint\)$", text,
                     re.MULTILINE), text
    assert recording.missing == set()


def test_plurals_go_through_the_catalog() -> None:
    hungarian = i18n.translations("hu")
    assert hungarian.ngettext("%(num)d card in hand", "%(num)d cards in hand", 1) == \
        "%(num)d kártya a kézben"
    assert hungarian.ngettext("%(num)d card in hand", "%(num)d cards in hand", 3) == \
        "%(num)d kártya a kézben"  # Hungarian: no plural after a number
    english = i18n.translations("en")
    assert english.ngettext("%(num)d card in hand", "%(num)d cards in hand", 3) == \
        "%(num)d cards in hand"


# English words that only prose would bring (not "is": in Hungarian it means "also")
ENGLISH = {"the", "and", "of", "to", "from", "for", "with", "your", "you", "are", "on", "in",
           "by", "it", "its", "their", "or", "card", "cards", "bishop", "florin", "florins", "none"}


def printed_names(position: Any, text: str) -> list[str]:
    """Names that stay as printed: cards, empires, cities and borders, longest first."""
    catalog = position.table().catalog
    names = {card.name for card in catalog.cards.values()}
    names |= {empire.name for empire in catalog.empires.values()}
    view = position.ruleset.view_for(position.table(), None)
    for empire in view["map"]:
        names |= {str(c["name"]) for c in empire["cities"]} | {str(b["name"]) for b in empire["borders"]}
        names.add(str(empire["square"]))
    return sorted((n for n in names if n), key=len, reverse=True)


@pytest.mark.parametrize("steps", [0, 40, 90])
def test_a_hungarian_text_report_has_no_english_words_outside_names_and_order_lines(
        steps: int) -> None:
    position = played("pax", 4, steps)
    acting = waiting_for(position.table().agenda)[0]
    text = html.render(report_model(position, acting, lang="hu"), "text", "hu")
    text = text.split("-----BEGIN PBEM ORDERS-----")[0]  # the block: the order language
    lines = [c.line for c in options_now(position.ruleset, position.table(), acting)]
    for line in sorted(report.with_ranges(lines), key=len, reverse=True):
        text = text.replace(line, " ")
    for name in printed_names(position, text):
        text = text.replace(name, " ")
    words = set(re.findall(r"[A-Za-z']+", text.lower()))
    assert words & ENGLISH == set(), sorted(words & ENGLISH)


def test_every_message_has_a_hungarian_translation() -> None:
    """Pax, Age of Renaissance (its events in every list-length variant, its decisions, its
    templates' words), the core, pbem and the templates: complete."""
    with build.po_path("hu").open("rb") as handle:
        catalog = read_po(handle)
    untranslated = [(m.context, m.id) for m in catalog if m.id
                    and not all(m.string if isinstance(m.string, tuple) else (m.string,))]
    assert untranslated == []
    declared = say({"msg": "aor.war.declared", "args": {"player": "ann", "target": "bob"}}, "hu")
    assert declared == "ann hadat üzen neki: bob."


def test_the_catalog_holds_every_message_the_code_and_templates_have() -> None:
    """A new or reworded message needs `python -m pbem.i18n.build extract` (and a translation)."""
    with build.po_path("hu").open("rb") as handle:
        catalog = read_po(handle)
    extracted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in build.extract() if m.id}
    held = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}
    assert extracted - held == set(), "run: python -m pbem.i18n.build extract"


def hungarian_midgame(viewer: str | None) -> dict[str, Any]:
    """test_report's scripted midgame as a Hungarian reader gets it: its history as events
    (the English scenario holds pre-rendered notes), every word through the catalog."""
    from engine.pax.ruleset import PAX
    from pbem.views.model import explained, said_in
    from pbem.words import decision_phrase, say
    from tests.pbem.test_report import build_model, midgame

    table, _ = midgame()
    model = build_model("midgame", table, [], viewer)
    bank = table.state["order"]
    events = [
        (2, bank[1], {"msg": "pax.buy.card", "args": {"bank": bank[1], "card": "Grand Inquisitor",
                                                      "side": "west", "column": 1, "cost": 1}}),
        (3, bank[2], {"msg": "pax.fair.convene.other", "args": {
            "bank": bank[2], "side": "west", "card": "Mons Meg", "profits": 3, "china": 2}}),
        (3, bank[2], {"msg": "pax.levy.raised", "args": {"token": "catholic knight",
                                                         "city": "Bordeaux"}}),
    ]
    model["history"] = [{"seq": seq, "player": player, "texts": [say(e, "hu") for s, p, e in events
                                                                 if (s, p) == (seq, player)]}
                        for seq, player in sorted({(s, p) for s, p, _ in events})]
    model["decision"] = decision_phrase("pax", "turn", you=False, lang="hu")
    if model["menu"] is not None:
        model["menu"]["decision"] = decision_phrase("pax", "turn", you=True, lang="hu")
        model["menu"]["explained"] = explained(PAX, model["view"], model["menu"]["lines"], "hu")
    model["view"] = said_in(model["view"], "hu")
    return model


@pytest.mark.parametrize("fmt", report.FORMATS)
@pytest.mark.parametrize("who", ["acting", "public"])
def test_hungarian_golden_reports(who: str, fmt: str) -> None:
    from tests.pbem.test_report import GOLDEN, check_golden, midgame

    acting = waiting_for(midgame()[0].agenda)[0]
    model = hungarian_midgame(acting if who == "acting" else None)
    text = report.render(model, fmt, "hu")
    check_golden(GOLDEN / "hu" / f"midgame.{model['viewer'] or 'public'}.{fmt}", text)


def test_an_age_of_renaissance_report_in_hungarian_through_the_cli(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbem.cli import app
    from pbem.store.gamefile import dump_text

    position = played("aor", 3, 4)
    assert reader_language(position.ruleset, "hu") == "hu"
    path = tmp_path / "aor.yaml"
    path.write_text(dump_text(position.gf), encoding="utf-8")
    runner = CliRunner()
    english = runner.invoke(app, ["report", str(path)])
    asked = runner.invoke(app, ["report", str(path), "--lang", "hu"])
    assert english.exit_code == 0 and asked.exit_code == 0, english.output
    assert "Order of play:" in english.output and "Játéksorrend:" in asked.output
    assert "Order of play" not in asked.output


def aor_printed_names(position: Any) -> list[str]:
    """Age of Renaissance names that stay as printed: cards (leaders and commodities among
    them), Advances, provinces and regions, and the seats; longest first."""
    catalog = position.table().catalog
    names = {card.name for card in catalog.cards.values()}
    names |= {advance.name for advance in catalog.advances.values()}
    names |= {province.name for province in catalog.provinces.values()}
    names |= {region.name for region in catalog.regions.values()}
    names |= {commodity.name for commodity in catalog.commodities.values()}
    names |= set(position.gf.player_ids())
    return sorted((n for n in names if n), key=len, reverse=True)


@pytest.mark.parametrize("steps", [0, 4, 60, 120])
def test_a_hungarian_age_of_renaissance_report_has_no_english_words(steps: int) -> None:
    position = played("aor", 4, steps)
    owed = waiting_for(position.table().agenda)
    viewer = owed[0] if owed else None
    text = html.render(report_model(position, viewer, lang="hu"), "text", "hu")
    text = text.split("-----BEGIN PBEM ORDERS-----")[0]  # the block: the order language
    text = "\n".join(line for line in text.splitlines()  # the options: as given to pbem new
                      if not line.startswith("Beállítások:"))
    text = re.sub(r"pbem sign [^;]*?GAME\.yaml", " ", text)  # a command, as typed
    text = text.replace("AGE OF RENAISSANCE", " ").replace("Age of Renaissance", " ")  # its title
    lines = [c.line for c in options_now(position.ruleset, position.table(), viewer)] \
        if viewer else []
    for line in sorted(report.with_ranges(lines), key=len, reverse=True):
        text = text.replace(line, " ")
    for name in aor_printed_names(position):
        text = text.replace(name, " ")
    words = set(re.findall(r"[A-Za-z']+", text.lower()))
    assert words & ENGLISH == set(), sorted(words & ENGLISH)


@pytest.mark.parametrize("fmt", report.FORMATS)
@pytest.mark.parametrize("who", ["acting", "public"])
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_age_of_renaissance_golden_reports(lang: str, who: str, fmt: str) -> None:
    """A 4-player Age of Renaissance midgame (60 random legal blocks of an open game), in
    both languages."""
    from tests.pbem.test_report import GOLDEN, check_golden

    position = played("aor", 4, 60)
    viewer = waiting_for(position.table().agenda)[0] if who == "acting" else None
    text = report.render(report_model(position, viewer, lang=lang), fmt, lang)
    folder = GOLDEN if lang == "en" else GOLDEN / lang  # English: beside Pax's
    check_golden(folder / f"aor-midgame.{who}.{fmt}", text)
