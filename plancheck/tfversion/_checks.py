"""The version checks: Go's ``tfversion.SkipBelow``, ``RequireAbove``, ... and their :class:`Result`."""

from __future__ import annotations

from dataclasses import KW_ONLY
from typing import TYPE_CHECKING, ClassVar

from .._frozen import FrozenValue, frozen, public
from ._version import Version, VersionError, as_version

__all__ = [
    "RequireAbove",
    "RequireBelow",
    "RequireBetween",
    "RequireNot",
    "Result",
    "SkipAbove",
    "SkipBelow",
    "SkipBetween",
    "SkipIf",
    "SkipIfNotAlpha",
    "SkipIfNotPrerelease",
    "VersionCheck",
]


@public("plancheck.tfversion")
@frozen
class Result(FrozenValue):
    """What a version check decided: an ``error`` (fail the test), a ``skip`` reason, or neither (run it).

    An empty text means none, as Go's empty ``Skip`` does.

    >>> Result(), Result(skip="too old"), Result(error="", skip="").passed
    (Result(), Result(skip='too old'), True)
    """

    _: KW_ONLY
    error: str | None = None
    skip: str | None = None

    def __post_init__(self) -> None:
        for name, value in (("error", self.error), ("skip", self.skip)):
            if value is not None and not isinstance(value, str):
                raise VersionError(f"Result({name})", f"expected str or None, got {type(value).__name__}")
        self._set(error=self.error or None, skip=self.skip or None)

    @property
    def passed(self) -> bool:
        """Neither an error nor a skip: the test runs.

        >>> Result(error="x").passed
        False
        """
        return self.error is None and self.skip is None


_PASS = Result()


def _terraform(version: object) -> Version:
    return as_version(version, "CheckTerraformVersion(version)")


def _against(tf: Version, own: Version) -> Version:
    """Go: the Terraform version itself when the check's version is a prerelease, else its core."""
    return tf if own.prerelease else tf.core


@public("plancheck.tfversion")
@frozen
class VersionCheck(FrozenValue):
    """Base of the checks: ``CheckTerraformVersion(version)`` (alias ``check_terraform_version``) returns a :class:`Result`.

    >>> SkipIf("1.0.3").check_terraform_version("1.0.3") == SkipIf("1.0.3").CheckTerraformVersion("1.0.3")
    True
    """

    def check_terraform_version(self, version: Version | str) -> Result:
        """Decide for the Terraform ``version`` (a :class:`Version` or its text).

        >>> SkipBelow("1.12.0").check_terraform_version("1.11.4").skip
        'Terraform CLI version 1.11.4 is below minimum version 1.12.0: skipping test'
        """
        raise NotImplementedError

    def CheckTerraformVersion(self, version: Version | str) -> Result:  # Go's name, kept for ported tests
        """Go's spelling of :meth:`check_terraform_version`.

        >>> SkipAbove("1.0.0").CheckTerraformVersion("1.11.4").skip
        'Terraform CLI version 1.11.4 is above maximum version 1.0.0: skipping test'
        """
        return self.check_terraform_version(version)


@frozen
class _One(VersionCheck):
    """A check about one version."""

    version: Version
    _argument: ClassVar[str] = "version"

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, version: Version | str) -> None: ...

    def __post_init__(self) -> None:
        self._set(version=as_version(self.version, f"{type(self).__name__}({self._argument})"))


@frozen
class _Range(VersionCheck):
    """A check about the half-open range ``[minimum, maximum)``."""

    minimum: Version
    maximum: Version

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, minimum: Version | str, maximum: Version | str) -> None: ...

    def __post_init__(self) -> None:
        name = type(self).__name__
        low = as_version(self.minimum, f"{name}(minimum)")
        high = as_version(self.maximum, f"{name}(maximum)")
        if not low < high:
            raise VersionError(f"{name}(minimum, maximum)", f"minimum {low} must be below maximum {high}")
        self._set(minimum=low, maximum=high)


@public("plancheck.tfversion")
class SkipBelow(_One):
    """Skip the test when Terraform is older than ``minimum`` (Go's ``tfversion.SkipBelow``).

    A prerelease of ``minimum`` counts as ``minimum`` unless ``minimum`` is a prerelease itself:

    >>> SkipBelow("1.12.0").check_terraform_version("1.11.4")
    Result(skip='Terraform CLI version 1.11.4 is below minimum version 1.12.0: skipping test')
    >>> SkipBelow("1.12.0").check_terraform_version("1.12.0-alpha20240101").passed
    True
    """

    _argument = "minimum"

    @property
    def minimum(self) -> Version:
        """The oldest version the test runs on.

        >>> SkipBelow("1.5.0").minimum
        Version('1.5.0')
        """
        return self.version

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) < self.version:
            return Result(skip=f"Terraform CLI version {tf} is below minimum version {self.version}: skipping test")
        return _PASS


@public("plancheck.tfversion")
class SkipAbove(_One):
    """Skip the test when Terraform is newer than ``maximum`` (Go's ``tfversion.SkipAbove``).

    >>> SkipAbove("1.11.4").check_terraform_version("1.11.4").passed
    True
    """

    _argument = "maximum"

    @property
    def maximum(self) -> Version:
        """The newest version the test runs on.

        >>> SkipAbove("1.5.0").maximum
        Version('1.5.0')
        """
        return self.version

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) > self.version:
            return Result(skip=f"Terraform CLI version {tf} is above maximum version {self.version}: skipping test")
        return _PASS


@public("plancheck.tfversion")
class SkipBetween(_Range):
    """Skip the test when ``minimum <= Terraform < maximum`` (Go's ``tfversion.SkipBetween``).

    >>> SkipBetween("1.0.0", "1.12.0").check_terraform_version("1.11.4").skip
    'Terraform CLI version 1.11.4 is between 1.0.0 and 1.12.0: skipping test.'
    """

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        low, high = _against(tf, self.minimum), _against(tf, self.maximum)
        if low >= self.minimum and high < self.maximum:
            return Result(
                skip=f"Terraform CLI version {tf} is between {self.minimum} and {self.maximum}: skipping test."
            )
        return _PASS


@public("plancheck.tfversion")
class SkipIf(_One):
    """Skip the test on exactly this Terraform ``version`` (Go's ``tfversion.SkipIf``).

    >>> SkipIf("1.0.3").check_terraform_version("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.'
    """

    def check_terraform_version(self, version: Version | str) -> Result:
        if _against(_terraform(version), self.version) == self.version:
            return Result(skip=f"Terraform CLI version is {self.version}: skipping test.")
        return _PASS


@public("plancheck.tfversion")
class SkipIfNotAlpha(VersionCheck):
    """Skip the test unless Terraform is an alpha build (Go's ``tfversion.SkipIfNotAlpha``).

    >>> SkipIfNotAlpha().check_terraform_version("1.12.0-alpha20240101").passed
    True
    >>> SkipIfNotAlpha().check_terraform_version("1.11.4-rc1").skip
    'Terraform CLI version 1.11.4-rc1 is not an alpha build: skipping test.'
    """

    __slots__ = ()

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if "alpha" not in tf.prerelease:
            return Result(skip=f"Terraform CLI version {tf} is not an alpha build: skipping test.")
        return _PASS


@public("plancheck.tfversion")
class SkipIfNotPrerelease(VersionCheck):
    """Skip the test unless Terraform is a prerelease build (Go's ``tfversion.SkipIfNotPrerelease``).

    >>> SkipIfNotPrerelease().check_terraform_version("1.11.4").skip
    'Terraform CLI version 1.11.4 is not a prerelease build: skipping test.'
    """

    __slots__ = ()

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if not tf.prerelease:
            return Result(skip=f"Terraform CLI version {tf} is not a prerelease build: skipping test.")
        return _PASS


@public("plancheck.tfversion")
class RequireAbove(_One):
    """Fail the test when Terraform is older than ``minimum`` (Go's ``tfversion.RequireAbove``).

    >>> RequireAbove("1.12.0").check_terraform_version("1.11.4").error
    'expected Terraform CLI version above 1.12.0 but detected version is 1.11.4'
    """

    _argument = "minimum"

    @property
    def minimum(self) -> Version:
        """The oldest version allowed.

        >>> RequireAbove("1.5.0").minimum
        Version('1.5.0')
        """
        return self.version

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) < self.version:
            return Result(error=f"expected Terraform CLI version above {self.version} but detected version is {tf}")
        return _PASS


@public("plancheck.tfversion")
class RequireBelow(_One):
    """Fail the test unless Terraform is older than ``maximum`` (Go's ``tfversion.RequireBelow``).

    >>> RequireBelow("1.12.0").check_terraform_version("1.12.0").error
    'expected Terraform CLI version below 1.12.0 but detected version is 1.12.0'
    """

    _argument = "maximum"

    @property
    def maximum(self) -> Version:
        """The first version not allowed.

        >>> RequireBelow("1.5.0").maximum
        Version('1.5.0')
        """
        return self.version

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) >= self.version:
            return Result(error=f"expected Terraform CLI version below {self.version} but detected version is {tf}")
        return _PASS


@public("plancheck.tfversion")
class RequireBetween(_Range):
    """Fail the test unless ``minimum <= Terraform < maximum`` (Go's ``tfversion.RequireBetween``).

    >>> RequireBetween("1.0.0", "1.12.0").check_terraform_version("1.14.1").error
    'expected Terraform CLI version between 1.0.0 and 1.12.0 but detected version is 1.14.1'
    """

    def check_terraform_version(self, version: Version | str) -> Result:
        tf = _terraform(version)
        low, high = _against(tf, self.minimum), _against(tf, self.maximum)
        if low < self.minimum or high >= self.maximum:
            return Result(
                error=f"expected Terraform CLI version between {self.minimum} and {self.maximum}"
                f" but detected version is {tf}"
            )
        return _PASS


@public("plancheck.tfversion")
class RequireNot(_One):
    """Fail the test on exactly this Terraform ``version`` (Go's ``tfversion.RequireNot``).

    >>> RequireNot("1.0.3").check_terraform_version("1.0.3").error
    'unexpected Terraform CLI version: 1.0.3'
    """

    def check_terraform_version(self, version: Version | str) -> Result:
        if _against(_terraform(version), self.version) == self.version:
            return Result(error=f"unexpected Terraform CLI version: {self.version}")
        return _PASS
