"""The agenda: pending decisions kept as data, so play can stop after any of them.

A node is a plain dict: {id, action, player, args}. The first node in the list is the next
pending decision; handlers put follow-ups in front of the node that caused them. Ids are
stable ("n17"), never list positions.

A parallel node is answered by several players, in any order: {id, action, players, answers,
args, sealed}. `answers` maps each player who has answered to the canonical line of their
answer; the node stays first until every player has answered, then the core removes it and the
action resolves all the answers together. A sealed node is a parallel node whose answers must
stay secret until all are in (views show only who has answered); with the option
`sealing: commit` it is answered by commit and reveal (engine.core.sealing).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.core import sealing

Node = dict[str, Any]


def new_node(state: dict[str, Any], action: str, player: str, **args: Any) -> Node:
    """A fresh node with the next stable id taken from the state's counter."""
    state["next_node"] = int(state.get("next_node", 0)) + 1
    return {"id": f"n{state['next_node']}", "action": action, "player": player, "args": args}


def new_parallel(
    state: dict[str, Any], action: str, players: Sequence[str], *, sealed: bool = False,
    **args: Any,
) -> Node:
    """A fresh parallel node: every player in `players` answers the same decision."""
    state["next_node"] = int(state.get("next_node", 0)) + 1
    node = {"id": f"n{state['next_node']}", "action": action, "players": list(players),
            "answers": {}, "args": args, "sealed": sealed}
    if sealed and sealing.uses_commit(state.get("options") or {}):
        node["seals"] = {}
    return node


def is_parallel(node: Node) -> bool:
    return "players" in node


def for_player(node: Node, player: str) -> Node:
    """The node as one player of a parallel node sees it: a copy with `player` set."""
    return {**node, "player": player}


def push_front(agenda: list[Node], nodes: Iterable[Node]) -> None:
    """Queue nodes to be answered next, in the order given."""
    agenda[0:0] = list(nodes)


def next_pending(agenda: list[Node]) -> Node | None:
    return agenda[0] if agenda else None


def waiting_for(agenda: list[Node]) -> list[str]:
    node = next_pending(agenda)
    if node is None:
        return []
    players = node.get("players")
    if sealing.is_committing(node):
        return sealing.owed(node)
    if players:
        answered = set(node.get("answers", {}))
        return [p for p in players if p not in answered]
    return [node["player"]]


def resolve(agenda: list[Node], node: Node) -> None:
    for index, candidate in enumerate(agenda):
        if candidate["id"] == node["id"]:
            del agenda[index]
            return
