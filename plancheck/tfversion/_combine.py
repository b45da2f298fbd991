"""Go's ``tfversion.Any`` and ``tfversion.All``: version checks made of other version checks."""

from __future__ import annotations

import typing as t

from .._frozen import frozen, public
from ._checks import Result, VersionCheck
from ._version import Version, VersionError

__all__ = ["All", "Any", "run_check"]


def _method(check: object) -> t.Callable[[Version | str], object] | None:
    for name in ("check_terraform_version", "CheckTerraformVersion"):
        method = getattr(check, name, None)
        if callable(method):
            return t.cast("t.Callable[[Version | str], object]", method)
    return None


@public("plancheck.tfversion")
def run_check(check: object, version: Version | str, where: str) -> Result:
    """Run any version check (``check_terraform_version`` or Go's ``CheckTerraformVersion``) as a :class:`Result`.

    What it returns needs ``error`` and ``skip`` attributes (str or None); else a :class:`VersionError` names ``where``.

    >>> from plancheck.tfversion import SkipIf
    >>> run_check(SkipIf("1.0.3"), "1.0.3", "checks[0]")
    Result(skip='Terraform CLI version is 1.0.3: skipping test.')
    """
    method = _method(check)
    if method is None:
        raise VersionError(where, f"expected a version check (with check_terraform_version()), got {type(check).__name__}")
    answer = method(version)
    if isinstance(answer, Result):
        return answer
    try:
        error, skip = answer.error, answer.skip  # type: ignore[attr-defined]
        return Result(error=None if error is None else str(error), skip=skip)
    except (AttributeError, VersionError):
        raise VersionError(
            where, f"expected a result with error and skip (str or None), got {type(answer).__name__}"
        ) from None


@frozen
class _Combined(VersionCheck):
    checks: tuple[object, ...]

    # A dataclass cannot take *checks: this is the one hand-written constructor of a value.
    def __init__(self, *checks: object) -> None:
        name = type(self).__name__
        if not checks:
            raise VersionError(f"{name}()", "give at least one version check")
        for i, check in enumerate(checks):
            if _method(check) is None:
                raise VersionError(
                    f"{name}(checks[{i}])",
                    f"expected a version check (with check_terraform_version()), got {type(check).__name__}",
                )
        self._set(checks=checks)

    def _args(self, *, shown: bool = False) -> tuple[tuple[object, ...], dict[str, object]]:
        return self.checks, {}

    def _results(self, version: Version | str) -> t.Iterator[Result]:
        name = type(self).__name__
        for i, check in enumerate(self.checks):
            yield run_check(check, version, f"{name}(checks[{i}])")


@public("plancheck.tfversion")
class Any(_Combined):
    """Run the test if any check lets it run (Go's ``tfversion.Any``).

    Otherwise every error (one per line) fails it, or, with no error, every skip reason skips it.

    >>> from plancheck.tfversion import SkipBelow, SkipIf
    >>> Any(SkipIf("1.0.3"), SkipBelow("1.5.0")).check_terraform_version("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.\\nTerraform CLI version 1.0.3 is below minimum version 1.5.0: skipping test'
    >>> Any(SkipIf("1.0.3"), SkipBelow("1.5.0")).check_terraform_version("1.11.4").passed
    True
    """

    __slots__ = ()

    def check_terraform_version(self, version: Version | str) -> Result:
        errors: list[str] = []
        skips: list[str] = []
        for result in self._results(version):
            if result.passed:
                return Result()
            if result.error is not None:
                errors.append(result.error)
            if result.skip is not None:
                skips.append(result.skip)
        # Go: errors.Join drops nil errors; the skips are joined by newlines, then trimmed.
        return Result(error="\n".join(errors), skip="\n".join(skips).strip())


@public("plancheck.tfversion")
class All(_Combined):
    """Run the test only if every check lets it run (Go's ``tfversion.All``).

    The checks run in order; the first that errors or skips decides (later ones do not run).

    >>> from plancheck.tfversion import RequireAbove, SkipIf
    >>> All(RequireAbove("1.5.0"), SkipIf("1.0.3")).check_terraform_version("1.0.3").error
    'expected Terraform CLI version above 1.5.0 but detected version is 1.0.3'
    >>> All(SkipIf("1.0.3"), RequireAbove("1.5.0")).check_terraform_version("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.'
    """

    __slots__ = ()

    def check_terraform_version(self, version: Version | str) -> Result:
        for result in self._results(version):
            if result.error is not None:
                return Result(error=result.error)
            if result.skip is not None:
                return Result(skip=result.skip)
        return Result()
