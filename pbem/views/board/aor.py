"""Age of Renaissance: provinces by area and the sea zones, markers and tokens, each player's panel."""

from __future__ import annotations

from typing import Any

from pbem import rulesets
from pbem.views.board.svg import Svg, fit


def _colours(layout: dict[str, Any], seats: list[str]) -> dict[str, tuple[str, str, str]]:
    """Each seat's colour, shape and letter (the letter tells colours apart without colour)."""
    palette = layout["palette"]["players"]
    initials = [seat[:1].upper() for seat in seats]
    if len(set(initials)) < len(seats):  # initials collide: seat numbers instead
        initials = [str(index + 1) for index in range(len(seats))]
    letters: dict[str, tuple[str, str, str]] = {}
    for index, seat in enumerate(seats):
        spec = palette[index % len(palette)]
        letters[seat] = (str(spec["colour"]), str(spec["shape"]), initials[index])
    return letters


def _province(svg: Svg, pid: str, spot: dict[str, Any], catalog: Any, record: dict[str, Any],
              seats: dict[str, tuple[str, str, str]], capitals: dict[str, str]) -> None:
    facts = catalog.provinces[pid]
    x, y, w, h = spot["x"], spot["y"], spot["w"], spot["h"]
    marker = record.get("marker")
    tokens = {**record.get("tokens", {})}
    new = record.get("new", {})
    kind = "capital" if facts.capital else ("satellite" if facts.satellite else "province")
    goods = ", ".join(catalog.commodities[c].name for c in facts.commodities) or "no commodity"
    held = [f"{p} {n}" for p, n in tokens.items()] + [f"{p} {n} new" for p, n in new.items()]
    title = f"{facts.name} ({kind}, market {facts.market}, {goods})" + \
        (f"; dominated by {marker}" if marker else "") + (f"; tokens {', '.join(held)}" if held else "") + \
        (f"; {capitals[pid]}'s capital" if pid in capitals else "")
    svg.open(title, id=f"province-{pid}")
    fill = seats[marker][0] if marker in seats else ("#f4f4f4" if facts.satellite else "#ffffff")
    svg.rect(title, x, y, w, h, rx=3, fill=fill, fill_opacity=0.45 if marker else 1, stroke="#555",
             stroke_width=2.5 if facts.capital or pid in capitals else 1,
             stroke_dasharray="3 2" if facts.satellite else None)
    star = "★ " if facts.capital else ""
    svg.text(title, x + 3, y + 11, fit(star + spot["label"], w - 18, 9), 9,
             font_weight="bold" if facts.capital else None)
    svg.text(title, x + w - 3, y + 11, str(facts.market), 9, text_anchor="end")
    if marker in seats:
        colour, shape, letter = seats[marker]
        svg.shape(f"{marker}'s domination marker", shape, x + 9, y + 22, 6, colour, letter)
    cx = x + 24
    for player, count in list(tokens.items()) + [(p, n) for p, n in new.items()]:
        if player not in seats or cx > x + w - 10:
            continue
        colour, shape, letter = seats[player]
        svg.shape(f"{count} of {player}'s tokens", shape, cx, y + 23, 6, colour, letter)
        svg.text(f"{count} of {player}'s tokens", cx + 8, y + 27, f"×{count}", 8)
        cx += 26
    svg.close()


def _panel(svg: Svg, index: int, row: dict[str, Any], layout: dict[str, Any], seat: tuple[str, str, str],
           owned: set[str], order: list[str], advances: list[Any]) -> None:
    spec = layout["players"]
    x, y = spec["x"] + index * spec["step"], spec["y"]
    colour, shape, letter = seat
    place = f", plays {order.index(row['id']) + 1} of {len(order)}" if row["id"] in order else ""
    summary = f"{row['id']}: cash {row['cash']}, misery {row['misery']}, capital {row['capital']}, " \
              f"fleet {row['fleet']}, hand {row['hand_size']}{place}"
    svg.open(summary, id=f"player-{row['id']}")
    svg.rect(summary, x, y, spec["w"], spec["h"], rx=6, fill="#ffffff", stroke=colour, stroke_width=3)
    svg.shape(summary, shape, x + 14, y + 16, 9, colour, letter)
    svg.text(summary, x + 28, y + 21, fit(row["id"] + (" (out)" if row["eliminated"] else ""),
                                          spec["w"] - 36, 13), 13, font_weight="bold")
    lines = [f"cash {row['cash']} · misery {row['misery']}", f"capital {row['capital']}",
             f"fleet {row['fleet']} · stock {row['stock']}", f"hand {row['hand_size']} cards{place}"]
    for number, line in enumerate(lines):
        svg.text(summary, x + 8, y + 40 + number * 15, fit(line, spec["w"] - 16, 11), 11)
    top = y + 40 + len(lines) * 15
    box, cols = spec["advance_box"], spec["advance_cols"]
    for number, advance in enumerate(advances):
        has = advance.id in owned
        bx, by = x + 8 + (number % cols) * (box + 1), top + (number // cols) * (box + 1)
        title = f"{advance.letter} {advance.name}: {'bought' if has else 'not bought'}"
        svg.rect(title, bx, by, box, box, fill=colour if has else "#ffffff", stroke="#666")
        svg.text(title, bx + box / 2, by + box - 4, advance.letter, 9, text_anchor="middle",
                 font_weight="bold" if has else None, fill="#000" if has else "#999")
    if row["hand"]:
        hy = top + 2 * (box + 1) + 18
        svg.text("your hand", x + 8, hy, "Hand:", 11, font_weight="bold")
        for number, card in enumerate(row["hand"]):
            line = f"{card['label']} {card['name']}"
            svg.text(line, x + 8, hy + 15 * (number + 1), fit(line, spec["w"] - 16, 10), 10)
    svg.close()


def draw(model: dict[str, Any], layout: dict[str, Any]) -> str:
    view, shown, header = model["view"], model[model["header"]["ruleset"]], model["header"]
    catalog = rulesets.catalog_for(header["ruleset"])
    size = layout["size"]
    title = f"{header['game']} seq {header['seq']}"
    svg = Svg(size["w"], size["h"], title)
    seats = _colours(layout, list(view["seats"]))
    who = f" · for {model['viewer']}" if model["viewer"] else ""
    svg.text(title, layout["title"]["x"], layout["title"]["y"],
             f"{header['game']} · seq {header['seq']} · epoch {shown['epoch']} · turn {shown['turn']} · "
             f"{shown['phase']}{who}", 15, font_weight="bold")
    for rid, box in layout["regions"].items():
        name = catalog.regions[rid].name
        svg.open(f"area {name}", id=f"region-{rid}")
        svg.rect(f"area {name}", box["x"], box["y"], box["w"], box["h"], rx=6, fill="#efe8d6", stroke="#888")
        svg.text(f"area {name}", box["x"] + 6, box["y"] + 14, f"Area {name}", 11, font_weight="bold")
        svg.close()
    capitals = {data["capital"]: pid for pid, data in view["players"].items() if data.get("capital")}
    for pid, spot in layout["provinces"].items():
        _province(svg, pid, spot, catalog, view["provinces"].get(pid, {}), seats, capitals)
    for sid, spot in layout["seas"].items():
        record = view["provinces"].get(sid, {})
        held = ", ".join(f"{p} {n}" for p, n in record.get("tokens", {}).items())
        label = catalog.seas[sid]
        title = f"{label} (sea zone)" + (f": {held}" if held else "")
        svg.open(title, id=f"sea-{sid}")
        svg.rect(title, spot["x"], spot["y"], spot["w"], spot["h"], rx=10, fill="#cfe3f2", stroke="#5a7fa0")
        svg.text(title, spot["x"] + spot["w"] / 2, spot["y"] + 18, fit(spot["label"], spot["w"] - 8, 10), 10,
                 text_anchor="middle")
        svg.close()
    order = list(shown["order"])
    status = [f"order: {', '.join(order) or 'not yet set'}",
              f"wars: {', '.join(shown['wars']) or 'none'}",
              f"markets: {', '.join(shown['markets']) or 'all clear'}",
              f"deck {shown['deck_size']}"]
    line = " · ".join(status)
    svg.text(line, layout["status"]["x"], layout["status"]["y"], fit(line, size["w"] - 40, 11), 11)
    for index, row in enumerate(shown["players"]):
        data = view["players"][row["id"]]
        owned = set(data["advances"]) | set(data["new_advances"])
        _panel(svg, index, row, layout, seats[row["id"]], owned, order, list(catalog.advances.values()))
    return svg.render()
