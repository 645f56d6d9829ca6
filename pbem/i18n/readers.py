"""Which language a reader reads: the game's own (the roster's `language`), a seat's, and the
one a report is rendered in. Light on purpose: `pbem status` asks it without loading the views
or the block parser (start-up, issue 17)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem import i18n
from pbem.i18n import SOURCE

if TYPE_CHECKING:
    from engine.core.ruleset import Ruleset
    from pbem.store.gamefile import GameFile

# The game's own default language (the public post's, and each seat's without a choice of its
# own): the roster's `language`, absent for English; fixed by the setup entry's settings where
# `pbem new --language` set it, changed by a logged settings entry (`language LANG`).
GAME_LANGUAGE = "language"


def game_language_of(gf: GameFile) -> str:
    """The roster's game language as stored ("" where the game never set one: English)."""
    return str(gf.roster.get(GAME_LANGUAGE) or "")


def game_language(gf: GameFile) -> str:
    """The game's default language: the public report's, the forum post's, the moderator's and
    every seat's without a language of its own (`pbem new --language`, `pbem roster
    --game-language`; a bound setting, verify rebuilds it). English where the game never set
    one, as every game before it could."""
    chosen = game_language_of(gf)
    return chosen if chosen in i18n.languages() else SOURCE


def seat_language(gf: GameFile, seat: str | None) -> str:
    """The language `seat` reads (its roster's `language`, a bound seat setting), else the
    game's (a seat without one, the moderator and the public: `seat` None)."""
    entry = gf.roster_entry(seat) if seat else None
    chosen = str((entry or {}).get("language") or "")
    return chosen if chosen in i18n.languages() else game_language(gf)


def reader_language(ruleset: Ruleset, lang: str) -> str:
    """`lang` when the ruleset's words are translated into it (its decisions are), else
    English: a report is in one language, never English sentences with translated words."""
    if lang == SOURCE:
        return lang
    action, phrase = next(iter(ruleset.decisions.items()))
    translated = i18n.keyed(lang, f"decision:{ruleset.name}.{action}", phrase) != phrase
    return lang if translated else SOURCE
