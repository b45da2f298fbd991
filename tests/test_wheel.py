"""What the wheel ships: the two packages with their types and schemas, nothing of the demo, tools or tests."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # The PEP 517 hook in a fresh interpreter: what `pip wheel .` runs, without the network.
    subprocess.run(
        [sys.executable, "-c", "import sys, hatchling.build as b; b.build_wheel(sys.argv[1])", str(out)],
        cwd=ROOT, check=True, capture_output=True, timeout=300,
    )
    (built,) = out.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_only_the_two_packages_and_metadata(wheel_names: list[str]) -> None:
    tops = {name.split("/", 1)[0] for name in wheel_names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"plancheck", "tfjsonpath"}


@pytest.mark.parametrize(
    "name",
    [
        "plancheck/py.typed",
        "tfjsonpath/py.typed",
        "plancheck/schemas/plan.schema.json",
        "plancheck/schemas/state.schema.json",
        "plancheck/schemas/cli-output.schema.json",
        "plancheck/plugin.py",
        "plancheck/cli/__init__.py",
        "plancheck/_loading/members.py",
    ],
)
def test_ships(wheel_names: list[str], name: str) -> None:
    assert name in wheel_names


@pytest.mark.parametrize("fragment", ["demo", "tools/", "tests/", "examples/", "pinned", "__pycache__", ".pyc"])
def test_does_not_ship(wheel_names: list[str], fragment: str) -> None:
    assert [n for n in wheel_names if fragment in n] == []


def test_entry_points_name_shipped_modules(wheel: Path, wheel_names: list[str]) -> None:
    (entry,) = [n for n in wheel_names if n.endswith(".dist-info/entry_points.txt")]
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(entry).decode()
    assert "plancheck = plancheck.plugin" in text
    assert "tfplancheck = plancheck.cli:main" in text


def test_the_wheel_installs_in_a_fresh_venv_and_its_plugin_loads(wheel: Path, tmp_path: Path) -> None:
    """What a user does with `make dist`'s wheel (#27): a new virtual environment, pip, pytest."""
    # Nothing of the checkout may leak in: the suite puts it first on PYTHONPATH for its own subprocesses.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel), "pytest"],
        capture_output=True, text=True, timeout=600, env=env,
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    project = tmp_path / "project"
    project.mkdir()
    (project / "test_plan.py").write_text(
        "from plancheck import Plan, ExpectUnknownValue\nfrom tfjsonpath import New\n\n\n"
        "def test_unknown(tf_plan):\n"
        "    ExpectUnknownValue('null_resource.a', New('id')).CheckPlan(tf_plan)\n"
    )
    (project / "plan.json").write_text(
        '{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", '
        '"change": {"actions": ["create"], "after": {}, "after_unknown": {"id": true}}}]}'
    )
    session = subprocess.run([str(python), "-m", "pytest", "-q", "--tf-plan", "plan.json"], cwd=project,
                             capture_output=True, text=True, timeout=300, env=env)
    assert session.returncode == 0, session.stdout[-2000:]
    assert "1 passed" in session.stdout
    where = subprocess.run([str(python), "-c", "import plancheck; print(plancheck.__file__)"],
                           cwd=project, env=env, capture_output=True, text=True, check=True).stdout
    assert str(venv) in where  # the wheel's copy, not the checkout
