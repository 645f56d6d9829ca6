"""A tax answered out of turn through signed blocks (issue 5, F4): the taxing player's block
stops, `status` and `options` name the concession's owner, the owner's block answers `pay`,
`repress` or a standing answer, and the taxing player goes on with their next block.

The game is set up by the CLI and then adjusted in its file (a tax card for the player to act,
a concession for another bank), so `verify` is not run here: the adjustment is not in the log.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from pbem.play.scenarios.pax import take_card
from pbem.store.gamefile import state_hash
from tests import fast_yaml
from tests.pbem.test_cli import acting, game, run, signed, status

__all__ = ["game"]  # the fixture, re-exported for pytest

BLACK_ARMY = "PREN066"  # Hungary: tax, siege, inquisitor reformist
BASHI_BAZOUK = "PREN069"  # the East: tax


def set_up_tax(game: Path, cards: list[str]) -> tuple[str, str]:
    """Give the acting bank tax cards in the East and another bank a concession on the
    Hungary-Ottoman border; returns (taxer, owner)."""
    data = fast_yaml.safe_load(game.read_text())
    state = data["state"]
    taxer = acting(game)
    owner = next(bank for bank in state["order"] if bank != taxer)
    for card_id in cards:
        take_card(state, card_id)
        state["players"][taxer]["east"].append(card_id)
    state["borders"]["border_hungary_ottoman"] = {"concession": f"pawn:{owner}"}
    state["borders"] = dict(sorted(state["borders"].items()))
    state["cities"].pop("buda", None)  # two empty cities in Hungary: a real levy choice
    state["players"][owner]["florins"] = 5
    # A set-up edit: the setup entry must name the edited state, as the file's tail is checked.
    data["log"][-1]["post_state"] = state_hash(data["game"], data["seq"], state, data["agenda"])
    game.write_text(yaml.safe_dump(data, sort_keys=False))
    return taxer, owner


def options(game: Path) -> dict[str, Any]:
    code, out, _ = run("options", str(game), "--json")
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def apply(game: Path, lines: list[str], player: str) -> str:
    code, out, err = run("apply", str(game), str(signed(game, lines, player=player)))
    assert code == 0, err
    return out


def tax_and_wait(game: Path) -> tuple[str, str]:
    taxer, owner = set_up_tax(game, [BLACK_ARMY])
    apply(game, ["ops east", "op black army tax hungary-ottoman"], taxer)
    now = status(game)
    assert now["waiting_for"] == [owner]
    assert "the tax on their concession" in str(now["decision"])
    menu = options(game)
    assert menu["player"] == owner
    assert {"pay", "repress", "standing taxed pay 3"} <= set(menu["lines"])
    code, out, _ = run("report", str(game), "--for", owner)
    assert code == 0 and "pay" in out and "repress" in out
    return taxer, owner


def test_tax_answered_by_paying(game: Path) -> None:
    taxer, owner = tax_and_wait(game)
    code, _, err = run("apply", str(game), str(signed(game, ["pay"], player=taxer)))
    assert code == 4 and f"it is not {taxer}'s decision" in err
    apply(game, ["pay"], owner)
    menu = options(game)
    assert menu["player"] == owner and set(menu["lines"]) == {"levy buda", "levy varna"}
    apply(game, ["levy varna"], owner)
    assert status(game)["waiting_for"] == [taxer]
    state = fast_yaml.safe_load(game.read_text())["state"]
    assert state["players"][owner]["florins"] == 4
    assert state["borders"]["border_hungary_ottoman"] == {"concession": f"pawn:{owner}"}
    assert state["cities"]["varna"] == "knight:reformist"
    apply(game, ["end"], taxer)
    assert status(game)["waiting_for"] != [taxer]


def test_tax_answered_by_repressing(game: Path) -> None:
    taxer, owner = tax_and_wait(game)
    apply(game, ["repress", "levy buda"], owner)
    assert status(game)["waiting_for"] == [taxer]
    state = fast_yaml.safe_load(game.read_text())["state"]
    assert "border_hungary_ottoman" not in state["borders"]
    assert state["empires"]["hungary"]["repressed"] == [f"pawn:{owner}"]
    assert state["players"][owner]["florins"] == 5


def test_owner_lines_after_the_levy_are_rejected(game: Path) -> None:
    _, owner = tax_and_wait(game)
    before = game.read_bytes()
    code, _, err = run("apply", str(game), str(signed(game, ["pay", "levy buda", "end"],
                                                       player=owner)))
    assert code == 1 and "line 3: 'end': control has passed" in err
    assert game.read_bytes() == before


def test_standing_answer_takes_effect(game: Path) -> None:
    """The owner answers the first tax with a standing answer, which also places the levy
    (first empty city in map order); the second tax of the same action is answered by it at
    once, and the taxer's block runs on."""
    taxer, owner = set_up_tax(game, [BLACK_ARMY, BASHI_BAZOUK])
    apply(game, ["ops east", "op black army tax hungary-ottoman"], taxer)
    assert status(game)["waiting_for"] == [owner]
    apply(game, ["standing taxed pay 3"], owner)
    state = fast_yaml.safe_load(game.read_text())["state"]
    assert state["players"][owner]["standing"] == {"taxed": "pay 3"}
    assert state["players"][owner]["florins"] == 4
    assert state["cities"]["buda"] == "knight:catholic"
    assert status(game)["waiting_for"] == [taxer]
    out = apply(game, ["op bashi-bazouk tax hungary-ottoman in hungary", "end"], taxer)
    assert "pays 1 florin" in out
    state = fast_yaml.safe_load(game.read_text())["state"]
    assert state["players"][owner]["florins"] == 3
    assert state["cities"]["varna"] == "knight:reformist"
    assert status(game)["waiting_for"] != [taxer]


def test_victory_ends_the_game_in_status_and_reports(game: Path) -> None:
    """E6/L4 through the CLI: the declaration ends the game; `status` shows it over with the
    winner and the reason, and the final report announces them."""
    data = fast_yaml.safe_load(game.read_text())
    state = data["state"]
    bank = acting(game)
    state["victory"]["imperial"] = "active"
    for empire in ("france", "england"):
        state["empires"][empire]["ruler"] = bank
        state["players"][bank]["west"].append(f"empire_square_{empire}")
    data["log"][-1]["post_state"] = state_hash(data["game"], data["seq"], state, data["agenda"])
    game.write_text(yaml.safe_dump(data, sort_keys=False))
    assert "victory imperial" in options(game)["lines"]
    apply(game, ["victory imperial"], bank)
    now = status(game)
    assert now["over"] is True and now["winners"] == [bank] and now["waiting_for"] == []
    assert now["result"] == {"kind": "imperial", "detail": "with 2 Kings"}
    code, out, _ = run("report", str(game))
    assert code == 0 and f"{bank.title()}" in out and "imperial victory, with 2 Kings" in out
    code, _, err = run("apply", str(game), str(signed(game, ["end"], player=bank)))
    assert code == 4 and "the game is over" in err
