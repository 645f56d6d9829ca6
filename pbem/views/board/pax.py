"""Pax Renaissance: empires West to East, cities and borders, the market rows, each bank's tableau."""

from __future__ import annotations

from typing import Any

from pbem.views.board.svg import Svg, fit

EMPTY = "#ffffff"


def _bank(palette: dict[str, Any], bank: str | None) -> tuple[str, str]:
    found = palette["banks"].get(bank or "", {"colour": "#999999", "letter": (bank or "?")[:2].title()})
    return str(found["colour"]), str(found["letter"])


def _token(svg: Svg, palette: dict[str, Any], token: str, x: float, y: float, r: float,
           where: str) -> None:
    """A token named "catholic knight": its religion's colour and letter, its kind's shape."""
    religion, _, kind = token.partition(" ")
    colour = palette["religions"].get(religion, {"colour": "#999999", "letter": "?"})
    svg.shape(f"{token} in {where}", palette["tokens"].get(kind, "circle"), x, y, r,
              colour["colour"], colour["letter"])


def _cities(empire: dict[str, Any], layout: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each city of the view with its layout id: the view's city id, else (a view saved before
    it named ids) the same empire and name, in layout order."""
    free = [(cid, spot) for cid, spot in layout["cities"].items() if spot["empire"] == empire["id"]]
    matched = []
    for city in empire["cities"]:
        for index, (cid, spot) in enumerate(free):
            if (cid == city["id"]) if "id" in city else (spot["name"] == city["name"]):
                matched.append((cid, {**spot, **city}))
                del free[index]
                break
    return matched


def _empire(svg: Svg, empire: dict[str, Any], layout: dict[str, Any], palette: dict[str, Any]) -> None:
    box = layout["empires"][empire["id"]]
    x, y, w, h = box["x"], box["y"], box["w"], box["h"]
    ruler = empire["ruler"]
    owner = None if ruler == "throne" else ruler
    colour, letter = _bank(palette, owner)
    religion = empire["religion"]
    belief = religion if religion == "medieval" else f"{religion} theocracy"
    vassal = empire.get("suzerain")
    status = [empire["side"], belief, f"in {owner}'s tableau" if owner else "on its throne"]
    if vassal:
        status.append(f"vassal of {vassal}")
    summary = f"{empire['name']}: {', '.join(status)}; {empire['square']}"
    svg.open(summary, id=f"empire-{empire['id']}")
    svg.rect(summary, x, y, w, h, rx=6, fill="#f3ecd9" if empire["region"] == "west" else "#e9efe4",
             stroke=colour if owner else "#777", stroke_width=4 if owner else 1.5)
    svg.text(summary, x + 8, y + 17, fit(empire["name"], w - 60, 14), 14, font_weight="bold")
    if owner:
        svg.shape(f"in {owner}'s tableau", "square", x + w - 20, y + 13, 9, colour, letter)
    rel = palette["religions"].get(religion, {"letter": "?"})["letter"]
    line = f"{empire['side'].title()} · {belief} ({rel})" + (f" · vassal of {vassal}" if vassal else "")
    svg.text(summary, x + 8, y + 34, fit(line, w - 16, 11), 11)
    svg.text(summary, x + 8, y + 50, fit(empire["square"], w - 16, 10), 10, font_style="italic")
    if empire["repressed"]:
        svg.text("repressed: " + ", ".join(empire["repressed"]), x + 8, y + 66,
                 fit("repressed: " + ", ".join(empire["repressed"]), w - 16, 10), 10)
    if empire.get("bishop"):
        svg.shape(f"{empire['bishop']} bishop on {empire['name']}", "circle", x + w - 44, y + 13, 8,
                  "#dddddd", "B")
    for cid, city in _cities(empire, layout):
        _city(svg, cid, city, palette, empire["name"])
    svg.close()


def _city(svg: Svg, cid: str, city: dict[str, Any], palette: dict[str, Any], empire: str) -> None:
    cx, cy = city["x"], city["y"]
    state = "busted" if city["busted"] else (city["token"] or "empty")
    fair = f"; {city['fair']} trade fair emporium" if city.get("fair") else ""
    title = f"{city['name']} ({empire}){' capital' if city['capital'] else ''}: {state}" \
            f"{'; levy ' + city['levy'] if city.get('levy') else ''}{fair}"
    svg.open(title, id=f"city-{cid}")
    ring = "#333" if not city.get("fair") else ("#222" if city["fair"] == "east" else "#888")
    svg.add("circle", title, cx=cx, cy=cy - 12, r=17, fill="#cccccc" if city["busted"] else EMPTY,
            stroke=ring, stroke_width=3 if city["capital"] else 1, stroke_dasharray="3 2" if
            city.get("fair") else None)
    if city["token"]:
        _token(svg, palette, city["token"], cx, cy - 12, 10, city["name"])
    elif city["busted"]:
        svg.text(title, cx, cy - 8, "×", 14, text_anchor="middle")
    if city.get("fair"):
        svg.text(title, cx + 13, cy - 26, city["fair"][0].upper(), 9, font_weight="bold")
    svg.text(title, cx, cy + 16, city["label"], 9, text_anchor="middle")
    svg.close()


def _border(svg: Svg, bid: str, spot: dict[str, Any], border: dict[str, Any],
            palette: dict[str, Any]) -> None:
    bank = border.get("concession")
    colour, letter = _bank(palette, bank) if bank else (EMPTY, "")
    kind = "sea" if spot["sea"] else "land"
    title = f"{border['name']} ({kind} border): " + \
        (f"{bank}'s concession" if bank else "no concession") + \
        (f"; {border['pirate']}" if border.get("pirate") else "")
    svg.open(title, id=f"border-{bid}")
    x, y = spot["x"], spot["y"]
    svg.rect(title, x - 11, y - 22, 22, 44, rx=3, fill="#cfe3f2" if spot["sea"] else "#e0d4b8",
             stroke="#555", stroke_dasharray="2 2" if spot["sea"] else None)
    if bank:
        svg.shape(title, "square", x, y - 9, 8, colour, letter)
    if border.get("pirate"):
        _token(svg, palette, str(border["pirate"]), x, y + 11, 8, border["name"])
    svg.close()


def _card(svg: Svg, card: dict[str, Any] | None, x: float, y: float, w: float, h: float,
          title: str, top: str) -> None:
    if card is None:
        svg.open(title)
        svg.rect(title, x, y, w, h, rx=5, fill="#ddd", stroke="#777")
        svg.text(title, x + 6, y + 15, fit(top, w - 12, 10), 10)
        svg.close()
        return
    comet = card["kind"] == "comet"
    full = f"{title}: {card['name']} ({card['kind']}, {card['location']})" + \
        (f", prestige {', '.join(card['prestige'])}" if card["prestige"] else "") + \
        (f", {card['bishop']} bishop on it" if card.get("bishop") else "")
    svg.open(full)
    svg.rect(full, x, y, w, h, rx=5, fill="#fff3c4" if comet else "#ffffff",
             stroke="#b8860b" if comet else "#666", stroke_width=3 if comet else 1)
    svg.text(full, x + 6, y + 14, fit(top + (" · comet" if comet else ""), w - 30, 10), 10,
             font_weight="bold")
    words, size = card["name"], 11 if h > 70 else 9
    svg.text(full, x + 6, y + 14 + size * 1.5, fit(words, w - 12, size), size)
    if h > 45:
        svg.text(full, x + 6, y + 14 + size * 2.9, fit(card["location"], w - 12, 9), 9, fill="#444")
    if card["prestige"]:
        svg.text(full, x + 6, y + h - 6, fit(" ".join(p[:4] for p in card["prestige"]), w - 40, 9), 9)
    if comet:
        svg.shape(full, "diamond", x + w - 14, y + 14, 7, "#b8860b", "☄")
    if card.get("bishop"):
        svg.shape(full, "circle", x + w - 12, y + h - 12, 7, "#dddddd", "B")
    svg.close()


def _market(svg: Svg, view: dict[str, Any], layout: dict[str, Any]) -> None:
    spec = layout["market"]
    for side, y in spec["rows"].items():
        title = f"{side} market row ({view['decks'][side]} cards in the deck)"
        svg.text(title, spec["x"], y + 20, side.title(), 14, font_weight="bold")
        svg.text(title, spec["x"], y + 38, f"deck {view['decks'][side]}", 10)
        for slot in view["market"][side]:
            x = spec["x"] + spec["label_w"] + slot["column"] * spec["step"]
            florins = f", {slot['florins']} florins on it" if slot["florins"] else ""
            top = f"cost {slot['cost']}" + (f" · {slot['florins']}ƒ on it" if slot["florins"] else "")
            where = f"{side} row, column {slot['column'] + 1} (cost {slot['cost']}{florins})"
            if slot["empty"] or not slot["face_up"]:
                _card(svg, None, x, y, spec["card_w"], spec["card_h"], where,
                      top + (" · empty" if slot["empty"] else " · face down"))
            else:
                _card(svg, slot["card"], x, y, spec["card_w"], spec["card_h"], where, top)


def _banks(svg: Svg, view: dict[str, Any], layout: dict[str, Any], palette: dict[str, Any]) -> None:
    spec = layout["banks"]
    for row, data in enumerate(view["players"]):
        bank = data["bank"]
        y = spec["y"] + row * spec["h"]
        colour, letter = _bank(palette, bank)
        prestige = ", ".join(f"{k} {v}" for k, v in data["prestige"].items() if v)
        summary = f"{bank}: {data['florins']} florins, hand {data['hand_size']}, " \
                  f"{data['concessions']} concessions" + (f", prestige {prestige}" if prestige else "")
        svg.open(summary, id=f"bank-{bank}")
        svg.rect(summary, spec["x"], y, spec["label_w"], spec["chip_h"], rx=5, fill="#fff",
                 stroke=colour, stroke_width=3)
        svg.shape(summary, "square", spec["x"] + 14, y + 14, 9, colour, letter)
        turn = " (to act)" if view["turn"]["player"] == bank else ""
        svg.text(summary, spec["x"] + 28, y + 19, fit(bank.title() + turn, spec["label_w"] - 34, 13), 13,
                 font_weight="bold")
        svg.text(summary, spec["x"] + 8, y + 36,
                 f"{data['florins']}ƒ · hand {data['hand_size']} · {data['concessions']} conc.", 10)
        svg.text(summary, spec["x"] + 8, y + 52, fit(prestige or "no prestige", spec["label_w"] - 16, 9), 9)
        cards = [("W", c) for c in data["west"]] + [("E", c) for c in data["east"]]
        if data.get("hand"):
            cards += [("hand", c) for c in data["hand"]]
        room = int((layout["size"]["w"] - spec["x"] - spec["label_w"] - 10) // spec["step"])
        for index, (side, card) in enumerate(cards[:room]):
            x = spec["x"] + spec["label_w"] + 8 + index * spec["step"]
            _card(svg, card, x, y, spec["chip_w"], spec["chip_h"], f"{bank} {side}", side)
        if len(cards) > room:
            svg.text(f"{len(cards) - room} more cards", layout["size"]["w"] - 60, y + 70,
                     f"+{len(cards) - room}", 10)
        svg.close()


def draw(model: dict[str, Any], layouts: dict[str, Any]) -> str:
    view, header = model["view"], model["header"]
    layout = layouts["maps"][view["options"]["map"]]
    palette = layouts["palette"]
    size = layout["size"]
    title = f"{header['game']} seq {header['seq']}: map {view['options']['map']}"
    svg = Svg(size["w"], size["h"], title)
    who = f" · for {model['viewer']}" if model["viewer"] else ""
    svg.text(title, layout["title"]["x"], layout["title"]["y"],
             f"{header['game']} · seq {header['seq']} · turn {view['turn']['number']} "
             f"({view['turn']['player']} to act) · map {view['options']['map']}{who}", 15, font_weight="bold")
    vic = layout["victory"]
    for index, square in enumerate(vic["squares"]):
        state = view["victory"].get(square, "inactive")
        x = vic["x"] + index * vic["step"]
        svg.open(f"{square} victory: {state}", id=f"victory-{square}")
        svg.rect(f"{square} victory: {state}", x, vic["y"], vic["w"], vic["h"], rx=4,
                 fill="#ffe9a8" if state != "inactive" else "#eeeeee", stroke="#777")
        svg.text(f"{square} victory: {state}", x + 6, vic["y"] + 17,
                 fit(f"{square}: {state}", vic["w"] - 12, 11), 11)
        svg.close()
    for empire in view["map"]:
        _empire(svg, empire, layout, palette)
    seen: set[str] = set()
    for empire in view["map"]:
        for border, bid in zip(empire["borders"], layout_borders(layout, empire["id"]), strict=False):
            if bid not in seen:
                seen.add(bid)
                _border(svg, bid, layout["borders"][bid], border, palette)
    routes = view["routes"]
    line = "  ·  ".join(f"{side.title()} fair at {r['emporium']}: {', '.join(r['empires'])}"
                        for side, r in routes.items())
    svg.text("trade routes: " + line, layout["routes"]["x"], layout["routes"]["y"],
             fit(line, size["w"] - 40, 10), 10)
    _market(svg, view, layout)
    _banks(svg, view, layout, palette)
    return svg.render()


def layout_borders(layout: dict[str, Any], empire: str) -> list[str]:
    """The borders of an empire in the order the view lists them (the map data's order)."""
    borders: list[str] = layout["empires"][empire]["borders"]
    return borders
