"""The suite's own reading of YAML (game files it inspects or edits by hand, data files):
PyYAML's safe loader on libyaml when PyYAML has it, the same data as `yaml.safe_load` at about a
tenth of the pure-Python loader's time (issue 17). What pbem reads is read by pbem's own code."""

from __future__ import annotations

from typing import Any

import yaml

_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str | bytes) -> Any:
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader
