"""A small SVG writer: every element carries a <title>, so hovering names it."""

from __future__ import annotations

from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"  # generic families only: no font is fetched


_QUOTED = {'"': "&quot;"}


def _attrs(attrs: dict[str, object]) -> str:
    # Numbers are most attributes: only text needs escaping (the cost shows in the bench).
    return "".join(
        f' {key.rstrip("_").replace("_", "-")}="{value}"' if isinstance(value, int | float)
        else f' {key.rstrip("_").replace("_", "-")}="{escape(str(value), _QUOTED)}"'
        for key, value in attrs.items() if value is not None)


class Svg:
    def __init__(self, width: int, height: int, title: str) -> None:
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.title = title

    def add(self, tag: str, title: str, **attrs: object) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}><title>{escape(title)}</title></{tag}>")

    def open(self, title: str, **attrs: object) -> None:
        self.parts.append(f"<g{_attrs(attrs)}><title>{escape(title)}</title>")

    def close(self) -> None:
        self.parts.append("</g>")

    def rect(self, title: str, x: float, y: float, w: float, h: float, **attrs: object) -> None:
        self.add("rect", title, x=round(x, 1), y=round(y, 1), width=round(w, 1), height=round(h, 1),
                 **attrs)

    def text(self, title: str, x: float, y: float, words: str, size: float = 11, **attrs: object) -> None:
        self.parts.append(f"<text{_attrs({'x': round(x, 1), 'y': round(y, 1), 'font_size': size, **attrs})}>"
                          f"<title>{escape(title)}</title>{escape(words)}</text>")

    def shape(self, title: str, kind: str, x: float, y: float, r: float, fill: str,
              letter: str = "", **attrs: object) -> None:
        """A token: its shape says its kind, its letter its colour (colour-blind safe)."""
        self.open(title)
        stroke = {"stroke": "#222", "stroke_width": 1}
        if kind == "circle":
            circle = _attrs({"cx": x, "cy": y, "r": r, "fill": fill, **stroke, **attrs})
            self.parts.append(f"<circle{circle}/>")
        else:
            points = {
                "triangle": [(x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)],
                "square": [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)],
                "diamond": [(x, y - r * 1.2), (x + r * 1.2, y), (x, y + r * 1.2), (x - r * 1.2, y)],
            }[kind]
            text = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            self.parts.append(f"<polygon{_attrs({'points': text, 'fill': fill, **stroke, **attrs})}/>")
        if letter:
            label = _attrs({"x": x, "y": round(y + r * 0.45, 1), "font_size": round(r * 1.1, 1),
                            "text_anchor": "middle", "font_weight": "bold"})
            self.parts.append(f"<text{label}>{escape(letter)}</text>")
        self.close()

    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT}">'
                f"<title>{escape(self.title)}</title>"
                f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="#fbf8f0">'
                "<title>board</title></rect>")
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + head + "".join(self.parts) + "</svg>\n"


def fit(words: str, width: float, size: float) -> str:
    """Words cut to what fits `width` pixels at `size` (about 0.58 em a character)."""
    room = max(1, int(width / (size * 0.58)))
    return words if len(words) <= room else words[: max(1, room - 1)] + "…"
