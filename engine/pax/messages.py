"""The English message catalog of Pax Renaissance: event message id -> template (engine.core.words).

Ids start with "pax."; the templates are our own words. Rewording one changes reports, never
what the log proves.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
}
