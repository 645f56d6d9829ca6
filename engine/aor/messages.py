"""The English message catalog of Age of Renaissance: event message id -> template (engine.core.words).

Ids start with "aor."; the templates are our own words. Rewording one changes reports, never
what the log proves.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
}
