"""The Age of Renaissance report rows: the ruleset's view (ids) turned into display rows with
names, for templates/aor. Templates never see the state or the catalog; everything they show is
here, already filtered by engine.aor.view (and, in open games, every hand, since anyone can
compute them from the seed)."""

from __future__ import annotations

from typing import Any

from engine.aor.catalog import Catalog
from engine.core.table import Table

DECISIONS_SEALED = {"capital_bid": "capital bid", "tokens": "token purchase"}


def _who(pid: str | None) -> str:
    return str(pid) if pid else "nobody"


def _tokens(counts: dict[str, int]) -> str:
    return ", ".join(f"{p} {n}" for p, n in sorted(counts.items()) if n)


def map_rows(catalog: Catalog, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every province holding a marker or tokens, by region then name."""
    rows = []
    for pid, record in view["provinces"].items():
        province = catalog.provinces[pid]
        tokens = _tokens(record.get("tokens", {}))
        new = _tokens(record.get("new", {}))
        if not (record.get("marker") or tokens or new):
            continue
        rows.append({
            "province": province.name, "region": catalog.regions[province.region].name,
            "market": province.market, "marker": record.get("marker") or "",
            "tokens": tokens, "new": new,
            "commodities": ", ".join(catalog.commodities[c].name for c in province.commodities),
        })
    return sorted(rows, key=lambda r: (r["region"], r["province"]))


def player_rows(catalog: Catalog, view: dict[str, Any],
                hands: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    rows = []
    order = list(view["order"]) + sorted(set(view["players"]) - set(view["order"]))
    for pid in order:
        data = view["players"][pid]
        capital = data["capital"]
        fleet = data["fleet"]
        advances = sorted(data["advances"]) + sorted(data["new_advances"])
        hand = hands.get(pid)
        rows.append({
            "id": pid,
            "capital": catalog.provinces[capital].name if capital else "-",
            "cash": data["cash"], "misery": data["misery"], "stock": data["stock"],
            "purchased": data["purchased"],
            "fleet": "none" if fleet["stage"] == "none" else f"{fleet['stage']} {fleet['box']}",
            "fleet_stage": fleet["stage"], "fleet_box": fleet["box"],  # the same, as data
            "advances": [f"{catalog.advances[a].letter} {catalog.advances[a].name}"
                         for a in advances],
            "hand_size": data["hand_size"], "eliminated": data["eliminated"],
            "hand": None if hand is None else [
                {"label": label, "name": catalog.cards[card].name}
                for label, card in sorted(hand.items())],
        })
    return rows


def pending_text(view: dict[str, Any]) -> dict[str, Any] | None:
    pending = view.get("pending")
    if not pending:
        return None
    if "players" not in pending:
        return {"parallel": False, "sealed": False, "received": [], "waiting": [pending["player"]],
                "what": pending["action"], "your_answer": None, "commit": None, "opened": []}
    what = DECISIONS_SEALED.get(pending["action"], pending["action"])
    return {"parallel": True, "sealed": pending["sealed"], "received": pending["answered"],
            "waiting": pending["waiting_for"], "what": what,
            "your_answer": pending.get("your_answer"), "commit": pending.get("commit"),
            "opened": pending.get("opened", [])}


def display(catalog: Catalog, view: dict[str, Any], hands: dict[str, dict[str, str]],
            open_game: bool) -> dict[str, Any]:
    """The model under `aor` in a report: rows to print, names instead of ids."""
    market_rows = [{"commodity": catalog.commodities[c].name,
                    "state": "shortage" if n > 0 else "surplus", "count": abs(n)}
                   for c, n in sorted(view["markets"].items())]
    markets = [f"{r['commodity']} {r['state']} {r['count']}" for r in market_rows]
    result = view.get("result") or {}
    return {
        "turn": view["turn"], "phase": view["phase"].replace("_", " "), "epoch": view["epoch"],
        "order": list(view["order"]), "map": map_rows(catalog, view),
        "players": player_rows(catalog, view, hands), "markets": markets,
        "market_rows": market_rows,  # the markets as data (a translated report's words)
        "deck_size": view["deck_size"], "removed": len(view["removed"]),
        "reusable": len(view["reusable"]), "wars": [f"{a} v {b}" for a, b in view["wars"]],
        "pending": pending_text(view), "open": open_game,
        "over": bool(view["over"]), "winners": list(view["winners"]),
        "scores": [f"{p} {s}" for p, s in (result.get("scores") or {}).items()],
    }


def for_reader(t: Table, view: dict[str, Any], viewer: str | None, hands_open: bool
               ) -> dict[str, Any]:
    """The rows a reader sees: their own hand, or every hand in an open game."""
    players = t.state["players"]
    shown = [p for p in players if hands_open or p == viewer]
    hands = {p: dict(players[p]["hand"]) for p in shown if isinstance(players[p].get("hand"), dict)}
    return display(t.catalog, view, hands, hands_open)
