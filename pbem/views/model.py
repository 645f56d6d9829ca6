"""Report models: what each reader may see, assembled for the templates (pbem.views.report)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import sealing
from engine.core.adjudicate import options_now
from engine.core.agenda import next_pending
from pbem import i18n
from pbem.i18n import SOURCE
from pbem.i18n.readers import game_language as game_language
from pbem.i18n.readers import reader_language as reader_language
from pbem.i18n.readers import seat_language as seat_language
from pbem.pipeline.game import Game
from pbem.pipeline.queries import decision_of
from pbem.rulesets import ruleset_of
from pbem.store import gamefile
from pbem.store.entry_reader import read_all
from pbem.store.gamefile import GameFile, current_hash, fingerprint
from pbem.views.report import with_ranges
from pbem.words import bot_played_text, choice_text, decision_phrase, draw_texts, say


def skeleton(gf: GameFile, player: str) -> str:
    """A ready-to-sign block with the header filled in. It has no signature section, so a
    reply that quotes it never looks like a damaged signed block."""
    from pbem.orders.blockfinder import BEGIN, END  # start-up: only the player to move's

    return "\n".join([
        BEGIN,
        f"game: {gf.game_id}",
        f"player: {player}",
        f"seq: {gf.seq}",
        f"state: {fingerprint(current_hash(gf))}",
        "",
        "# your orders here, one per line; then: pbem sign ORDERS --key KEY --game GAME.yaml",
        END,
    ]) + "\n"


def pending_action(gf: GameFile) -> str | None:
    """The action name of the pending decision (None when nothing is pending)."""
    node = next_pending(gf.agenda)
    return str(node["action"]) if node is not None else None


def entry_texts(entry: dict[str, Any], ruleset: str | None = None,
                lang: str = SOURCE) -> list[str]:
    """What a log entry says, in words: its structured events rendered (or the words of an
    entry written before structured events), then the public draws it made (the market's
    refills). An answer that changed nothing visible yet (a battle's casualties, chosen one
    at a time) is told as the lines the player chose: its signed block is public."""
    if entry.get("events") is not None:
        texts = [say(e, lang) for e in entry["events"]]
    else:
        texts = [str(text) for text in entry.get("summary") or []]
    if ruleset is not None:
        texts += draw_texts(ruleset, [d for d in entry.get("draws") or []
                                      if isinstance(d, dict)], lang)
    if not texts and entry.get("kind") == "orders" and entry.get("block"):
        from pbem.orders.orderblock import find_blocks  # start-up: the signature checks

        lines = [line.text for block in find_blocks(str(entry["block"])) for line in block.lines]
        if lines:
            texts = [choice_text(str(entry.get("player")), lines, lang)]
    if entry.get("kind") == "orders" and entry.get("bot"):  # a seat handed to a bot (issue 24)
        texts.append(bot_played_text(str(entry.get("player")), lang))
    return texts


def recent_entries(game: Game, viewer: str | None,
                   posted: int | None = None) -> list[dict[str, Any]]:
    """The log entries a report's history covers, oldest first: back to the viewer's last
    entry (all of them when they never acted); for the public, those after seq `posted`, else
    the last one. Read from the end, so a game opened head-only parses only these (a report
    costs the same at seq 10 and 400); entries this run appended are in `gf.log` after the
    log text."""
    found, count = False, 0

    def keep(entry: dict[str, Any]) -> bool:
        nonlocal found, count
        if found:
            return False
        count += 1
        if viewer is not None:
            found = entry.get("player") == viewer
            return True
        found = posted is None or int(entry["seq"]) <= posted
        return not found or count == 1  # the newest is always shown

    newest: list[dict[str, Any]] = []
    for entry in reversed(game.gf.log):
        if not keep(entry):
            break
        newest.append(entry)
    older = gamefile.tail_entries(game.log_text, keep) \
        if game.log_text is not None and not found else []
    return older + newest[::-1]


def history_for(game: Game, viewer: str | None,
                posted: int | None = None, lang: str = SOURCE) -> list[dict[str, Any]]:
    """What happened since the viewer's last block; for the public, since the last post on
    the channel (`posted`: the seq it covered up to), else the last entry only."""
    entries = recent_entries(game, viewer, posted)
    read_all(entries)  # typed: a damaged entry is a corrupt file that names it, not a crash
    name = ruleset_of(game.gf).name
    return [{"seq": e["seq"], "player": e.get("player") or e["kind"],
             "texts": entry_texts(e, name, lang)} for e in entries]


def mail_language(game: Game, reader: str | None) -> str:
    """The language of everything one mail says to `reader`: the seat's, when the ruleset's
    words are translated into it (reader_language), so a mail is in one language."""
    return reader_language(game.ruleset, seat_language(game.gf, reader))


def said_in(data: Any, lang: str) -> Any:
    """The view with each card's words rendered in `lang` from the messages beside them (a card
    carries `said`: its ops, one-shot and comet as message ids and arguments)."""
    if isinstance(data, list):
        return [said_in(item, lang) for item in data]
    if not isinstance(data, dict):
        return data
    shown = {key: said_in(value, lang) for key, value in data.items() if key != "said"}
    for key, said in dict(data.get("said") or {}).items():
        if isinstance(said, list):
            shown[key] = [words_of(event, lang) for event in said]
        else:
            shown[key] = words_of(said, lang) if said else None
    return shown


def words_of(said: dict[str, Any], lang: str) -> str:
    """A message (id and arguments) or a keyed text from the data (key and English) in `lang`."""
    if "key" in said:
        return i18n.keyed(lang, str(said["key"]), str(said["text"]))
    return say(said, lang)


def explained(ruleset: Any, view: dict[str, Any], lines: Sequence[str],
              lang: str) -> list[dict[str, str]]:
    """The menu's lines (numbered runs as ranges), each with what it does in `lang` where the
    ruleset can say it ('' where not). Only a translated report shows them for now: the English
    reports keep their columns until their golden files are deliberately rewritten."""
    said = getattr(ruleset, "line_said", None)
    rows = []
    for line in with_ranges(lines):
        event = said(view, line) if said is not None else None
        rows.append({"line": line, "words": say(event, lang) if event else ""})
    return rows


def finality(ruleset: Any, view: dict[str, Any], lines: Sequence[str],
              lang: str) -> list[str]:
    """Why some of the legal lines can never be taken back (they draw or reveal), said in
    `lang` once each, before the player sends one: the ruleset's optional
    `line_final(view, line)`, read from the view alone, so a report costs no dry run."""
    final = getattr(ruleset, "line_final", None)
    said: list[str] = []
    if final is None:
        return said
    for line in lines:
        event = final(view, line)
        if event is not None and (words := say(event, lang)) not in said:
            said.append(words)
    return said


def report_model(game: Game, viewer: str | None, posted: int | None = None,
                 lang: str = SOURCE) -> dict[str, Any]:
    """The report of one reader (None: the public, covering everything after seq `posted`
    when given: the channel's last post), from a game opened with its whole log; its words
    (events, decisions) in the language `lang` (render the templates in the same one)."""
    if viewer is not None:
        game.require_whole("render a player's report")
    gf, ruleset = game.gf, game.ruleset
    table = game.table()
    owed, _ = decision_of(game)
    action = pending_action(gf)
    decision = decision_phrase(ruleset.name, action, you=False, lang=lang) if action else ""
    menu: dict[str, Any] | None = None
    if viewer is not None and viewer in owed:
        lines = [c.line for c in options_now(ruleset, table, viewer)]
        node = next_pending(table.agenda)
        if sealing.is_committing(node) and node is not None and sealing.stage(node) == "open":
            lines = []  # only the opening made by `pbem sign --open` applies now
        menu = {"player": viewer, "lines": lines,
                "decision": decision_phrase(ruleset.name, action, you=True, lang=lang)
                if action else "",
                "skeleton": skeleton(gf, viewer)}
    view = ruleset.view_for(table, viewer)
    if menu is not None:
        menu["final"] = finality(ruleset, view, menu["lines"], lang)
    if lang != SOURCE:
        if menu is not None:
            menu["explained"] = explained(ruleset, view, menu["lines"], lang)
        view = said_in(view, lang)
    extra: dict[str, Any] = {}
    shown = ruleset.display(table, view, viewer, hands_open=gf.randomness.get("mode") == "open")
    if shown:
        extra[ruleset.name] = shown  # the ruleset's own rows, under its name in its templates
    return {
        "header": {
            "game": gf.game_id, "ruleset": ruleset.name, "templates": ruleset.templates,
            "seq": gf.seq, "state": fingerprint(current_hash(gf)),
            "options": dict(gf.game["options"]),
            "players": [{"id": p["id"], "name": p["name"]} for p in gf.roster["players"]],
        },
        "viewer": viewer,
        "view": view,
        "history": history_for(game, viewer, posted, lang),
        "waiting_for": owed,
        "decision": decision,  # what they are asked, after "to": "choose their capital"
        "action": action,  # the decision as data (its action name), for checks and styling
        "menu": menu,
        **extra,
    }
