"""`pbem status` as text, in the reader's language (`--lang`; the game's by default). English
goes through no catalog, so its lines are what they always were; the data (`--json`) is never
translated."""

from __future__ import annotations

from typing import Any

from pbem import i18n
from pbem.words import decision_phrase


def _names(names: list[str]) -> str:
    return ", ".join(names)


def heading(data: dict[str, Any], lang: str) -> str:
    """The first line: the game, its seq and state."""
    return i18n.translations(lang).gettext("game {game} seq {seq} state {state}").format(
        game=data["game"], seq=data["seq"], state=data["state"])


def lines(data: dict[str, Any], action: str | None, lang: str) -> list[str]:
    """Status's lines after the sandbox's: the turn or the result, who is waiting for whom,
    the deadlines, life, a takeback asked, mail. `action`: the pending decision's id."""
    gettext = i18n.translations(lang).gettext
    said: list[str] = []
    if data["over"]:
        result = data["result"] or {}
        detail = result.get("detail") or ", ".join(
            f"{p} {n}" for p, n in (result.get("scores") or {}).items())
        said.append(gettext("over: winners {winners} ({kind} victory {detail})").format(
            winners=_names(data["winners"]), kind=i18n.term(lang, str(result.get("kind"))),
            detail=detail))
    else:
        decision = data["decision"] if lang == i18n.SOURCE or not action else \
            decision_phrase(data["ruleset"], action, you=False, lang=lang)
        said.append(gettext("turn {turn}: waiting for {names} to {decision}").format(
            turn=data["turn"], names=_names(data["waiting_for"]), decision=decision))
        if data.get("received"):
            what = gettext("sealed bids received: {names}") if data.get("sealed") else \
                gettext("answers received: {names}")
            said.append(what.format(names=_names(data["received"])))
        for row in data["deadlines"]:
            late = gettext(" (late)") if row["late"] else ""
            said.append(gettext("deadline: {who} by {when}{late}").format(
                who=row["who"], when=row["when"], late=late))
    said += data["life"]
    if data.get("takeback"):
        asked = data["takeback"]
        said.append(gettext(
            "takeback {target} asked by {by}: waiting for {names} to send 'accept takeback "
            "{target}' or 'refuse takeback {target}'").format(
                target=asked["target"], by=asked["by"], names=_names(asked["waiting_for"])))
    said += [gettext("mail: {line}").format(line=line) for line in data["bouncing"]]
    if data["queued_mail"]:
        said.append(gettext("mail: {count} message(s) queued, not sent yet; the next mail run "
                            "for this game sends them").format(count=data["queued_mail"]))
    return said
