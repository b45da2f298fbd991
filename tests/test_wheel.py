"""What the wheel ships: the two packages with their types and schemas, nothing of the demo, tools or tests."""

from __future__ import annotations

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
