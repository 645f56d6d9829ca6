"""Pax's handlers load on first lookup (engine.core.registry, start-up: bench/README.md), so
the tables name them by module path. Each path must lead to the handler of its own name, and
every handler the engine defines must be listed: a decision or an op with no entry would only
fail when a game first reaches it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys

import engine.pax
from engine.core.ruleset import Action
from engine.pax.actions.ops.base import OpHandler
from engine.pax.actions.ops.node import HANDLERS
from engine.pax.actions.turn import VERBS as TURN_VERBS
from engine.pax.ruleset import PaxRuleset
from engine.pax.ruleset_actions import ACTIONS, WHERE
from engine.pax.upkeep import Upkept
from pbem.resources import ruleset_data


def _every_pax_module() -> list[str]:
    names = [info.name for info in pkgutil.walk_packages(engine.pax.__path__, "engine.pax.")]
    for name in names:
        importlib.import_module(name)
    return names


def test_every_decision_resolves_to_its_own_handler_followed_by_the_upkeep() -> None:
    for name, where in WHERE.items():
        action = ACTIONS[name]
        assert isinstance(action, Upkept), name
        assert action.name == name == action.inner.name, where
        module, _, cls = where.partition(":")
        assert type(action.inner).__module__ == module and type(action.inner).__name__ == cls
    assert ACTIONS["turn"] is ACTIONS["turn"]  # made once
    assert list(ACTIONS) == list(WHERE) and len(ACTIONS) == len(WHERE)


def test_every_action_class_of_the_engine_is_listed() -> None:
    defined = set()
    for name in _every_pax_module():
        for cls in vars(sys.modules[name]).values():
            if inspect.isclass(cls) and issubclass(cls, Action) and cls.__module__ == name \
                    and cls is not Upkept and "name" in vars(cls):
                defined.add(f"{name}:{cls.__name__}")
    assert defined == set(WHERE.values())


def test_every_op_type_resolves_to_its_handler() -> None:
    data = ruleset_data("pax", ("cards", "map", "abilities"))["cards"]
    op_types = {str(op["type"]) for op in data["op_catalog"].values()}
    assert op_types == set(HANDLERS)
    for op_type in op_types:
        assert isinstance(HANDLERS[op_type], OpHandler), op_type


def test_every_verb_of_the_main_turn_is_a_verb_of_the_order_language() -> None:
    verbs = set(PaxRuleset().verbs)
    for verb, handler in TURN_VERBS.items():
        assert verb in verbs
        assert callable(handler.options) and callable(handler.apply), verb
    assert {"oneshot in", "free", "standing", "end"} <= verbs


def test_the_main_turn_loads_no_other_decision_one_shot_or_explanation() -> None:
    """What the lazy tables are for: the main turn's module (all an `end` needs) loads no
    one-shot, battle, agent placement or op family, nor the explanations of refused lines."""
    code = ("import sys\nimport engine.pax.actions.turn\n"
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('engine.pax'))))\n")
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.split())
    assert "engine.pax.actions.turn" in loaded
    assert not loaded & {"engine.pax.actions.oneshots", "engine.pax.battle",
                         "engine.pax.actions.agents", "engine.pax.actions.ops.military",
                         "engine.pax.actions.ops.political", "engine.pax.actions.ops.religious",
                         "engine.pax.actions.ops.borrow", "engine.pax.explain",
                         "engine.pax.explain_places", "engine.pax.regime",
                         "engine.pax.bishops"}, sorted(loaded)
