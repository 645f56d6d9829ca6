"""The closed vocabulary of card abilities (games/pax/abilities.yaml), checked at load time.

Rules ask `has_ability(t, bank, Ability.X)` (engine.pax.abilities) where the rule is applied;
cards never hook rules (architecture.md section 5).
"""

from __future__ import annotations

from enum import StrEnum


class Ability(StrEnum):
    APOSTASY_AS_ACTION = "apostasy_as_action"
    BEHEAD_EAST_CARD_WITH_BISHOP_ONLY = "behead_east_card_with_bishop_only"
    BEHEAD_EAST_CARD_WITH_ISLAMIC_OR_REFORMIST_BISHOP_ONLY = (
        "behead_east_card_with_islamic_or_reformist_bishop_only")
    BEHEAD_WEST_CARD_WITH_CATHOLIC_OR_REFORMIST_BISHOP_ONLY = (
        "behead_west_card_with_catholic_or_reformist_bishop_only")
    CONCESSIONS_DOUBLE_IN_SPICE_ISLANDS_TRADE_FAIRS = (
        "concessions_double_in_spice_islands_trade_fairs")
    CONCESSIONS_DOUBLE_IN_TRADE_FAIRS_AND_VOTES = "concessions_double_in_trade_fairs_and_votes"
    CONCESSIONS_IMMUNE_TO_PIRATES = "concessions_immune_to_pirates"
    CONDOTTIERE_VENICE_TWO_GOLD_TOKENS = "condottiere_venice_two_gold_tokens"
    CORONATION_CLAIMS_MARRIED_OR_OPPONENT_KINGS = "coronation_claims_married_or_opponent_kings"
    COUNTS_AS_REPUBLIC_FOR_RENAISSANCE = "counts_as_republic_for_renaissance"
    CRUSADE_ROOKS_COUNT_AS_KNIGHTS = "crusade_rooks_count_as_knights"
    DISCARD_TO_LAUNCH_PEASANT_REVOLT = "discard_to_launch_peasant_revolt"
    EAST_AND_WEST_OPS_IN_ONE_ACTION = "east_and_west_ops_in_one_action"
    EMPORIUM_SUBSIDY_TWO = "emporium_subsidy_two"
    FREE_EASTERN_OPS = "free_eastern_ops"
    FREE_TRADE_FAIR = "free_trade_fair"
    FREE_WESTERN_OPS = "free_western_ops"
    GLOBALIZATION_DECLARATION_COSTS_TWO_ACTIONS = "globalization_declaration_costs_two_actions"
    GREEN_PIRATES_COUNT_AS_RED_FOR_SUPREMACY = "green_pirates_count_as_red_for_supremacy"
    HOLY_DECLARATION_COSTS_TWO_ACTIONS = "holy_declaration_costs_two_actions"
    IMMUNE_TO_APOSTASY = "immune_to_apostasy"
    IMMUNE_TO_SILENCING = "immune_to_silencing"
    IMPERIAL_DECLARATION_COSTS_TWO_ACTIONS = "imperial_declaration_costs_two_actions"
    MAMLUK_REPRESSED_TOKENS_JOIN_EAST_CAMPAIGNS = "mamluk_repressed_tokens_join_east_campaigns"
    PATRON_COUNTS_AS_CONCESSIONS_FOR_GLOBALIZATION = (
        "patron_counts_as_concessions_for_globalization")
    PATRON_COUNTS_AS_GREEN_BISHOPS_FOR_HOLY = "patron_counts_as_green_bishops_for_holy"
    PATRON_COUNTS_AS_LAW_FOR_RENAISSANCE = "patron_counts_as_law_for_renaissance"
    PATRON_DISCOUNTS_VOTE_OPS = "patron_discounts_vote_ops"
    PORTUGAL_FRANCE_NOT_ADJACENT = "portugal_france_not_adjacent"
    SELL_TO_BORROW_OPPONENT_PURPLE_OP = "sell_to_borrow_opponent_purple_op"
    SELL_TO_EMANCIPATE_WEST = "sell_to_emancipate_west"
    SELL_TO_TRIGGER_ONE_SHOT = "sell_to_trigger_one_shot"
    SELLS_FOR_FOUR = "sells_for_four"
    UNLIMITED_HAND_SIZE = "unlimited_hand_size"
