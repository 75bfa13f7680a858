"""The engine is pure Python: importing it must import nothing outside the standard library
(so that it runs alone), and above all not Django."""

import subprocess
import sys

#: Imports every module of the engine (walked with pkgutil, so a new one is never missed)
#: in a fresh interpreter, and prints what it imported beyond the standard library and the
#: engine itself. ``__main__`` runs the command line, so it is left out.
WALK = """
import importlib, pkgutil, sys
before = set(sys.modules)
import replay
for module in pkgutil.walk_packages(replay.__path__, "replay."):
    if not module.name.endswith(".__main__"):
        importlib.import_module(module.name)
ours = ("replay",)
bad = sorted(
    name
    for name in set(sys.modules) - before
    if name.split(".")[0] not in sys.stdlib_module_names
    and name not in ours
    and not name.startswith("replay.")
)
print(",".join(bad))
print(len([name for name in sys.modules if name.startswith("replay.")]))
"""


def test_every_engine_module_imports_nothing_outside_the_standard_library() -> None:
    out = subprocess.run(
        [sys.executable, "-c", WALK], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == ""
    assert int(out[1]) > 20  # the walk did import the engine's modules


def test_the_engine_package_does_not_pull_in_the_django_app_module() -> None:
    code = "import sys, replay; print('verification.apps' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
