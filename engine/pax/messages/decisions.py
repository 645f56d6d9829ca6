"""What each Pax Renaissance decision asks, as an infinitive phrase (our own words).

A phrase fits after "to" in every sentence that names a decision ("waiting for Ada to ...",
"Your deadline to ... passed", a reminder's subject, a commit message, a report's menu). Words
that change with the reader are fields: `{their}` (your/their), `{they}` (you/they), `{them}`
(you/them). pbem.words renders them, one function per sentence form.
"""

from __future__ import annotations

DECISIONS: dict[str, str] = {
    "turn": "choose an action",
    "activate": "choose which victory square to activate",
    "oneshot": "trigger the card's one-shot or not",
    "coronation": "crown the queen or keep her as an Old Maid",
    "agent": "choose where to place the agent",
    "levy": "choose which city receives the levy",
    "pacify": "kill one repressed token (pacification) or skip",
    "casualty": "choose the battle's casualties",
    "survivor": "choose where a battle survivor goes",
    "battle_won": "resolve the victory",
    "regime_concession": "place the regime change concession or not",
    "emancipate": "emancipate repressed tokens, then send done",
    "golden_liberty": "choose golden liberty (make the empire medieval) or keep its theocracy",
    "hand_discard": "discard a card down to the hand limit",
    "apostasy": "resolve the apostasy",
    "arrange": "choose which slots of the city stay free under the new theocracy",
    "ops": "run one op per card (op CARD OP TARGET), then send done",
    "tax_response": "answer the tax on {their} concession: pay 1 florin to China or repress it",
    "tax_levy": "choose which city receives the tax levy",
    "borrow": "run one political op of a card in an opponent's West tableau, or skip",
}
