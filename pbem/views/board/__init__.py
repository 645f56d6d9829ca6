"""The board as one self-contained SVG (`pbem map`), drawn from the report model and a layout file."""

from __future__ import annotations

from functools import cache
from typing import Any

from pbem import rulesets
from pbem.pipeline.game import Game
from pbem.resources import ruleset_sources
from pbem.views.board.past import at_seq
from pbem.views.model import report_model


@cache
def layout_for(name: str) -> dict[str, Any]:
    """games/<ruleset>/layout.yaml: every coordinate the drawing uses (read once; the drawers
    only read it)."""
    data: dict[str, Any] = ruleset_sources(name, ["layout"])["layout"]
    return data


def draw(game: Game, viewer: str | None, seq: int | None = None) -> str:
    """The SVG of the board as `viewer` (None: the public) may see it: the report's own model,
    after log entry `seq` (default: now)."""
    if seq is not None:
        game = at_seq(game, seq)
    return draw_model(report_model(game, viewer))


def draw_model(model: dict[str, Any]) -> str:
    """The SVG of a report model: the picture shows what that report's reader may see."""
    name = str(model["header"]["ruleset"])
    svg: str = rulesets.board_drawer(name)(model, layout_for(name))
    return svg
