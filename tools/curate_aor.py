"""Curate shared/reference/age-of-renaissance/board.yaml into games/aor/board.yaml (run by hand).

The reference is a transcription of the printed board. We keep the facts the engine reads, give
every space a snake_case id, keep adjacency only as canonical edge lists, and apply the board
rulings of docs/aor-rulings.md:

- R23: Loire keeps its market but has no commodity (its printed Wine is kept apart, for an option);
- R24: the five overseas boxes are coastal provinces without neighbours;
- R27: a province with two coasts lists them, and ships may not pass from one to the other.

The printed Commodity Log is checked against the provinces and then dropped (it is derivable);
commodity values live in games/aor/tables.yaml with the other printed tables.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

HEADER = """\
# Age of Renaissance (Avalon Hill, 1996): the board as facts.
# Curated by tools/curate_aor.py from shared/reference/age-of-renaissance/board.yaml
# (itself transcribed from github.com/pjsavola/aor map.dat and checked against the board scan).
# Rulings applied (docs/aor-rulings.md): R23 Loire has no commodity; R24 the overseas boxes are
# coastal; R27 ships cannot pass between the two coasts of a province.
# Ids are snake_case forms of the board's own spelling. Adjacency is given once per pair.
"""

OVERSEAS = {
    "Orient": {"id": "orient", "name": "Orient", "overseas": True,
               "entry_requires": ["ocean_navigation"]},
    "New World": {"id": "new_world", "name": "New World", "overseas": True,
                  "entry_requires": ["ocean_navigation", "new_world"]},
}
ENTRY_REQUIRES = {"V": ["overland_east"]}


def ident(name: str) -> str:
    return name.lower().replace(".", "").replace("/", "_").replace(" ", "_")


def _pairs(pairs: list[list[str]]) -> list[list[str]]:
    return sorted(sorted([ident(a), ident(b)]) for a, b in pairs)


def _check_log(ref: dict[str, Any]) -> None:
    """Every province commodity except Loire's is on the printed log, and nothing else is."""
    on_board = sorted((c, p["name"]) for p in ref["provinces"] for c in p["commodities"]
                      if p.get("on_commodity_log", True))
    on_log = sorted((c, name) for c, rows in ref["commodity_log"].items() for _, name in rows)
    if on_board != on_log:
        raise SystemExit(f"commodity log mismatch: {sorted(set(on_board) ^ set(on_log))}")


def _province(raw: dict[str, Any]) -> dict[str, Any]:
    region = ident(raw["region"]) if raw["region"] else OVERSEAS[raw["zone"]]["id"]
    out: dict[str, Any] = {
        "id": ident(raw["name"]),
        "name": raw["name"],
        "region": region,
        "market": raw["market"],
        "commodities": [c.lower() for c in raw["commodities"]],
        "capital": raw["capital"] is not None,
        "satellite": raw["satellite"],
        "coastal": raw["coastal"] or raw["overseas"],  # R24
    }
    if raw["satellite"]:
        out["supports"] = sorted(ident(s) for s in raw["supports"])
    if not raw.get("on_commodity_log", True):  # R23
        out["printed_commodity"] = out["commodities"][0]
        out["commodities"] = []
    if "coasts" in raw:  # R27
        out["coasts"] = [
            {"coastal": sorted(ident(n) for n in coast["coastal_neighbors"]),
             "seas": sorted(ident(s) for s in coast["seas"])}
            for coast in raw["coasts"]
        ]
    return out


def curate(ref: dict[str, Any]) -> dict[str, Any]:
    _check_log(ref)
    regions: list[dict[str, Any]] = [
        {"id": ident(r), "name": r, "overseas": False, "entry_requires": ENTRY_REQUIRES.get(r, [])}
        for r in ref["regions"]
    ]
    regions += list(OVERSEAS.values())
    adjacency = ref["adjacency"]
    return {
        "schema_version": 1,
        "source": {"reference": "shared/reference/age-of-renaissance/board.yaml",
                   "repository": ref["source"]["repository"], "commit": ref["source"]["commit"]},
        "regions": regions,
        "sea_zones": [{"id": ident(s["name"]), "name": s["name"]} for s in ref["sea_zones"]],
        "provinces": [_province(p) for p in ref["provinces"]],
        "adjacency": {
            "land": _pairs(adjacency["land"]),
            "coastal": _pairs(adjacency["coastal_water"]),
            "province_sea": sorted([ident(p), ident(s)] for p, s in adjacency["province_sea"]),
            "sea_sea": _pairs(adjacency["sea_sea"]),
        },
    }


def _flow(value: Any) -> str:
    text = yaml.safe_dump(value, sort_keys=False, default_flow_style=True, width=10_000)
    return text.removesuffix("...\n").strip()  # a bare scalar ends its document with "..."


def dump(board: dict[str, Any]) -> str:
    """One line per list entry, so a diff shows one space or one edge."""
    lines: list[str] = []
    for key, value in board.items():
        if isinstance(value, list):
            lines += [f"{key}:"] + [f"  - {_flow(item)}" for item in value]
        elif key == "adjacency":
            lines.append(f"{key}:")
            for kind, pairs in value.items():
                lines += [f"  {kind}:"] + [f"    - {_flow(pair)}" for pair in pairs]
        else:
            lines.append(f"{key}: {_flow(value)}")
    return "\n".join(lines) + "\n"


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    default = root.parent / "shared/reference/age-of-renaissance/board.yaml"
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    ref = yaml.safe_load(source.read_text(encoding="utf-8"))
    text = dump(curate(ref))
    out = root / "games" / "aor" / "board.yaml"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(HEADER + text, encoding="utf-8")


if __name__ == "__main__":
    main()
