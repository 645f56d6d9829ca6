"""Just enough of PNG to read back what the rasteriser wrote: 8-bit RGBA, not interlaced."""

from __future__ import annotations

import struct
import zlib


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


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
    raw, stride, rows = zlib.decompress(idat), width * 4, []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - 4] if x >= 4 else 0
            up, corner = previous[x], previous[x - 4] if x >= 4 else 0
            add = {0: 0, 1: left, 2: up, 3: (left + up) // 2, 4: _paeth(left, up, corner)}[kind]
            line[x] = (line[x] + add) & 0xFF
        rows.append(line)
        previous = line
    return width, height, rows


def pixel(rows: list[bytearray], x: int, y: int) -> tuple[int, int, int]:
    r, g, b = rows[y][x * 4:x * 4 + 3]
    return r, g, b
