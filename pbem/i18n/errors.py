"""Errors said in the reader's language: a keyed reason (engine.core.errors.Reason) through
the catalog, the engine's rejection with its line and legal lines quoted verbatim (the order
language is never translated). English is each error's own message, byte for byte."""

from __future__ import annotations

from typing import Any

from engine.core.errors import Reason, RuleError, Verbatim
from pbem import i18n
from pbem.errors import PbemError

SHOWN_OPTIONS = 12  # as engine.core.errors.RuleError.message


def say_reason(reason: Reason, lang: str) -> str:
    """The reason in `lang`; a field that is a reason itself is said in `lang` too."""
    if lang == i18n.SOURCE:
        return str(reason)
    fields = {name: _field(value, lang) for name, value in reason.fields.items()}
    return i18n.formatter(lang).format(i18n.keyed(lang, reason.key, reason.template), **fields)


class _AsIs:
    """Text the language's formatter must not take for a data word (it is not a str)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)


def _field(value: Any, lang: str) -> Any:
    if isinstance(value, Reason):
        return _AsIs(say_reason(value, lang))
    if isinstance(value, Verbatim):
        return _AsIs(str(value))
    return value


def say_rule(error: RuleError, lang: str) -> str:
    """The engine's rejection: where (the line quoted), why, and the legal lines verbatim."""
    if lang == i18n.SOURCE:
        return error.message()
    gettext = i18n.translations(lang).gettext
    text = ""
    if error.line is not None:
        text = gettext("'{line}': ").format(line=error.line) if error.number is None else \
            gettext("line {number}: '{line}': ").format(number=error.number, line=error.line)
    text += say_reason(error.why, lang) if error.why is not None else error.reason
    if error.options:
        shown = " | ".join(error.options[:SHOWN_OPTIONS])
        text += gettext("; legal: {lines}").format(lines=shown)
        if len(error.options) > SHOWN_OPTIONS:
            text += gettext(" (and {count} more)").format(
                count=len(error.options) - SHOWN_OPTIONS)
    return text


def say_error(error: BaseException, lang: str) -> str:
    """One line saying why, in `lang` where the reason is keyed (else its English words)."""
    if lang == i18n.SOURCE:
        return str(error)
    if isinstance(error, PbemError):
        if error.rule is not None:
            return say_rule(error.rule, lang)
        if error.why is not None:
            return say_reason(error.why, lang)
    if isinstance(error, RuleError):
        return say_rule(error, lang)
    return str(error)
