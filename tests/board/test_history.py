"""`pbem history GAME -o DIR` (issue 16): a static site of every seq, the public board as it
stood then, linked in order, and built incrementally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile
from pbem.views import history, html
from pbem.views.board.past import at_seq
from pbem.views.model import report_model
from tests.board.games import played
from tests.board.pages import element_ids, hands, moderated_aor

runner = CliRunner()


def write(path: Path, ruleset: str, steps: int) -> Path:
    options = {"end": "epoch1"} if ruleset == "aor" else {}
    game = played(ruleset, 3, steps, seed="history", **options)
    path.write_text(gamefile.dump_text(game.gf), encoding="utf-8")
    return path


def site(game: Path, folder: Path) -> str:
    result = runner.invoke(app, ["history", str(game), "-o", str(folder)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("ruleset", ["pax", "aor"])
def test_every_seq_has_a_page_of_the_public_board_then_linked_in_order(ruleset: str,
                                                                       tmp_path: Path) -> None:
    game = write(tmp_path / "g.yaml", ruleset, 12)
    folder = tmp_path / "site"
    assert site(game, folder) == f"wrote 13 page(s) and the index: {folder / 'index.html'}\n"
    index = (folder / "index.html").read_text(encoding="utf-8")
    opened = played(ruleset, 3, 12, seed="history", **({"end": "epoch1"} if ruleset == "aor" else {}))
    for seq in range(13):
        assert f'<a href="seq-{seq}.html">seq {seq}</a>' in index
        page = (folder / f"seq-{seq}.html").read_text(encoding="utf-8")
        assert ('rel="prev"' in page) == (seq > 0) and ('rel="next"' in page) == (seq < 12)
        if seq > 0:
            assert f'href="seq-{seq - 1}.html" rel="prev"' in page
        past = at_seq(opened, seq)
        expected = html.page(report_model(past, None))
        assert html.strip_declaration(page.split("<svg", 1)[1]) == expected.split("<svg", 1)[1], seq
    for entry in opened.gf.log[1:]:
        assert f"<td>{entry['player']}</td>" in index


def test_a_rerun_writes_only_the_new_seqs_the_one_before_them_and_the_index(tmp_path: Path) -> None:
    game = write(tmp_path / "g.yaml", "pax", 6)
    folder = tmp_path / "site"
    built = history.build(played("pax", 3, 6, seed="history"), folder)
    assert [p.name for p in built] == [f"seq-{n}.html" for n in range(7)] + ["index.html"]
    stamps = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    assert history.build(played("pax", 3, 6, seed="history"), folder) == [folder / "index.html"]
    later = played("pax", 3, 9, seed="history")
    game.write_text(gamefile.dump_text(later.gf), encoding="utf-8")
    rebuilt = [p.name for p in history.build(later, folder)]
    assert rebuilt == ["seq-6.html", "seq-7.html", "seq-8.html", "seq-9.html", "index.html"]
    for name, stamp in stamps.items():
        if name.startswith("seq-") and name != "seq-6.html":
            assert (folder / name).stat().st_mtime_ns == stamp, name
    assert 'href="seq-7.html" rel="next"' in (folder / "seq-6.html").read_text(encoding="utf-8")
    record = json.loads((folder / history.MANIFEST).read_text(encoding="utf-8"))
    assert record["latest"] == 9 and sorted(record["pages"], key=int) == [str(n) for n in range(10)]


def test_a_moderated_game_history_shows_no_hand(tmp_path: Path) -> None:
    path = moderated_aor(tmp_path / "g.yaml", 3, returns=3)
    dealt = hands(path)
    folder = tmp_path / "site"
    site(path, folder)
    for seq in range(4):
        page = (folder / f"seq-{seq}.html").read_text(encoding="utf-8")
        assert "province-" in "".join(element_ids(page))
        for hand in dealt.values():
            assert not any(label in page for label in hand), seq


def test_a_folder_of_another_game_or_a_file_is_refused(tmp_path: Path) -> None:
    game = write(tmp_path / "g.yaml", "pax", 2)
    folder = tmp_path / "site"
    site(game, folder)
    other = played("pax", 3, 2, seed="other")
    (tmp_path / "o.yaml").write_text(gamefile.dump_text(other.gf), encoding="utf-8")
    result = runner.invoke(app, ["history", str(tmp_path / "o.yaml"), "-o", str(folder)])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {folder} holds the history of game 'history', not 'other': "
                             "choose another folder\n")
    result = runner.invoke(app, ["history", str(game), "-o", str(game)])
    assert result.exit_code == 2 and result.stderr == \
        f"error: cannot write the history into {game}: it is a file\n"


def test_a_format1_game_builds_its_history(tmp_path: Path) -> None:
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "format1"
    for name in ("aor-moderated.yaml", "aor-moderated.seed"):
        (tmp_path / name).write_bytes((fixtures / name).read_bytes())
    out = site(tmp_path / "aor-moderated.yaml", tmp_path / "site")
    seqs = gamefile.load(tmp_path / "aor-moderated.yaml").seq
    assert out.startswith(f"wrote {seqs + 1} page(s)")
    assert (tmp_path / "site" / f"seq-{seqs}.html").exists()
