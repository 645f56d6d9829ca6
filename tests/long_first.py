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
# whose tests share a module-scoped fixture is one prefix, so its tests stay together on one
# worker (bench/README.md, "The test suite, session 9"). A name that no longer matches only
# loses its place at the front.
LONG: dict[str, float] = {
    "tests/test_readme.py::test_the_readme_commands_run_as_written": 10.9,
    "tests/play/test_soak.py::test_shards_merge_to_the_run_played_at_once": 5.0,
    "tests/pbem/test_bot_cron.py::test_a_four_player_pax_game_with_a_bot_seat_runs": 8.7,
    "tests/play/test_policies.py::test_policies_are_deterministic_per_seed[greedy": 8.3,
    "tests/play/test_policies.py::test_coverage_": 7.0,  # two of them share a run
    "tests/pbem/test_mixed_languages.py::test_a_whole_pax_game_mails_each_reader": 6.1,
    "tests/security/test_tamper_table.py": 6.0,
    "tests/play/test_policies.py::test_a_short_coverage_run_reaches_abilities": 5.6,
    "tests/soak/test_month.py::test_one_day_under_cron": 4.9,
    "tests/test_wheel.py": 4.5,
    "tests/board/test_browser_pages.py::test_the_history_site_in_a_browser": 4.2,
    "tests/play/test_policies.py::test_min_coverage_passes_when_the_family_is_covered": 2.7,
    "tests/pbem/test_plain_yaml.py::test_damaged_text_reads_the_same_or_steps_aside": 3.5,
    "tests/pbem/test_plain_yaml.py::test_what_our_dumper_writes_reads_the_same": 3.0,
    "tests/board/test_browser_pages.py::test_the_html_report_in_a_browser[aor-6": 3.0,
    "tests/board/test_browser_pages.py::test_the_html_report_in_a_browser[pax-4": 2.5,
    "tests/board/test_browser_pages.py::test_the_html_report_in_a_browser[pax-3": 2.5,
    "tests/pbem/test_orderblock_properties.py::test_finding_raises_only_block_errors": 2.3,
    "tests/board/test_browser_pages.py::test_the_html_report_in_a_browser[aor-3": 2.3,
    "tests/play/test_policies.py::test_policies_are_deterministic_per_seed[coverage": 2.3,
    "tests/play/test_policies.py::test_greedy_wins_by_declaring_a_victory_square": 2.3,
    "tests/pbem/test_bot.py::test_greedy_bots_play_a_pax_game_to_its_end": 2.2,
    "tests/engine/test_playout_coverage.py::test_every_card_is_played": 2.1,
    "tests/pbem/test_aor_hidden.py::test_random_moderated_play_keeps_every_hand": 2.1,
    "tests/pbem/test_delivery_e2e.py::test_a_game_played_purely_by_mail": 2.1,
    "tests/pbem/test_plain_yaml.py::test_the_fast_writer_writes_pyyamls_bytes": 2.1,
    "tests/play/test_soak.py::test_a_short_soak_slice_runs_clean": 2.0,
    "tests/pbem/test_git.py::test_the_documented_example_repository": 1.9,
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
