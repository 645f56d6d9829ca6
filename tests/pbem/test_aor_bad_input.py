"""Bad input in Age of Renaissance through the pbem CLI (issue 8, "Bad input"): every rejection
is one stderr line starting with "error:" and its documented exit code, a rules rejection quotes
the numbered line and lists the legal lines, and the game file, the moderator's secrets file
and the draw count are left exactly as they were. Moderated and open games are both played
through the CLI to the states the cases need."""

from __future__ import annotations

import re
from pathlib import Path

from tests import fast_yaml
from tests.pbem.test_aor_cli import apply, lines_for, new_game, run, signed, status
from tests.pbem.test_aor_sealing import opening_block, sealed_block


def snapshot(game: Path) -> tuple[bytes, bytes | None]:
    """The game file and, beside it, the moderator's secrets file (None in an open game)."""
    seed = game.with_suffix(".seed")
    return game.read_bytes(), seed.read_bytes() if seed.exists() else None


def draws(game: Path) -> int:
    count: int = fast_yaml.safe_load(game.read_text())["state"]["draws"]
    return count


def refused(game: Path, block: Path, code: int, *needles: str) -> str:
    """Apply a block that must be refused with `code`; nothing on disk may change."""
    before, drawn = snapshot(game), draws(game)
    exit_code, out, err = apply(game, block)
    assert exit_code == code, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err, (needle, err)
    assert snapshot(game) == before and draws(game) == drawn
    return err


def rejected(game: Path, player: str, lines: list[str], code: int, *needles: str) -> str:
    return refused(game, signed(game, player, lines, "bad.txt"), code, *needles)


def rule_error(game: Path, player: str, lines: list[str], number: int, *needles: str) -> str:
    """A rules rejection (exit 1): names and quotes the line, lists the legal lines."""
    return rejected(game, player, lines, 1, f"line {number}: '{lines[number - 1]}': ",
                    "; legal: ", *needles)


def ok(game: Path, player: str, *lines: str) -> str:
    code, out, err = apply(game, signed(game, player, list(lines)))
    assert code == 0, err
    return out


def owed(game: Path) -> list[str]:
    return [str(p) for p in status(game)["waiting_for"]]  # type: ignore[attr-defined]


def advance(game: Path, until: str) -> str:
    """Answer pass / done / stabilize pay until the decision starts with `until`; its player."""
    while not str(status(game)["decision"]).startswith(until):
        player = owed(game)[0]
        legal = lines_for(game, player)
        ok(game, player, next(x for x in ("pass", "done", "stabilize pay") if x in legal))
    return owed(game)[0]


def hand(game: Path, player: str) -> dict[str, str]:
    """Label -> card name, from the player's report."""
    report = run("report", str(game), "--for", player)[1]
    section = report.split("YOUR HAND", 1)[1].split("\n\n", 1)[0]
    return dict(re.findall(r"^\s+\[(\w+)\] (.+)$", section, re.M))


def through_setup(game: Path, tokens: dict[str, int]) -> None:
    """A moderated game from the returns to turn 1 with these token purchases."""
    for player in ("ada", "ben", "cy"):
        ok(game, player, lines_for(game, player)[0])
    for player, bid in (("ada", 5), ("ben", 0), ("cy", 0)):
        ok(game, player, f"bid {bid}")
    while status(game)["decision"] == "choose their capital":
        player = owed(game)[0]
        ok(game, player, lines_for(game, player)[0])
    for player, n in tokens.items():
        ok(game, player, f"tokens {n}")


# --- the envelope and the opening decisions of a moderated game ------------------------------


def test_envelope_errors_and_setup_answers_in_a_moderated_game(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    assert game.with_suffix(".seed").exists()
    labels = hand(game, "ada")
    assert len(labels) == 3
    legal = [f"return {label}" for label in labels]
    assert sorted(lines_for(game, "ada")) == sorted(legal)
    name = next(iter(labels.values()))
    rule_error(game, "ada", [f"return {name}"], 1, *legal)  # a card name, not a label
    rule_error(game, "ada", ["frobnicate 3"], 1, "unknown order word 'frobnicate'", *legal)
    rule_error(game, "ada", ["buy the heavens"], 1, "not a legal 'buy' order now", *legal)
    err = rejected(game, "ada", [legal[0], legal[1]], 1, f"line 2: '{legal[1]}'")
    assert "control has passed to another player" in err

    block = signed(game, "ada", [legal[0]], "good.txt")
    text = block.read_text()
    unsigned = tmp_path / "unsigned.txt"
    unsigned.write_text(text.split("-----BEGIN PBEM SIGNATURE-----")[0]
                        + "-----END PBEM ORDERS-----\n")
    refused(game, unsigned, 3, "not signed")
    tampered = tmp_path / "tampered.txt"
    tampered.write_text(text.replace(legal[0], legal[1]))
    refused(game, tampered, 3, "bad signature")
    forged = tmp_path / "forged.txt"
    forged.write_text(text.replace("player: ada", "player: zed"))
    refused(game, forged, 3, "unknown player 'zed'")
    other = tmp_path / "other.txt"
    other.write_text(text.replace("game: g\n", "game: elsewhere\n"))
    refused(game, other, 4, "the block is for game 'elsewhere'")
    none = tmp_path / "none.txt"
    none.write_text("thanks, see you next turn\n")
    refused(game, none, 3, "no order block found")

    stale = signed(game, "ben", [lines_for(game, "ben")[0]], "stale.txt")  # seq 0
    assert apply(game, block)[0] == 0
    # ada's bid belongs to a decision not yet open: ben and cy still owe their returns
    rejected(game, "ada", ["bid 3"], 4, "ada has already answered this decision")
    assert apply(game, stale)[0] == 0  # seq 0 still fits while the returns are open
    ok(game, "cy", lines_for(game, "cy")[0])
    assert status(game)["seq"] == 3
    refused(game, stale, 4, "already applied as seq 2")  # sent again: applied before


def test_sealed_bids_and_turn_order_in_a_moderated_game(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    for player in ("ada", "ben", "cy"):
        ok(game, player, lines_for(game, player)[0])
    rule_error(game, "ada", ["bid 41"], 1, "a capital bid of 41 ducats is more than the "
               "40 ducats you hold (8.3)", "bid 0 | bid 1", "(and 29 more)")
    rule_error(game, "ada", ["bid -1"], 1, "cannot be negative")
    rule_error(game, "ada", ["capital Venice"], 1, "not a legal 'capital' order now", "bid 0")
    ok(game, "ada", "bid 5")
    rule_error(game, "ada", ["bid 41"], 1, "more than the 40 ducats")  # a replacing bid too
    ok(game, "ben", "bid 0")
    ok(game, "cy", "bid 0")
    assert owed(game) == ["ada"] and status(game)["decision"] == "choose their capital"
    rejected(game, "cy", ["capital Genoa"], 4, "it is not cy's decision now: waiting for ada")
    rule_error(game, "ada", ["capital Paris"], 1, "capital Venice | capital Genoa")


def test_a_line_after_a_draw_and_illegal_turn_one_orders(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    through_setup(game, {"ada": 10, "ben": 10})
    rule_error(game, "cy", ["tokens 41"], 1, "tokens 41 costs 41 ducats and you hold 40",
               "legal: tokens -40 | tokens -39", "(and 69 more)")
    # cy's bid is the last: it opens every bid and the turn begins with card draws (9.1)
    rejected(game, "cy", ["tokens 2", "pass"], 1, "line 1: 'tokens 2'", "must be the last line")
    assert status(game)["received"] == ["ada", "ben"]
    drawn = draws(game)
    assert "draws a card (9.1)" in ok(game, "cy", "tokens 2")
    assert draws(game) > drawn

    assert owed(game) == ["cy"] and status(game)["decision"] == "play a card, or pass"
    rejected(game, "ada", ["pass"], 4, "it is not ada's decision now: waiting for cy")
    ok(game, "cy", "pass")
    assert "play Papal Decree" in lines_for(game, "ben")
    ok(game, "ben", "play Papal Decree")
    groups = lines_for(game, "ben")
    assert groups == ["group science", "group religion", "group exploration"]
    err = rejected(game, "ben", ["group ion"], 1, "line 1: 'group ion'", "could mean any of these",
                   "legal: group religion | group exploration")  # an ambiguous name
    assert "group science" not in err
    ok(game, "ben", "group science")
    advance(game, "raise their fleet")
    assert owed(game) == ["cy"] and "buy Caravan" in lines_for(game, "cy")
    rule_error(game, "cy", ["buy The Heavens"], 1, "Papal Decree bars science Advances to cy",
               "buy Caravan", "done")
    rule_error(game, "cy", ["buy Wind/Watermill"], 1, "Wind/Watermill needs Caravan first")
    rule_error(game, "cy", ["buy Windmill"], 1, "no Advance is called 'windmill'")
    rule_error(game, "cy", ["stabilize pay"], 1, "not a legal 'stabilize' order now")

    assert advance(game, "place tokens") == "cy"
    rule_error(game, "cy", ["place 1 London"], 1, "London is out of cy's reach",
               "place 1 Milan", "done")
    rule_error(game, "cy", ["place 3 Rome"], 1, "cy may place 1 to 2 tokens in Rome now")
    rule_error(game, "cy", ["attack Venice"], 1, "Venice is out of cy's reach")
    ok(game, "cy", "done")
    ok(game, "ben", "done")
    assert owed(game) == ["ada"] and "buy card" in lines_for(game, "ada")
    rejected(game, "ada", ["place 3 Milan", "buy card", "done"], 1, "line 2: 'buy card'",
             "must be the last line", "send the lines after it in a new block")
    code, _, err = run("apply", str(game), str(signed(game, "ada", ["buy card", "done"])),
                       "--dry-run")
    assert code == 1 and "line 1: 'buy card'" in err
    assert "ada places 3 token(s) in Milan" in ok(game, "ada", "place 3 Milan")


def test_too_few_tokens_to_attack_and_a_draw_through_an_automatic_step(tmp_path: Path) -> None:
    game = new_game(tmp_path)
    through_setup(game, {"ada": 10, "ben": 10, "cy": 2})
    advance(game, "place tokens")
    ok(game, "cy", "done")
    ok(game, "ben", "done")
    ok(game, "ada", "place 3 Milan")
    ok(game, "ada", "done")
    for player in owed(game):
        ok(game, player, "tokens 1")
    first = owed(game)[0]
    assert str(status(game)["decision"]).startswith("pay to remove")
    # `done` ends the removal step and the draws of 9.1 follow at once
    rejected(game, first, ["done", "pass"], 1, "line 1: 'done'", "must be the last line")
    assert advance(game, "place tokens") != "cy"
    ok(game, owed(game)[0], "done")
    assert owed(game) == ["cy"]
    rule_error(game, "cy", ["attack Milan"], 1, "attacking Milan needs 6 more tokens; cy has 1",
               "place 1 Rome", "done")
    rule_error(game, "cy", ["place 1 Milan"], 1, "cannot place tokens in Milan without a battle")


# --- an open game: the bids are sealed by commit and reveal -----------------------------------


def assert_applied(game: Path, block: Path) -> None:
    code, _, err = apply(game, block)
    assert code == 0, err


def opening_line(block: Path) -> str:
    return next(x for x in block.read_text().splitlines() if x.startswith("open "))


def test_bad_seals_and_openings_in_an_open_game(tmp_path: Path) -> None:
    game = new_game(tmp_path, 3, "--open")
    assert snapshot(game)[1] is None  # no secrets file: the seed is in the game file
    labels = hand(game, "ada")
    name = next(iter(labels.values()))
    rule_error(game, "ada", [f"return {name}"], 1, *(f"return {x}" for x in labels))
    for player in ("ada", "ben", "cy"):
        ok(game, player, lines_for(game, player)[0])

    rule_error(game, "ada", ["bid 12"], 1, "sealed by commit and reveal", "bid 0 | bid 1")
    rule_error(game, "ada", ["open bid 4 nonce " + "0" * 64], 1, "send 'seal HEX'")
    before = snapshot(game)
    code, out, err = run("sign", "--seal", "bid 41", "--key", str(tmp_path / "ada.key"),
                         "--game", str(game))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("error: 'bid 41': a capital bid of 41 ducats") and "legal: bid 0" in err
    assert not list(tmp_path.glob("ada.*.opening")) and snapshot(game) == before

    for player, bid in (("ada", 4), ("ben", 3), ("cy", 2)):
        assert_applied(game, sealed_block(game, player, f"bid {bid}"))
    assert status(game)["sealing"] == "open"
    nonce = opening_line(opening_block(game, "ada")).rsplit(" ", 1)[1]
    for wrong in (f"open bid 9 nonce {nonce}", f"open bid 4 nonce {'0' * 64}"):
        # no legal lines to list here: the one that fits is the true opening
        rejected(game, "ada", [wrong], 1, f"line 1: '{wrong}'", "does not match ada's seal")
    rule_error(game, "ada", [f"open bid 41 nonce {nonce}"], 1,
               "a capital bid of 41 ducats is more than the 40 ducats you hold", "bid 0")
    rule_error(game, "ada", ["seal " + "cd" * 32], 1, "open yours with 'open LINE nonce HEX'")
    assert_applied(game, opening_block(game, "ada"))
    assert_applied(game, opening_block(game, "ben"))
    last = opening_block(game, "cy")
    # the last opening resolves the bids, which may roll dice to break a tie: it ends the block
    rejected(game, "cy", [opening_line(last), "capital Venice"], 1,
             f"line 1: '{opening_line(last)}'", "must be the last line")
    assert status(game)["opened"] == ["ada", "ben"]
    assert_applied(game, last)
    assert owed(game) == ["ada"] and status(game)["decision"] == "choose their capital"
    rejected(game, "ben", ["capital Genoa"], 4, "it is not ben's decision now")
    code, _, err = run("verify", str(game))
    assert code == 0, err
