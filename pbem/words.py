"""Words at the edge: structured events (engine.core.table.event) rendered for people.

Every ruleset's message catalog is keyed by ids with the ruleset's prefix (`pax.`, `aor.`),
the core's by `core.`; pbem's own events (timeouts, unseals, roster changes, the reveal) use
`pbem.`. A few of pbem's are built in code, because their arguments are records.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from engine.core.errors import Reason
from engine.core.messages import MESSAGES as CORE_MESSAGES
from engine.core.words import Messages, join_words, render
from pbem import i18n, rulesets
from pbem.errors import CorruptGameError

PBEM_MESSAGES: dict[str, str] = {
    "pbem.replacement": "The moderator hands {player:title} to {name} (key {key}).",
    "pbem.reveal": "The moderator reveals the seed.",
    # absences and pauses (issue 24; pbem.pipeline.life)
    "pbem.absence.away": "{player:title} is away until {until}: their deadlines wait for them.",
    "pbem.absence.back": "{player:title} is back: their deadlines restart in full.",
    "pbem.pause.proposed": "{player:title} proposes a pause: the game pauses once every player "
                           "has sent 'pause' by {deadline}.",
    "pbem.pause.signed": "{player:title} agrees to the pause.",
    "pbem.pause.paused": "The game is paused: no deadline runs until 'resume'.",
    "pbem.pause.resumed": "{player:title} resumes the game: every deadline restarts in full.",
    "pbem.bot.on": "{player:title} hands their seat to the bot with the key {key}.",
    "pbem.bot.on_until": "{player:title} hands their seat to the bot with the key {key} until "
                         "{until}.",
    "pbem.bot.off": "{player:title} takes their seat back from the bot.",
    "pbem.bot.off_moderator": "The moderator takes {player:title}'s seat back from the bot.",
    "pbem.bot.ended": "{player:title}'s seat returns from the bot: the handover ended at "
                      "{until}.",
    "pbem.pause.lapsed": "The pause {player:title} proposed lapsed: not every player sent "
                         "'pause' by {deadline}.",
    # takebacks by consent (issue 24 §4; pbem.pipeline.takeback)
    "pbem.takeback.asked": "{player:title} asks to take back seq {target} and everything after "
                           "it; it waits for 'accept takeback {target}' from {needs}.",
    "pbem.takeback.own": "{player:title} takes back seq {target} and everything after it.",
    "pbem.takeback.accepted": "{player:title} accepts taking back seq {target}.",
    "pbem.takeback.refused": "{player:title} refuses to take back seq {target}: play goes on.",
    "pbem.takeback.lapsed": "The takeback of seq {target} lapsed: not every player accepted it "
                            "in time.",
    "pbem.takeback.done": "Seq {target} and everything after it is taken back: the position is "
                          "what it was at seq {before}.",
}


def _timeout(args: Mapping[str, Any], lang: str) -> str:
    lines = i18n.formatter(lang).join([f"'{line}'" for line in args["lines"]], "and")
    if lang == i18n.SOURCE:
        one = len(args["lines"]) == 1
        return (f"{str(args['player']).title()} did not answer in time, so the default "
                f"{'answer' if one else 'answers'} {lines} {'was' if one else 'were'} applied.")
    said = i18n.translations(lang).ngettext(
        "{player} did not answer in time, so the default answer {lines} was applied.",
        "{player} did not answer in time, so the default answers {lines} were applied.",
        len(args["lines"]))
    return said.format(player=str(args["player"]).title(), lines=lines)


def _unseal(args: Mapping[str, Any], lang: str) -> str:
    gettext = i18n.translations(lang).gettext
    shown = {str(p): str(a) for p, a in dict(args["answers"]).items()}
    for player, line in dict(args.get("defaults") or {}).items():
        shown[str(player)] = gettext("{line} (default, timed out)").format(line=line)
    pairs = "; ".join(f"{p}: {a}" for p, a in sorted(shown.items()))
    return gettext("The sealed answers are opened: {pairs}.").format(pairs=pairs)


def _settings(args: Mapping[str, Any], lang: str) -> str:
    gettext = i18n.translations(lang).gettext
    said = []
    if "nmr" in args:
        shown = ", ".join(f"{k} {v}" for k, v in dict(args["decisions"]).items()) or \
            gettext("none")
        said.append(gettext("deadlines: {deadlines}; NMR policy: {nmr}").format(
            deadlines=shown, nmr=args["nmr"]))
        if args.get("absence"):
            said.append(gettext("absence allowance: {absence}").format(absence=args["absence"]))
    if args.get("emails"):
        said.append(gettext("new e-mail address for {players}").format(
            players=", ".join(str(p) for p in args["emails"])))
    if args.get("language"):
        said.append(gettext("the game's language: {language}").format(language=args["language"]))
    for key, players in dict(args.get("seats") or {}).items():  # a seat setting: a term
        said.append(gettext("new {setting} for {players}").format(
            setting=i18n.term(lang, str(key)), players=", ".join(str(p) for p in players)))
    return gettext("Settings: {changes}.").format(changes="; ".join(said))


_BUILT: dict[str, Callable[[Mapping[str, Any], str], str]] = {
    "pbem.timeout": _timeout, "pbem.unseal": _unseal, "pbem.settings": _settings}


@cache
def catalog(prefix: str) -> Messages:
    """The catalog for ids starting `prefix.`: a ruleset's ids start with its name, so only
    the ruleset whose events are rendered is loaded."""
    if prefix in rulesets.TABLE:
        return rulesets.ruleset_for(prefix).messages
    return ChainMap(PBEM_MESSAGES, CORE_MESSAGES)


class _Translated(Mapping[str, str]):
    """A catalog whose templates are looked up in a language's translations."""

    def __init__(self, messages: Messages, lang: str) -> None:
        self.messages, self.lang = messages, lang

    def __getitem__(self, msg: str) -> str:
        return i18n.keyed(self.lang, msg, self.messages[msg])

    def __iter__(self) -> Iterator[str]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)


def say(event: Mapping[str, Any], lang: str = i18n.SOURCE) -> str:
    """The event in words, in the reader's language `lang`."""
    msg = str(event.get("msg"))
    built = _BUILT.get(msg)
    try:
        if built is not None:
            return built(dict(event.get("args") or {}), lang)
        messages = catalog(msg.partition(".")[0])
        if lang == i18n.SOURCE:
            return render(event, messages)
        return render(event, _Translated(messages, lang), i18n.formatter(lang))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        # Events are read back from game files: a damaged one is a corrupt file, not a crash.
        raise CorruptGameError(f"an event '{msg[:60]}' cannot be put in words "
                               f"({type(error).__name__}: {str(error)[:60]}); the game file "
                               "may be damaged: run pbem verify") from None


def public_texts(events: Iterable[Mapping[str, Any]], lang: str = i18n.SOURCE) -> list[str]:
    return [say(e, lang) for e in events if "visible_to" not in e]


def sentences(texts: Iterable[str]) -> str:
    """Sentences run together as prose: each keeps its own full stop, none gains a ';'."""
    return " ".join(text.strip() for text in texts if text.strip())


# --- decisions: one phrase per decision (the ruleset's `decisions`), one function per sentence


def decision_phrase(ruleset: str, action: str, *, you: bool, lang: str = i18n.SOURCE) -> str:
    """What the decision asks, as an infinitive ("choose your capital"); `you` for the reader
    who owes it, else the third person ("choose their capital"). Another language may say it
    as a noun phrase ("akció választása"), the same for both readers."""
    phrase = i18n.keyed(lang, f"decision:{ruleset}.{action}",
                        rulesets.ruleset_for(ruleset).decisions[action])
    words = {"their": "your", "they": "you", "them": "you"} if you else \
        {"their": "their", "they": "they", "them": "them"}
    return phrase.format(**words)


def decision_reason(ruleset: str, action: str) -> Reason:
    """The decision's phrase in the third person as a reason's field, said at the edge in
    the reader's language (pbem.i18n.errors)."""
    return Reason(f"decision:{ruleset}.{action}", rulesets.ruleset_for(ruleset).decisions[action],
                  {"their": "their", "they": "they", "them": "them"})


def waiting_text(names: Sequence[str], ruleset: str, action: str) -> str:
    """'waiting for Ada and Bea to choose their capital' (no capital letter, no full stop)."""
    return f"waiting for {join_words(list(names))} to " \
        f"{decision_phrase(ruleset, action, you=False)}"


def must_text(name: str, ruleset: str, action: str) -> str:
    """'Ada (Fugger), you must choose your capital' (a menu's heading, the reader acts)."""
    return f"{name}, you must {decision_phrase(ruleset, action, you=True)}"


def deadline_passed_text(ruleset: str, action: str, when: str, lang: str = i18n.SOURCE) -> str:
    """'Your deadline to choose your capital passed on ...' (a reminder's first line)."""
    said = i18n.translations(lang).gettext("Your deadline to {decision} passed on {when}.")
    return said.format(decision=decision_phrase(ruleset, action, you=True, lang=lang), when=when)



def draw_texts(ruleset: str, draws: Iterable[Mapping[str, Any]],
               lang: str = i18n.SOURCE) -> list[str]:
    """The public draws of a log entry in words (the ruleset's `draw_messages`); a draw with
    no template, or whose outcome is not a card shown to all (masked), is not told."""
    rules = rulesets.ruleset_for(ruleset)
    if not rules.draw_messages:
        return []
    cards = getattr(rulesets.catalog_for(ruleset), "cards", {})
    texts = []
    for draw in draws:
        kind, *parts = str(draw.get("purpose", "")).split("-")
        template = rules.draw_messages.get(kind)
        card = cards.get(str(draw.get("outcome")))
        if template is not None and card is not None:
            template = i18n.keyed(lang, f"draw:{ruleset}.{kind}", template)
            texts.append(template.format(*parts, card=card.name))
    return texts


def choice_text(player: str, lines: Sequence[str], lang: str = i18n.SOURCE) -> str:
    """'Coeur chose: kill catholic knight.' (a choice that changed nothing anyone can see yet,
    such as a battle's casualties before the battle resolves)."""
    shown = "; ".join(f"'{line}'" for line in lines)
    said = i18n.translations(lang).gettext("{player} chose {lines}.")
    return said.format(player=player.title(), lines=shown)


def bot_played_text(player: str, lang: str = i18n.SOURCE) -> str:
    """'Played by the bot for Medici.' (an orders entry signed by a seat's bot, issue 24)."""
    return i18n.translations(lang).gettext("Played by the bot for {player}.").format(
        player=player.title())
