"""The files of one test case's working directory: each step's configuration and variables.

State, the lock file and ``.terraform`` stay put between steps; the files a step wrote are
removed before the next step writes its own, so steps never see each other's configuration.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import shutil
from collections.abc import Mapping
from dataclasses import field
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

from .._frozen import FrozenValue, frozen
from .._redact import number_text
from ._case import TestStep, unwrap_sensitive
from ._errors import TestDefinitionError

__all__ = ["HCL_FILE", "JSON_FILE", "TFVARS_FILE", "Place", "WorkingDirectory"]

HCL_FILE: Final = "main.tf"
JSON_FILE: Final = "main.tf.json"
TFVARS_FILE: Final = "terraform.tfvars.json"
# Never copied from a config_directory: they belong to another working directory.
_NOT_COPIED: Final = frozenset({".terraform", ".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup"})
PLAN_FILE: Final = "tfplan"


def _exact_json(value: Any) -> str:
    """``value`` (plain JSON values, a copy :func:`unwrap_sensitive` made: it is changed) as indented JSON, numbers exact.

    ``json.dumps`` rounds a Decimal through a float (or refuses it) and refuses an int of more digits than
    Python converts (4300); a Terraform number has neither limit. Each such number goes through
    ``json.dumps`` as a stand-in string no value can hold (a random token), then its exact text replaces it.

    >>> print(_exact_json({"n": Decimal("12345678901234567890.123"), "big": 10**30, "s": "x"}))
    {
      "n": 12345678901234567890.123,
      "big": 1000000000000000000000000000000,
      "s": "x"
    }
    """
    token = secrets.token_hex(16)
    texts: list[str] = []
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        current = container[key]
        if isinstance(current, dict):
            stack.extend((current, k) for k in current)
        elif isinstance(current, list):
            stack.extend((current, i) for i in range(len(current)))
        elif isinstance(current, Decimal) or (isinstance(current, int) and not isinstance(current, bool)):
            texts.append(number_text(current))
            container[key] = f"{token}:{len(texts) - 1}"
    text = json.dumps(root[0], ensure_ascii=False, indent=2)
    return re.sub(f'"{token}:([0-9]+)"', lambda match: texts[int(match.group(1))], text)


def _write_json_config(config: Mapping[str, object], directory: Path) -> Path:
    # Imported here: the configuration model is only needed by steps that give a dict.
    from ..tfconfig import write_config

    return write_config(dict(config), directory, filename=JSON_FILE)


class WorkingDirectory:
    """The directory a test case runs in; writes a step's files and remembers them for removal.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     wd = WorkingDirectory(Path(d, "case1"))
    ...     digest = wd.write_step(TestStep(config='output "x" { value = 1 }', variables={"v": 1}))
    ...     sorted(p.name for p in wd.root.iterdir())
    ['main.tf', 'terraform.tfvars.json']
    """

    __slots__ = ("_dirs", "_written", "root")

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self._written: list[Path] = []
        self._dirs: list[Path] = []

    def __repr__(self) -> str:
        return f"WorkingDirectory({str(self.root)!r})"

    def clear(self) -> None:
        """Remove every file (and directory it created) the last step wrote."""
        for path in self._written:
            if path.is_file() or path.is_symlink():
                path.unlink()
        for directory in sorted(self._dirs, key=lambda p: len(p.parts), reverse=True):
            if directory.is_dir() and not any(directory.iterdir()):
                directory.rmdir()
        self._written = []
        self._dirs = []

    def write_step(self, step: TestStep, extra: Mapping[str, str] | None = None) -> str:
        """Write ``step``'s configuration and variables; return a digest of the configuration files.

        ``step`` has its configuration source resolved (no config functions). ``extra`` maps more
        file names to their text (an ``import`` block, say). Two steps with the same digest need
        no new ``terraform init``.
        """
        self.clear()
        if callable(step.config) or callable(step.config_directory) or callable(step.config_file):
            raise TestDefinitionError("TestStep", "a config function must be resolved before writing (runner bug)")
        if isinstance(step.config, str):
            target = self.root / HCL_FILE
            target.write_text(step.config, encoding="utf-8")
            self._written.append(target)
        elif isinstance(step.config, Mapping):
            target = _write_json_config(step.config, self.root)
            self._written.append(target)
        elif step.config_directory is not None:
            self._copy_directory(Path(step.config_directory))
        elif step.config_file is not None:
            self._copy_file(Path(step.config_file))
        for name, text in (extra or {}).items():
            target = self.root / name
            target.write_text(text, encoding="utf-8")
            self._written.append(target)
        digest = self._digest()
        if step.variables:
            target = self.root / TFVARS_FILE
            if target.exists():
                raise TestDefinitionError(
                    "TestStep.variables", f"config_directory already has a {TFVARS_FILE}; give the values in one place"
                )
            values = unwrap_sensitive(dict(step.variables), "TestStep.variables")
            target.write_text(_exact_json(values), encoding="utf-8")
            self._written.append(target)
        return digest

    def _copy_file(self, source: Path) -> None:
        if not source.is_file():
            raise TestDefinitionError("TestStep.config_file", f"{source} is not a file")
        target = self.root / source.name
        shutil.copyfile(source, target)
        self._written.append(target)

    def _copy_directory(self, source: Path) -> None:
        if not source.is_dir():
            raise TestDefinitionError("TestStep.config_directory", f"{source} is not a directory")
        pending = [source]
        while pending:
            current = pending.pop()
            for entry in sorted(current.iterdir()):
                if entry.name in _NOT_COPIED or entry.name.endswith(".tfstate"):
                    continue
                target = self.root / entry.relative_to(source)
                if entry.is_dir():
                    if not target.exists():
                        target.mkdir()
                        self._dirs.append(target)
                    pending.append(entry)
                else:
                    shutil.copyfile(entry, target)
                    self._written.append(target)

    def _digest(self) -> str:
        h = hashlib.sha256()
        for path in sorted(self._written):
            h.update(str(path.relative_to(self.root)).encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
        return h.hexdigest()


@frozen
class Place(FrozenValue):
    """Another working directory of the case (an import step's), with its own environment.

    >>> Place(WorkingDirectory(Path("/tmp/case1_import_step_2")), {"TF_DATA_DIR": "/tmp/x"}).wd.root.name
    'case1_import_step_2'
    """

    wd: WorkingDirectory
    env: dict[str, str] = field(repr=False)  # the case's environment: TF_VAR_* values, credentials
