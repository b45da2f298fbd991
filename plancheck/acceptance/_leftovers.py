"""Leftovers: when a case's destroy fails, its state and configuration are kept, and can be destroyed later.

``terraform test`` loses the state of a run whose destroy failed; Go's harness leaves it in a
temporary directory that is removed. Here the case's working directory (configuration, variables,
state, lock file; not ``.terraform``, which points into temporary provider mirrors) is copied to a
leftover directory with a ``leftover.json`` saying what it needs, and the failure names it and
the command that destroys it. ``destroy_leftovers`` (pytest ``--tf-destroy-leftovers``,
``tfplancheck destroy-leftovers``) retries every leftover: ``init`` and ``destroy`` in its
directory, serving the providers under test it needs (re-imported by name when they are
module-level classes or functions, or given as ``providers=``); a leftover destroyed is removed.

Leftover directories hold what the case held, secrets included (its variables, its state): they are
private to the user (mode 0700), as Terraform's own state files would need to be.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .._frozen import FrozenValue, frozen, public
from .._redact import secret_strings
from .._terraform import TerraformBinary
from ._errors import LeftoverRecordError, TestDefinitionError
from ._initialstate import STATE_FILE, read_initial_state

if TYPE_CHECKING:
    from .._terraform.providers import ProviderSet

__all__ = [
    "LEFTOVERS_ENV",
    "LEFTOVER_FILE",
    "SECRETS_FILE",
    "Leftover",
    "LeftoverResult",
    "default_leftovers_dir",
    "find_leftovers",
    "keep_leftover",
    "kept_secrets",
    "record_attempt",
]

LEFTOVER_FILE: Final = "leftover.json"
#: The secrets the case knew (a JSON list), for scrubbing what a later attempt prints; private, like the state.
SECRETS_FILE: Final = ".tfplancheck-secrets.json"
TFVARS: Final = "terraform.tfvars.json"
#: Where leftovers go when nothing else says: this variable, else ``.tfplancheck/leftovers`` here.
LEFTOVERS_ENV: Final = "TFPLANCHECK_LEFTOVERS_DIR"
_NOT_KEPT: Final = frozenset({".terraform", "terraform.tfstate.backup", ".terraform.tfstate.lock.info"})
_UNSAFE: Final = re.compile(r"[^A-Za-z0-9._-]+")


def default_leftovers_dir(base: str | os.PathLike[str] | None = None) -> Path:
    """``$TFPLANCHECK_LEFTOVERS_DIR``, else ``.tfplancheck/leftovers`` under ``base`` (default: the current directory).

    >>> default_leftovers_dir("/project").as_posix() if "TFPLANCHECK_LEFTOVERS_DIR" not in os.environ else "/project/.tfplancheck/leftovers"
    '/project/.tfplancheck/leftovers'
    """
    configured = os.environ.get(LEFTOVERS_ENV)
    if configured:
        return Path(configured)
    return Path(base if base is not None else os.getcwd()) / ".tfplancheck" / "leftovers"


def _factory_name(factory: Any) -> str | None:
    """``module:qualname`` when ``factory`` can be imported back by that name, else None."""
    module, qualname = getattr(factory, "__module__", None), getattr(factory, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    return f"{module}:{qualname}"


def _module_file(factory: Any) -> str | None:
    """The source file of the module ``factory`` is defined in, when there is one."""
    module = sys.modules.get(getattr(factory, "__module__", None) or "")
    path = getattr(module, "__file__", None)
    return os.path.realpath(path) if isinstance(path, str) else None


def keep_leftover(
    root: Path,
    working_dir: Path,
    *,
    test_name: str | None,
    terraform: TerraformBinary,
    cli_config: Path | None,
    providers: list[ProviderSet],
    reason: str,
    secrets: Sequence[str] = (),
    base_dir: Path | None = None,
) -> Path:
    """Copy ``working_dir`` into a new directory under ``root`` with its manifest; return the directory.

    ``secrets`` (what the case knew to scrub) are kept beside the state, in :data:`SECRETS_FILE`, never in
    the manifest: a later attempt scrubs its messages with them. ``base_dir`` (the test's directory) says
    which project the leftover is of; each provider under test is recorded with the file of its module, so
    that a module of the same name elsewhere is never taken for it.
    """
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    ignore = root.parent / ".gitignore"
    if root.parent.name == ".tfplancheck" and not ignore.exists():
        ignore.write_text("# Made by tfplancheck: leftovers of acceptance tests hold states and secrets.\n*\n")
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    label = _UNSAFE.sub("_", test_name or working_dir.name)[:60].strip("_") or "case"
    target = Path(tempfile.mkdtemp(prefix=f"{stamp}-{label}-", dir=root))  # private (0700), never a clash
    try:
        _fill(target, working_dir, stamp, test_name, terraform, cli_config, providers, reason, secrets, base_dir)
    except BaseException:
        # A copy cut short (a full disk) holds secrets and no manifest, so nothing would ever find and remove it.
        shutil.rmtree(target, ignore_errors=True)
        raise
    return target


def _fill(
    target: Path, working_dir: Path, stamp: str, test_name: str | None, terraform: TerraformBinary,
    cli_config: Path | None, providers: list[ProviderSet], reason: str, secrets: Sequence[str], base_dir: Path | None,
) -> None:
    shutil.copytree(
        working_dir, target, dirs_exist_ok=True, symlinks=True, ignore=lambda d, names: [n for n in names if n in _NOT_KEPT]
    )
    target.chmod(0o700)  # copytree copied the working directory's mode onto it
    needed: dict[str, str | None] = {}
    files: dict[str, str] = {}
    for provider_set in providers:
        for entry in provider_set:
            if entry.kind == "factory":
                needed[entry.address] = _factory_name(entry.source)
                source = _module_file(entry.source)
                if source is not None:
                    files[entry.address] = source
    if cli_config is not None and cli_config.is_file():
        shutil.copyfile(cli_config, target / "cli.tfrc")
    manifest = {
        "format": 1,
        "created": stamp,
        "test": test_name,
        "working_dir": str(working_dir),
        "terraform": {"path": terraform.path, "version": terraform.version, "flavor": terraform.flavor},
        "base_dir": None if base_dir is None else str(base_dir),
        "providers_in_process": needed,
        "provider_files": files,
        "reason": reason,
        "attempts": [],
    }
    (target / LEFTOVER_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    descriptor = os.open(target / SECRETS_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(descriptor, "w", encoding="utf-8") as stream:
        json.dump(sorted(set(secrets)), stream, ensure_ascii=False)


def kept_secrets(directory: Path) -> list[str]:
    """What a later attempt on the leftover in ``directory`` scrubs from its messages.

    The secrets the case knew (:data:`SECRETS_FILE`) and the values its kept state marks sensitive; when the
    case's list is missing or damaged, every value of its variables file too, map keys included (failing
    closed: which variables were sensitive is not known then).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "terraform.tfvars.json").write_text('{"pw": "hunter2!", "n": 3}')
    ...     sorted(kept_secrets(Path(d)))
    ['3', 'hunter2!']
    """
    found: list[str] = []
    try:
        listed = json.loads((directory / SECRETS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        listed = None
    if isinstance(listed, list):
        found.extend(s for s in listed if isinstance(s, str))
    else:
        try:
            variables = json.loads((directory / TFVARS).read_text(encoding="utf-8"), parse_float=Decimal)
        except (OSError, ValueError, RecursionError):
            variables = None
        if isinstance(variables, dict):  # the values, not the variables' names
            found.extend(text for value in variables.values() for text in secret_strings(value))
    with contextlib.suppress(TestDefinitionError):
        found.extend(read_initial_state(directory / STATE_FILE).secrets)
    return found


@public("plancheck.acceptance")
@frozen
class Leftover(FrozenValue):
    """One kept working directory and its manifest.

    >>> from pathlib import Path
    >>> Leftover(Path("/x"), {"test": "test_a", "providers_in_process": {}}).test
    'test_a'
    """


    path: Path
    manifest: Mapping[str, Any] = field(repr=False)
    #: Why its ``leftover.json`` cannot be read (None: it was read); such a leftover is never touched.
    unreadable: str | None = field(default=None, repr=False)

    def require_record(self) -> None:
        """Raise :class:`LeftoverRecordError` naming the record when it could not be read.

        >>> Leftover(Path("/l/x"), {}, unreadable="not valid JSON").require_record()
        Traceback (most recent call last):
        ...
        plancheck.acceptance.LeftoverRecordError: /l/x/leftover.json: unreadable leftover record (not valid JSON); the leftover was neither destroyed nor removed: repair or remove it by hand
        """
        if self.unreadable is not None:
            raise LeftoverRecordError(str(self.path / LEFTOVER_FILE), self.unreadable)

    @property
    def test(self) -> str | None:
        """The test whose case left it, when known."""
        value = self.manifest.get("test")
        return value if isinstance(value, str) else None

    @property
    def base_dir(self) -> str | None:
        """The directory of the test that left it (its project), when known."""
        value = self.manifest.get("base_dir")
        return value if isinstance(value, str) and value else None

    def provider_file(self, address: str) -> str | None:
        """The source file of the module of the provider under test at ``address``, when known."""
        value = self.manifest.get("provider_files")
        found = value.get(address) if isinstance(value, dict) else None
        return found if isinstance(found, str) and found else None

    def made_under(self, project: str | os.PathLike[str]) -> bool:
        """Whether its test was under ``project`` (True when the manifest does not say).

        >>> Leftover(Path("/l/x"), {"base_dir": "/work/a/tests"}).made_under("/work/a")
        True
        >>> Leftover(Path("/l/x"), {"base_dir": "/work/b/tests"}).made_under("/work/a")
        False
        """
        base = self.base_dir
        if base is None:
            return True
        return Path(os.path.realpath(base)).is_relative_to(os.path.realpath(project))

    @property
    def providers_in_process(self) -> dict[str, str | None]:
        """The providers under test it needs served: address -> ``module:qualname`` (None: not importable).

        A name that is not a string (a hand-edited manifest) is None: the provider must be given.
        """
        value = self.manifest.get("providers_in_process")
        if not isinstance(value, dict):
            return {}
        return {str(address): name if isinstance(name, str) and name else None for address, name in value.items()}


@public("plancheck.acceptance")
def find_leftovers(root: str | os.PathLike[str] | None = None) -> list[Leftover]:
    """Every leftover under ``root`` (default :func:`default_leftovers_dir`), oldest first.

    >>> find_leftovers("/no/such/directory")
    []
    """
    directory = Path(root) if root is not None else default_leftovers_dir()
    found: list[Leftover] = []
    if not directory.is_dir():
        return found
    for child in sorted(directory.iterdir()):
        manifest_path = child / LEFTOVER_FILE
        # Leftover directories are made here (mkdtemp), never links: one pointing elsewhere is not ours to destroy.
        if child.is_symlink() or not child.is_dir() or not manifest_path.is_file():
            continue
        found.append(_read(child, manifest_path))
    return found


def _read(directory: Path, manifest_path: Path) -> Leftover:
    """The leftover in ``directory``; one whose record is damaged says why (it is then never destroyed nor removed)."""
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except OSError as exc:
        return Leftover(directory, {}, unreadable=f"cannot be read: {exc.strerror or type(exc).__name__}")
    except RecursionError:
        return Leftover(directory, {}, unreadable="not valid JSON: nested too deep")
    except ValueError as exc:
        # The position only: a JSON error's message quotes no text, but keep it that way for a state's secrets.
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        return Leftover(directory, {}, unreadable=f"not valid JSON{where}")
    if not isinstance(manifest, dict):
        return Leftover(directory, {}, unreadable=f"expected a JSON object, got {_json_kind(manifest)}")
    return Leftover(directory, manifest)


def _json_kind(value: object) -> str:
    kinds = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return kinds.get(type(value), "a number")


@public("plancheck.acceptance")
@frozen
class LeftoverResult(FrozenValue):
    """What :func:`destroy_leftovers` did: the leftovers destroyed (and removed), those still kept, with why,
    those left alone because another project's tests left them (``project=``), and those whose record
    cannot be read (never touched: each with its :class:`LeftoverRecordError`'s message).

    >>> LeftoverResult(destroyed=["/l/a"], kept={"/l/b": "terraform destroy failed"}).ok
    False
    """


    destroyed: list[str]
    kept: dict[str, str]
    left_alone: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when nothing is left: none kept and none unreadable."""
        return not self.kept and not self.unreadable


def record_attempt(leftover: Leftover, problem: str | None) -> None:
    if problem is None:
        return
    manifest = dict(leftover.manifest)
    recorded = manifest.get("attempts")
    attempts = list(recorded) if isinstance(recorded, list) else []
    attempts.append({"at": datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ"), "problem": problem})
    manifest["attempts"] = attempts
    # The attempt still fails loudly through the result when its record cannot be written.
    with contextlib.suppress(OSError):
        (leftover.path / LEFTOVER_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
