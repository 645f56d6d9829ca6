"""The reading commands in the reader's language (issue 18): `pbem cards`, `pbem status` and
`pbem history` take `--lang`; order lines and card names stay verbatim, English is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

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


def new_game(folder: Path, *language: str) -> Path:
    for name in ("ada", "ben", "cy"):
        keys = runner.invoke(app, ["keygen", name, "--email", f"{name}@example.org", "--dir",
                                   str(folder)])
        assert keys.exit_code == 0, keys.output
    path = folder / "g.yaml"
    made = runner.invoke(app, ["new", str(path), *language, "--seed", "reading", *(
        word for name in ("ada", "ben", "cy") for word in ("--player", str(folder / f"{name}.pub")))])
    assert made.exit_code == 0, made.output
    return path


def status_lines(game: Path, *options: str) -> list[str]:
    result = runner.invoke(app, ["status", str(game), *options])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_status_in_hungarian_says_the_decision_with_the_catalogs_phrase(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    english = status_lines(game)
    state = english[0].split()[-1]
    assert english == [f"game g seq 0 state {state}",
                       "turn 1: waiting for marchionni to choose an action"]
    assert status_lines(game, "--lang", "en") == english
    assert status_lines(game, "--lang", "hu") == [f"játék g seq 0 állapot {state}",
                                                  "1. kör: várakozás – marchionni: akció választása"]
    data = runner.invoke(app, ["status", str(game), "--json"]).stdout
    assert runner.invoke(app, ["status", str(game), "--json", "--lang", "hu"]).stdout == data


def test_status_reads_the_games_language_by_default(tmp_path: Path) -> None:
    game = new_game(tmp_path, "--language", "hu")
    assert status_lines(game)[1] == "1. kör: várakozás – marchionni: akció választása"
    assert status_lines(game, "--lang", "en")[1] == "turn 1: waiting for marchionni to choose an action"


def test_status_lang_reads_alike_on_the_fast_path_and_typers(tmp_path: Path) -> None:
    from pbem.cli import fast

    game = new_game(tmp_path)
    argv = ["status", str(game), "--lang", "hu"]
    assert fast.parse(argv) == ("status", {"game": game, "lang": "hu"})
    assert fast.run(*fast.parse(argv) or ("", {})) == 0


def card_names_in(text: str) -> set[str]:
    cards = json.loads(runner.invoke(app, ["cards", "--json"]).stdout)
    return {card["name"] for card in cards if str(card["name"]) in text}


def test_history_site_in_hungarian_keeps_the_card_names(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    made = runner.invoke(app, ["history", str(game), "--out", str(tmp_path / "hu"), "--lang", "hu"])
    assert made.exit_code == 0, made.output
    assert runner.invoke(app, ["history", str(game), "--out", str(tmp_path / "en")]).exit_code == 0
    index = (tmp_path / "hu" / "index.html").read_text(encoding="utf-8")
    assert "<h1>A(z) g játék története</h1>" in index and "<th>Mi történt</th>" in index
    assert "Marchionni kezd; körsorrend: marchionni, coeur, medici." in index  # the log, in Hungarian
    page = (tmp_path / "hu" / "seq-0.html").read_text(encoding="utf-8")
    english = (tmp_path / "en" / "seq-0.html").read_text(encoding="utf-8")
    assert 'lang="hu"' in page and "akció választása" in page and "minden seq" in page
    assert "<h1>History of game g</h1>" in (tmp_path / "en" / "index.html").read_text("utf-8")
    names = card_names_in(english)
    assert names and names == card_names_in(page)  # the market's names, as printed


def test_history_redraws_a_site_made_in_another_language(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    site = tmp_path / "site"
    runner.invoke(app, ["history", str(game), "--out", str(site)])
    english = (site / "seq-0.html").read_bytes()
    again = runner.invoke(app, ["history", str(game), "--out", str(site), "--lang", "hu"])
    assert again.stdout.startswith("wrote 1 page(s)")  # seq 0 again, in Hungarian
    assert "minden seq" in (site / "seq-0.html").read_text(encoding="utf-8")
    runner.invoke(app, ["history", str(game), "--out", str(site), "--lang", "en"])
    assert (site / "seq-0.html").read_bytes() == english
    assert "lang" not in json.loads((site / "history.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("command", [["cards", "PREN001"], ["status", "GAME"],
                                     ["history", "GAME", "--out", "SITE"]])
def test_an_unknown_language_is_refused(command: list[str], tmp_path: Path) -> None:
    game = new_game(tmp_path)
    before = game.read_bytes()
    named = {"GAME": str(game), "SITE": str(tmp_path / "site")}
    result = runner.invoke(app, [*(named.get(word, word) for word in command), "--lang", "xx"])
    assert result.exit_code == 2
    assert result.stderr == "error: unknown language 'xx'; languages: en, hu\n"
    assert game.read_bytes() == before and not (tmp_path / "site").exists()
