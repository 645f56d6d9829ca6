"""Ops (E4, F1-F9), the out-of-turn tax response, and victory declarations (E6, L3-L6).

One module per op family: religious (inquisitor), political (commerce, behead, repress, vote),
tax (the tax op, the owner's answer and standing answers), military (corsair, siege,
campaign); `node` holds the `ops` action and its decision. Their decisions are listed in
engine.pax.ruleset_actions, which loads each module when its decision first comes up (so this
package imports none of them).
"""
