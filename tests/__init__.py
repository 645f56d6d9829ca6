"""The test suite. Imported before any conftest or test module (pytest imports `tests.conftest`
as part of this package), so the bytecode settings below hold for every module pytest loads.

Bytecode is cached outside the tree when the environment asks for none
(PYTHONDONTWRITEBYTECODE): for child processes (`pbem` run as a command by the demo, README,
wheel and git tests), as an installed wheel has its .pyc files, and for each pytest process
itself: without it every pytest-xdist worker compiled pbem from source and rewrote the asserts
of all ~190 test modules again (4 of a worker's 6 CPU s of collecting, issue 17). pytest keeps
its rewritten modules under `sys.pycache_prefix` too.

The suite's scratch folders (tmp_path, the child processes' temporary files) are on the RAM
disk /dev/shm when the machine has one and TMPDIR is not set: pbem fsyncs every file it writes
and its folder (pbem/store/files.py), about 6 ms each on this machine's disk, thousands of
times a run (a whole game under cron: 985 of them, 6 s of wall). No test is about the disk:
what is written is read back, and the fault-injection tests fail the writes themselves."""

import os
import sys
import tempfile
from pathlib import Path

_RAM = Path("/dev/shm")


def _roomy_ram_disk() -> bool:
    """A container's /dev/shm is often 64 MB: too small for a run's scratch and bytecode."""
    if not (_RAM.is_dir() and os.access(_RAM, os.W_OK | os.X_OK)):
        return False
    fs = os.statvfs(_RAM)
    return fs.f_bavail * fs.f_frsize >= 2 << 30


if "TMPDIR" not in os.environ and _roomy_ram_disk():
    os.environ["TMPDIR"] = str(_RAM)  # inherited by the pytest-xdist workers and children
    tempfile.tempdir = None  # read TMPDIR again

if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) /
                                            f"pbem-tests-pyc-{os.getuid()}")
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False
