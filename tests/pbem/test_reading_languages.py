"""The reading commands in the reader's language (issue 18): `pbem cards`, `pbem status` and
`pbem history` take `--lang`; order lines and card names stay verbatim, English is unchanged."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pbem.cli import app

runner = CliRunner()


def test_cards_say_what_a_card_does_in_hungarian_with_its_printed_name() -> None:
    english = runner.invoke(app, ["cards", "PREN001"])
    result = runner.invoke(app, ["cards", "PREN001", "--lang", "hu"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("PREN001  Inquisition Pope\n")  # the name as printed
    assert "művelet: Lefejezés" in result.stdout  # the op, from the catalog
    assert "tulajdonság: Ennek a kártyának a Lefejezés Művelete" in result.stdout  # the ability
    assert "egyszeri esemény kijátszáskor: Keresztes háború" in result.stdout
    assert "op: " not in result.stdout and "ability: " not in result.stdout
    assert english.stdout.startswith("PREN001  Inquisition Pope\n")
    assert "op: Behead" in english.stdout


def test_cards_in_english_and_json_are_unchanged_by_the_option() -> None:
    for words in (["PREN001"], ["COMET1"], [], ["Pope"]):
        plain = runner.invoke(app, ["cards", *words])
        assert runner.invoke(app, ["cards", *words, "--lang", "en"]).stdout == plain.stdout
    data = runner.invoke(app, ["cards", "PREN001", "--json"]).stdout
    assert runner.invoke(app, ["cards", "PREN001", "--json", "--lang", "hu"]).stdout == data
    assert json.loads(data)[0]["ops"] == ["behead (behead)", "inquisitor_catholic (inquisitor)"]


def test_cards_of_a_ruleset_without_translated_cards_stay_in_its_own_words() -> None:
    plain = runner.invoke(app, ["cards", "Armor", "--ruleset", "aor"])
    hungarian = runner.invoke(app, ["cards", "Armor", "--ruleset", "aor", "--lang", "hu"])
    assert hungarian.exit_code == 0 and hungarian.stdout == plain.stdout


@pytest.mark.parametrize("command", [["cards", "PREN001"]])
def test_an_unknown_language_is_refused(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--lang", "xx"])
    assert result.exit_code == 2
    assert result.stderr == "error: unknown language 'xx'; languages: en, hu\n"
