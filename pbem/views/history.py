"""`pbem history GAME -o DIR`: the game as a static site anyone may read (GitHub Pages, a
web folder). `index.html` lists every seq (who acted, what happened); `seq-N.html` is the HTML
report of the public as it stood after seq N (the board, the facts, that seq's events), with
links to the previous and next seq.

A re-run writes only what is new: the pages of the seqs played since, the page that was the
latest (it gains its link to the next seq) and the index. `history.json` in the folder records
which seqs have a page and the state hash each was drawn from, so a page is never redrawn for
nothing, and a page whose seq was drawn from another game's log is redrawn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markupsafe import escape

from pbem import i18n
from pbem.errors import UsageError
from pbem.pipeline.game import Game
from pbem.store import files
from pbem.views import html
from pbem.views.board.past import replayed
from pbem.views.model import entry_texts, report_model
from pbem.views.report import safe_text

MANIFEST = "history.json"


def page_name(seq: int) -> str:
    return f"seq-{seq}.html"


def _manifest(folder: Path, game_id: str) -> dict[str, Any]:
    path = folder / MANIFEST
    if not path.exists():
        return {"game": game_id, "pages": {}, "latest": None}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UsageError(f"{path} cannot be read: remove it to rebuild the whole site") from None
    if not isinstance(data, dict) or not isinstance(data.get("pages"), dict):
        raise UsageError(f"{path} is not a pbem history record: remove it to rebuild the site")
    if data.get("game") != game_id:
        raise UsageError(f"{folder} holds the history of game '{data.get('game')}', not "
                         f"'{game_id}': choose another folder")
    return data


def _navigation(seq: int, last: int, game_id: str, lang: str) -> str:
    gettext = i18n.translations(lang).gettext
    numbered, first, every, latest = (gettext("seq {seq}"), gettext("first seq"),
                                      gettext("all seqs"), gettext("latest seq"))
    parts = [f'<a href="{page_name(seq - 1)}" rel="prev">&larr; '
             f'{escape(numbered.format(seq=seq - 1))}</a>' if seq > 0
             else f"<span>{escape(first)}</span>",
             f'<a href="index.html">{escape(every)}</a>',
             f'<a href="{page_name(seq + 1)}" rel="next">{escape(numbered.format(seq=seq + 1))} '
             "&rarr;</a>" if seq < last else f"<span>{escape(latest)}</span>"]
    heading = escape(gettext("History of game {game}:").format(game=safe_text(game_id)))
    return f'<nav class="seqs">{heading} ' + " · ".join(parts) + "</nav>"


def rows(game: Game, lang: str = i18n.SOURCE) -> list[dict[str, Any]]:
    """One row per seq for the index: who acted and what happened (the log's public words)."""
    return [{"seq": e["seq"], "who": safe_text(e.get("player") or i18n.term(lang, e["kind"])),
             "texts": [safe_text(t) for t in entry_texts(e, lang=lang)],
             "page": page_name(int(e["seq"]))}
            for e in game.gf.log]


def build(game: Game, folder: Path, lang: str = i18n.SOURCE) -> list[Path]:
    """Write the site into `folder` (made if missing), in the language `lang`; the files
    written, in order. A site drawn in another language is redrawn whole."""
    gf = game.gf
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"cannot write the history into {folder}: it is a file")
    if not folder.parent.is_dir():
        raise UsageError(f"cannot write the history into {folder}: {folder.parent} does not exist")
    folder.mkdir(exist_ok=True)
    manifest = _manifest(folder, gf.game_id)
    if manifest.get("lang", i18n.SOURCE) != lang:
        manifest["pages"] = {}  # each page in the new language
    pages: dict[str, str] = manifest["pages"]
    wanted = {int(e["seq"]) for e in gf.log
              if pages.get(str(e["seq"])) != e["post_state"] or not (folder / page_name(e["seq"])).exists()}
    latest = manifest.get("latest")
    if isinstance(latest, int) and latest < gf.seq:
        wanted.add(latest)  # its "next" link appears now
    written = []
    if wanted:
        for past in replayed(game, max(wanted)):
            seq = past.gf.seq
            if seq not in wanted:
                continue
            text = html.page(report_model(past, None, lang=lang),
                             _navigation(seq, gf.seq, gf.game_id, lang), lang)
            files.write_atomic(folder / page_name(seq), text)
            pages[str(seq)] = str(gf.log[seq]["post_state"])
            written.append(folder / page_name(seq))
    index = html.environment(lang).get_template("html/history.html.j2").render(
        game=safe_text(gf.game_id), title=game.ruleset.title, rows=rows(game, lang),
        latest=gf.seq)
    files.write_atomic(folder / "index.html", index)
    manifest.update(pages=pages, latest=gf.seq)
    if lang != i18n.SOURCE:  # an English site's record stays as it always was
        manifest["lang"] = lang
    else:
        manifest.pop("lang", None)
    files.write_atomic(folder / MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return [*written, folder / "index.html"]
