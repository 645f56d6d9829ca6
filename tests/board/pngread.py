"""Just enough of PNG to read back what the rasteriser wrote: 8-bit RGBA, not interlaced."""

from __future__ import annotations

import struct
import zlib

PIXEL = 4  # bytes per pixel: the filters' "left" is the same channel of the pixel before


def _unfilter(kind: int, line: bytearray, previous: bytearray) -> bytearray:
    """One scanline with its filter undone (PNG 9.2), each filter type in its own loop: a
    board is 5.6 million bytes, and one generic loop that looked up the filter for every
    byte took seconds."""
    stride = len(line)
    if kind == 0:  # None
        return line
    if kind == 2:  # Up
        return bytearray((x + up) & 0xFF for x, up in zip(line, previous, strict=True))
    if kind == 1:  # Sub
        for x in range(PIXEL, stride):
            line[x] = (line[x] + line[x - PIXEL]) & 0xFF
        return line
    if kind == 3:  # Average
        for x in range(stride):
            left = line[x - PIXEL] if x >= PIXEL else 0
            line[x] = (line[x] + (left + previous[x]) // 2) & 0xFF
        return line
    assert kind == 4, f"unknown PNG filter {kind}"
    for x in range(stride):  # Paeth
        a, c = (line[x - PIXEL], previous[x - PIXEL]) if x >= PIXEL else (0, 0)
        b = previous[x]
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return line


def read_rgba(data: bytes) -> tuple[int, int, list[bytearray]]:
    """(width, height, rows of RGBA bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, head = 8, b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            head = body
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", head)
    assert (depth, colour, interlace) == (8, 6, 0), "only 8-bit RGBA, not interlaced"
    raw, stride, rows = zlib.decompress(idat), width * PIXEL, []
    assert len(raw) == height * (stride + 1), "the image data is not width x height"
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        line = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), previous)
        rows.append(line)
        previous = line
    return width, height, rows


def pixel(rows: list[bytearray], x: int, y: int) -> tuple[int, int, int]:
    r, g, b = rows[y][x * 4:x * 4 + 3]
    return r, g, b
