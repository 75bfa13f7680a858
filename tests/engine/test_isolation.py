"""The engine is pure Python: importing it must not import Django (STYLE "Layout")."""

import subprocess
import sys


def test_importing_the_engine_imports_nothing_outside_the_standard_library() -> None:
    code = (
        "import sys; import replay.engine, replay.engine.cli, replay.engine.simulate; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'rest_framework', 'celery', 'config', 'games', 'stats')); "
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == ""


def test_the_engine_package_does_not_pull_in_the_django_app_module() -> None:
    code = "import sys, replay.engine; print('replay.apps' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "False"
