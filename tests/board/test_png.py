"""`pbem map --png` and `pbem post --image` (issue 16): the board as a PNG, rasterised by resvg
from the same SVG, faithful where it counts: its size, its background, and each token's colour
where the SVG puts it."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app
from pbem.store import gamefile
from pbem.views.board import draw
from pbem.views.board.png import to_png
from tests.board.games import played
from tests.board.pngread import pixel, read_rgba

runner = CliRunner()


def near(a: tuple[int, int, int], b: tuple[int, int, int], slack: int = 6) -> bool:
    return all(abs(x - y) <= slack for x, y in zip(a, b, strict=True))


def rgb(colour: str) -> tuple[int, int, int]:
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def test_the_png_has_the_svgs_size_background_and_token_colours() -> None:
    game = played("pax", 4, 40, seed="png")
    svg = draw(game, None)
    width, height, rows = read_rgba(to_png(svg))
    size = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', svg)
    assert size and (width, height) == (int(size.group(1)), int(size.group(2)))
    assert near(pixel(rows, 3, height - 3), rgb("#fbf8f0"))  # the board's background
    # Each square (a rook, a bank's marker) is a polygon filled with its colour: inside its
    # top left corner, clear of its outline and its letter, the picture has that colour.
    squares = re.findall(r'<polygon points="([\d.]+),([\d.]+) ([\d.]+),[\d.]+ [\d.]+,([\d.]+) '
                         r'[\d.]+,[\d.]+" fill="(#[0-9A-Fa-f]{6})"', svg)
    assert len(squares) >= 5
    for x0, y0, x1, _y1, fill in squares:
        x, y = int(float(x0) + 2.5), int(float(y0) + 2.5)
        assert float(x1) > float(x0) + 8
        assert near(pixel(rows, x, y), rgb(fill), 12), (x, y, fill)


def test_map_png_writes_an_image_file_and_post_image_writes_the_public_board(tmp_path: Path) -> None:
    game = played("aor", 3, 20, seed="png", end="epoch1")
    path = tmp_path / "g.yaml"
    path.write_text(gamefile.dump_text(game.gf), encoding="utf-8")
    result = runner.invoke(app, ["map", str(path), "--png", "-o", str(tmp_path / "board.png")])
    assert result.exit_code == 0 and result.stdout == ""
    assert read_rgba((tmp_path / "board.png").read_bytes())[:2] == (1400, 1010)
    result = runner.invoke(app, ["post", str(path), "--out", str(tmp_path / "post.txt"),
                                 "--image", str(tmp_path / "post.png")])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"wrote {tmp_path / 'post.txt'} and {tmp_path / 'post.png'}\n"
    assert (tmp_path / "post.png").read_bytes() == to_png(draw(game, None))


def test_an_image_into_a_missing_folder_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    game = played("pax", 3, 0, seed="png")
    path = tmp_path / "g.yaml"
    path.write_text(gamefile.dump_text(game.gf), encoding="utf-8")
    result = runner.invoke(app, ["post", str(path), "--out", str(tmp_path / "post.txt"),
                                 "--image", str(tmp_path / "none" / "post.png")])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot write ") and result.stderr.count("\n") == 1
    assert not (tmp_path / "post.txt").exists()
