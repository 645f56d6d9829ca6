"""`pbem cards --lang`: a card's details said in the reader's language. Its name, id and the
data (deck, prestige kinds, agents) stay as printed or become terms; what it does (ops, one-shot,
abilities, comet) comes from the ruleset's messages, the same words the translated report says."""

from __future__ import annotations

from typing import Any

from pbem import i18n
from pbem.views.model import said_in


def said(ruleset: Any, catalog: Any, entry: dict[str, Any], lang: str) -> str:
    """The card as `pbem cards QUERY` shows it, in `lang` where the ruleset can say its words
    (`card_said`); else the ruleset's own English text."""
    card_said = getattr(ruleset, "card_said", None)
    if lang == i18n.SOURCE or card_said is None:
        return str(ruleset.card_text(entry))
    return text({**entry, "words": said_in({"said": card_said(catalog, entry)}, lang)}, lang)


def text(entry: dict[str, Any], lang: str) -> str:
    """The card as `pbem cards QUERY` shows it, its labels in `lang`."""
    gettext = i18n.translations(lang).gettext
    words = entry["words"]
    kind = {"regular": "", "queen": gettext("queen, "), "comet": gettext("COMET, ")}[entry["kind"]]
    prestige = ", ".join(i18n.term(lang, p) for p in entry["prestige"]) or gettext("none")
    lines = [f"{entry['id']}  {entry['name']}",
             "  " + kind + gettext("{deck} deck; location: {location}; sells for {value}").format(
                 deck=i18n.term(lang, entry["deck"]), location=i18n.term(lang, entry["location"]),
                 value=entry["sell_value"]),
             "  " + gettext("prestige: {kinds}").format(kinds=prestige)]
    if words["comet"]:
        lines.append(f"  {words['comet']}.")
    lines += ["  " + gettext("op: {words}").format(words=op) for op in words["ops"]]
    if words["one_shot"]:
        lines.append("  " + gettext("one-shot when played: {words}").format(words=words["one_shot"]))
    if entry["agents"]:
        agents = ", ".join(i18n.term(lang, agent) for agent in entry["agents"])
        lines.append("  " + gettext("agents when played: {agents}").format(agents=agents))
    lines += ["  " + gettext("ability: {words}").format(words=summary)
              for summary in words["abilities"]]
    return "\n".join(lines)
