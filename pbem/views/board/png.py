"""The board as a PNG for forums that show only images (`pbem map --png`, `pbem post --image`).

resvg (through the resvg-py wheel) rasterises the same SVG `pbem map` writes: no browser, no
system library to install. It finds the generic fonts the SVG names among the system's fonts.
"""

from __future__ import annotations

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def to_png(svg: str, zoom: float = 1.0) -> bytes:
    """The picture as PNG bytes, `zoom` times the SVG's own size."""
    import resvg_py  # start-up: only the commands that write a PNG load the rasteriser

    data = resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom)
    return bytes(data)
