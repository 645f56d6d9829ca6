"""Compiled report templates kept between runs (start-up: compiling the templates cost about a
third of a `pbem report`).

Jinja2 keys its bytecode cache by template name and file, and checks the source's checksum, but
not the environment's settings. An HTML environment compiles the same macros with escaping and a
text one without, so each configuration gets a folder of its own, named by a hash of every
setting that changes the compiled code. The cache lives in the user's cache folder (mode 0700,
owned by them); when it cannot be made, read or written the templates are compiled as before,
so a cache never fails a report or changes a byte of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, FileSystemBytecodeCache


class QuietCache(FileSystemBytecodeCache):
    """Jinja2's file cache, for which any failure means: compile it again."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 - damaged in any way (pickle, marshal): compile afresh
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # unwritable: the next run compiles again
            super().dump_bytecode(bucket)


def cache_root() -> Path | None:
    """$XDG_CACHE_HOME/pbem/templates, or ~/.cache/pbem/templates; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(base) if base else Path.home() / ".cache"
    except RuntimeError:
        return None
    return root / "pbem" / "templates"


def configuration(env: jinja2.Environment) -> str:
    """Every setting that changes what a template compiles to."""
    return repr((jinja2.__version__, sys.version, env.autoescape, env.trim_blocks,
                 env.lstrip_blocks, env.keep_trailing_newline, sorted(env.extensions),
                 getattr(env, "newstyle_gettext", None), env.block_start_string,
                 env.variable_start_string, env.comment_start_string, env.line_statement_prefix,
                 env.newline_sequence, env.optimized))


def _private_folder(folder: Path) -> bool:
    """The folder exists, is a real folder, is ours and nobody else may write in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = folder.lstat()
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def attach(env: jinja2.Environment) -> None:
    """Give `env` (fully configured, its language installed) a cache of its own settings."""
    root = cache_root()
    if root is None:
        return
    folder = root / hashlib.sha256(configuration(env).encode()).hexdigest()[:16]
    if _private_folder(folder):
        env.bytecode_cache = QuietCache(str(folder))
