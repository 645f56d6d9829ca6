"""Who may see each random draw (issue 8, aor-pbem 5): dice are public; a card drawn into a hand
is seen by its drawer only; Written Record's pick from a hand by the two players trading.

The purposes are written by the rules (engine.aor.deck, dice, setup, market, expansion, war and
the actions); `audience` reads them back so that pbem can log a private draw as
`{n, purpose, to, outcome: hidden}`.
"""

from __future__ import annotations

import re

PUBLIC = (
    re.compile(r"capital tie .+"),  # 8.3
    re.compile(r"battle turn \d+ \S+ \S+ (green|black|white)"),  # 9.5.2
    re.compile(r"market turn \d+ roll \d+ (green|black|white)"),  # 9.6.1
    re.compile(r"war turn \d+ \S+"),  # A.2
)
PRIVATE = (
    re.compile(r"deal (?P<to>\S+) \d+"),  # 8.1
    re.compile(r"draw (?P<to>\S+) turn \d+"),  # 9.1
    re.compile(r"urban ascendancy turn \d+ (?P<to>\S+)"),  # 9.2
    re.compile(r"card for tokens turn \d+ (?P<to>\S+)"),  # 9.5.1
    re.compile(r"bonus card turn \d+ (?P<to>\S+)"),  # 9.5.3
    re.compile(r"market turn \d+ roll \d+ card (?P<to>\S+)"),  # 9.6.1
    re.compile(r"written record turn \d+ (?P<to>\S+) from (?P<also>\S+)"),  # 9.5.2, N
)


class UnknownPurpose(ValueError):
    pass


def audience(purpose: str) -> list[str] | None:
    """None for a public draw; otherwise the players who may see its outcome."""
    if any(p.fullmatch(purpose) for p in PUBLIC):
        return None
    for pattern in PRIVATE:
        found = pattern.fullmatch(purpose)
        if found:
            return sorted(v for k, v in found.groupdict().items() if v)
    raise UnknownPurpose(f"no audience is known for the draw '{purpose}'")
