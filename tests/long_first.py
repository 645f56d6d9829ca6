"""The suite's known-long tests run first in each pytest-xdist worker's share (issue 17).

`--dist worksteal` hands each worker a contiguous slice of the collected tests (worker k of n:
the next len // (n - k) of them), and an idle worker steals from the *end* of another's queue.
A long test late in a slice made the run's tail: one worker busy alone on it. Here the long
tests are dealt to the slices, longest first, each to the slice with the least long work so
far, and put at its front; the short ones keep their order and fill the slices, so stealing
evens out the end with short tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

# CPU seconds (test and its child processes) of the longest tests, node id prefixes: a module
# whose tests share a module-scoped fixture, or tests that share a cached run, is one prefix,
# so they stay together on one worker (bench/README.md, "The test suite", sessions 9 and 10).
# A name that no longer matches only loses its place at the front.
LONG: dict[str, float] = {
    "tests/pbem/test_bot_cron.py::test_a_four_player_pax_game_with_a_bot_seat_runs": 8.1,
    "tests/test_readme.py::test_the_readme_commands_run_as_written": 7.9,
    "tests/security/test_tamper_table.py": 7.6,
    "tests/pbem/test_mixed_languages.py::test_a_whole_pax_game_mails_each_reader": 6.3,
    "tests/play/test_policies.py::test_coverage_": 4.7,  # they share two three-game runs
    "tests/soak/test_month.py::test_one_day_under_cron": 4.5,
    "tests/play/test_soak.py::test_a_short_soak_slice_runs_clean": 4.3,
    "tests/test_wheel.py": 4.0,
    "tests/board/test_browser_pages.py::test_the_history_site_in_a_browser": 2.7,
    "tests/pbem/test_delivery_e2e.py::test_a_game_played_purely_by_mail": 2.4,
    "tests/play/test_policies.py::test_greedy_": 2.2,  # they share one greedy game
    "tests/pbem/test_aor_hidden.py::test_random_moderated_play_keeps_every_hand": 2.1,
    "tests/pbem/test_git.py::test_the_documented_example_repository": 2.0,
    "tests/pbem/test_bot.py::test_greedy_bots_play_a_pax_game_to_its_end": 1.9,
    "tests/engine/test_playout_coverage.py::test_every_card_is_played": 1.9,
    "tests/pbem/test_decision_words.py::test_every_decision_in_every_sentence_that_names": 1.9,
    "tests/pbem/test_template_cache.py::test_a_report_is_the_same_with_and_without": 1.8,
    "tests/pbem/test_selfplay.py::test_selfplay_cli_json": 1.8,
    "tests/play/test_policies.py::test_min_coverage_passes_when_the_family_is_covered": 1.8,
    "tests/pbem/test_selfplay.py::test_full_selfplay_finishes_games_with_no_violations": 1.8,
    "tests/board/test_png.py::test_map_png_writes_an_image_file": 1.6,
    "tests/pbem/test_aor_selfplay.py::test_a_moderated_game_plays_to_the_end": 1.6,
    "tests/board/test_browser_pages.py::test_the_html_report_in_a_browser[aor-6": 1.1,
}

Item = TypeVar("Item")


def long_first(items: Sequence[Item], node_ids: Sequence[str], workers: int) -> list[Item]:
    """`items` (with their node ids) reordered: each of the `workers` slices worksteal gives
    out starts with its share of the LONG tests."""
    groups: list[tuple[float, list[int]]] = []
    taken: set[int] = set()
    for prefix, seconds in LONG.items():
        group = [i for i, node in enumerate(node_ids) if node.startswith(prefix) and i not in taken]
        taken.update(group)
        if group:
            groups.append((seconds, group))
    shares: list[list[int]] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for seconds, group in sorted(groups, key=lambda g: -g[0]):
        least = loads.index(min(loads))
        shares[least] += group
        loads[least] += seconds
    rest = [i for i in range(len(items)) if i not in taken]
    order: list[int] = []
    left = len(items)
    for k, share in enumerate(shares):
        size = left // (workers - k)  # as the scheduler deals them out
        fill = max(0, size - len(share))
        order += share + rest[:fill]
        rest = rest[fill:]
        left -= len(share) + fill
    return [items[i] for i in order + rest]
