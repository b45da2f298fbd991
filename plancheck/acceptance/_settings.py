"""What a runner hands each case it runs: one frozen value, so a case reads its settings and cannot change them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import KW_ONLY, field
from pathlib import Path
from types import MappingProxyType
from typing import Final

from .._frozen import FrozenValue, frozen
from .._redact import Secrets
from .._terraform import CommandResult, TerraformBinary, terraform_environment
from ._leftovers import default_leftovers_dir

__all__ = ["DEFAULT_TIMEOUT", "RunSettings"]

#: Seconds each command may take, unless the runner is given another timeout.
DEFAULT_TIMEOUT: Final = 600.0


@frozen
class RunSettings(FrozenValue):
    """An :class:`~plancheck.acceptance.AcceptanceRunner`'s settings, as each case it runs sees them.

    ``record`` and ``share_secrets`` are where a case reports to: the runner's list of (redacted)
    commands and the caller's secret sink; everything else is read only.

    >>> settings = RunSettings(TerraformBinary("/usr/bin/terraform", "1.11.4"), Path("/tmp/acc"), env={"TF_LOG": "x"})
    >>> settings.env["TF_LOG"], settings.timeout, settings.base_dir(Path("/here"))
    ('x', 600.0, PosixPath('/here'))
    >>> settings.leftovers_root(Path("/here")) == default_leftovers_dir(Path("/here"))
    True
    >>> RunSettings(TerraformBinary("terraform", "1.11.4"), Path("/w"), env={"TF_VAR_pw": "hunter2"}, echo=False)
    RunSettings(TerraformBinary('terraform', '1.11.4', 'terraform', ''), PosixPath('/w'), timeout=600.0, echo=False)
    """

    terraform: TerraformBinary
    work_dir: Path
    _: KW_ONLY
    cli_config: Path | None = None
    #: Left out of the repr: it holds the case's TF_VAR_* values and cloud credentials.
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    timeout: float = DEFAULT_TIMEOUT
    echo: bool = True
    share_secrets: Callable[[Secrets], None] | None = field(default=None, repr=False)
    record: Callable[[Iterable[CommandResult]], None] = field(default=lambda _results: None, repr=False)
    test_name: str | None = None
    base_dir_arg: Path | None = None
    leftovers_dir: Path | None = None

    def __post_init__(self) -> None:
        # A copy nobody can change, whatever the caller does with the mapping it passed.
        object.__setattr__(self, "env", MappingProxyType(dict(self.env)))

    def base_dir(self, cwd: Path | None = None) -> Path:
        """What relative configuration paths are relative to: ``base_dir``, else the current directory."""
        if self.base_dir_arg is not None:
            return self.base_dir_arg
        return cwd if cwd is not None else Path.cwd()

    def leftovers_root(self, cwd: Path | None = None) -> Path:
        """Where a case whose destroy fails keeps its state and configuration."""
        return self.leftovers_dir if self.leftovers_dir is not None else default_leftovers_dir(self.base_dir(cwd))

    def environment(self, root: Path) -> dict[str, str]:
        """The environment of the case in ``root``: the process's, the runner's ``env``, Terraform's data and CLI configuration."""
        base = {**os.environ, **self.env}
        fallback = None
        user = base.get("TF_CLI_CONFIG_FILE")
        if self.cli_config is None and user is not None and not os.path.isfile(user):
            # Beside the case directories, not in one: a configuration directory holds only the step's files.
            fallback = self.work_dir / "empty.tfrc"
            fallback.parent.mkdir(parents=True, exist_ok=True)
            fallback.write_text("", encoding="utf-8")
        return terraform_environment(
            base, data_dir=root / ".terraform", cli_config=self.cli_config, fallback_cli_config=fallback
        )
