"""``manage.py check --deploy`` passes under the production settings the README gives."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_production_settings() -> dict[str, str]:
    """The ``export NAME=value`` lines of the README's "Production settings", the secret key
    made as the README makes it."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Production settings", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    found = dict(re.findall(r"^export (\w+)=(\S+)", block, re.MULTILINE))
    assert found["DJANGO_SECRET_KEY"].startswith("$(python3")
    found["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    return found


def test_the_readmes_production_settings_pass_the_deploy_check() -> None:
    production = readme_production_settings()
    assert {"DJANGO_HTTPS", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL"} <= set(production)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "RASPIS_"))
        and key not in {"DATABASE_URL", "CACHE_URL", "REDIS_URL"}
    }
    env.update(production)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout
