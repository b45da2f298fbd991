"""The documentation site, built once per test session (``mkdocs build --strict``) and shared by its tests.

pytest-xdist workers share one build: the first worker to ask builds it under a lock, in the
session's base temporary directory, and records how the build went; the others read that record.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIRE_ENV = "TFPLANCHECK_REQUIRE_E2E"


def required() -> bool:
    """Whether a missing tool fails the docs tests instead of skipping them (as ``make test`` and CI run)."""
    return os.environ.get(REQUIRE_ENV, "").strip().lower() in ("1", "true", "yes")


def skip_or_fail(reason: str) -> None:
    """Skip with ``reason``, or fail under ``TFPLANCHECK_REQUIRE_E2E=1``: never a silent skip."""
    if required():
        pytest.fail(f"{reason} (and {REQUIRE_ENV}=1)", pytrace=False)
    pytest.skip(reason)


@dataclass(frozen=True)
class Build:
    site: Path
    returncode: int
    output: str
    seconds: float


def _shared_dir(factory: pytest.TempPathFactory) -> Path:
    base = factory.getbasetemp()
    # Under xdist each worker's base is <session>/popen-gwN: their parent is this session's, shared.
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_site(factory: pytest.TempPathFactory) -> Build:
    """The site, built with ``--strict`` at most once per session (skips without the docs extra)."""
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
        skip_or_fail("mkdocs is not installed: pip install -e '.[docs]' (make test installs it)")
    shared = _shared_dir(factory)
    record = shared / "docs-site.json"
    with open(shared / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            import time

            site = shared / "docs-site"
            started = time.monotonic()
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
            done = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
            )
            record.write_text(json.dumps({
                "site": str(site), "returncode": done.returncode, "output": done.stdout + done.stderr,
                "seconds": time.monotonic() - started,
            }))
    data = json.loads(record.read_text())
    return Build(Path(data["site"]), data["returncode"], data["output"], data["seconds"])
