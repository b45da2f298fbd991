"""The plugin's light half: the ``TF_ACC`` gate and the report header, with nothing of the runner.

A session that uses no acceptance fixture must not pay for the acceptance stack (about a hundred
modules) nor run ``terraform version``: these run at configure and header time for every session,
so they import only the base modules. The binary is found on ``PATH`` here (cheap); its version is
read when a test asks for ``tf_acceptance``.
"""

from __future__ import annotations

import os
from typing import Any, Final

import pytest

from .._terraform.locate import (
    ENV_TERRAFORM_PATH,
    ENV_TF_ACC,
    executable_problem,
    locate_terraform,
    tf_acc_set,
)
from .options import terraform_binary, tf_acc_gate

__all__ = [
    "NOT_FOUND",
    "REQUIRE_E2E_ENV",
    "TERRAFORM_OPTION",
    "configure_tf_acc",
    "report_header",
    "requested_terraform",
    "required",
]

TERRAFORM_OPTION: Final = "--terraform"
#: When set to 1 (as the project's own test command does), a missing binary fails instead of skipping.
REQUIRE_E2E_ENV: Final = "TFPLANCHECK_REQUIRE_E2E"
NOT_FOUND: Final = (
    f"no terraform binary found: pass {TERRAFORM_OPTION} PATH, set ${ENV_TERRAFORM_PATH}, "
    "or put terraform or tofu on PATH"
)


def required() -> bool:
    """Whether a missing binary fails acceptance tests instead of skipping them (``TFPLANCHECK_REQUIRE_E2E=1``)."""
    return os.environ.get(REQUIRE_E2E_ENV, "").strip().lower() in ("1", "true", "yes")


def requested_terraform(config: pytest.Config | Any) -> str | None:
    """The binary asked for with ``--terraform`` (or the ``tf_terraform`` ini key), if any.

    >>> requested_terraform(None) is None  # no pytest config: nothing was asked for
    True
    """
    if config is None:
        return None
    return terraform_binary(config)


def configure_tf_acc(config: pytest.Config | Any) -> bool:
    """With the gate off (``--no-tf-acc-gate``, ``tf_acc_gate = false``), set ``TF_ACC=1`` for the session.

    Then every runner, the fixture's and those a test builds itself (and subprocesses), runs as
    if the user had exported ``TF_ACC``; the variable is restored when the session ends.
    Returns whether it set it.

    >>> from types import SimpleNamespace
    >>> configure_tf_acc(SimpleNamespace(getoption=lambda name, default=None: None, getini=lambda name: True))
    False
    """
    if tf_acc_gate(config) or tf_acc_set():
        return False
    previous = os.environ.get(ENV_TF_ACC)
    os.environ[ENV_TF_ACC] = "1"

    def restore() -> None:
        if previous is None:
            os.environ.pop(ENV_TF_ACC, None)
        else:
            os.environ[ENV_TF_ACC] = previous

    config.add_cleanup(restore)
    return True


def report_header(config: pytest.Config | Any) -> list[str]:
    """Lines for ``pytest_report_header``: which binary acceptance tests would use, found without running it.

    >>> from types import SimpleNamespace
    >>> config = SimpleNamespace(getoption=lambda name, default=None: "/nonexistent/terraform", getini=lambda name: "")
    >>> report_header(config)
    ['plancheck: acceptance tests: cannot use Terraform binary /nonexistent/terraform: no such file (from --terraform)']
    """
    try:
        located = locate_terraform(requested_terraform(config))
    except (OSError, ValueError) as exc:
        return [f"plancheck: acceptance tests: {exc} (from {TERRAFORM_OPTION})"]
    if located is None:
        outcome = "fail" if required() else "be skipped"
        return [f"plancheck: acceptance tests: {NOT_FOUND}; tf_acceptance tests will {outcome}"]
    path, origin = located
    origin = TERRAFORM_OPTION if origin == "explicit" else origin
    found, problem = executable_problem(path)  # a few stat calls: the version is read when a test needs it
    if problem is not None:
        # Only now the error (and the base modules under it): its text is the one the runner raises.
        from .._terraform.binary import TerraformNotFoundError

        return [f"plancheck: acceptance tests: {TerraformNotFoundError(found, problem)} (from {origin})"]
    return [f"plancheck: acceptance tests use {found} (from {origin})"]
