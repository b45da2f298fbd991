"""The version checks: Go's ``tfversion.SkipBelow``, ``RequireAbove``, ..., their :class:`Result`, the
:class:`Version` value (hashicorp/go-version semantics) with its parse error, and Go's ``tfversion.Any``
and ``tfversion.All`` (version checks made of other version checks).
"""

from __future__ import annotations

import re
import typing as t
from dataclasses import KW_ONLY, InitVar, field
from typing import TYPE_CHECKING, ClassVar, Final

from .._errors import TfCheckError
from .._frozen import FrozenValue, frozen, public

# go-version's VersionRegexpRaw, anchored as NewVersion anchors it.
_VERSION: Final = re.compile(
    r"v?(?P<segments>[0-9]+(?:\.[0-9]+)*?)"
    r"(?:-(?P<pre1>[0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)"
    r"|-?(?P<pre2>[A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*))?"
    r"(?:\+(?P<meta>[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*))?",
    re.ASCII,
)
_MAX_TEXT: Final = 200
_MAX_SEGMENT: Final = 2**63 - 1


@public("plancheck.tfversion")
class VersionError(TfCheckError, TypeError, ValueError):
    """A version (or an argument of a version check) that cannot be used: where, and what is wrong.

    >>> str(VersionError("SkipBelow(minimum)", "not a version: 'one'"))
    "SkipBelow(minimum): not a version: 'one'"
    >>> isinstance(VersionError("x", "y"), ValueError)
    True
    """

    def __init__(self, where: str, problem: str) -> None:
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


def _shown(text: str) -> str:
    return repr(text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT] + "…")


def _prerelease_key(prerelease: str) -> tuple[tuple[int, int, str], ...]:
    # Numeric identifiers sort before alphanumeric ones and numerically among themselves (as go-version);
    # a shorter prerelease sorts before a longer one it prefixes (semver), which keeps the order total.
    # Numbers compare by digit count then digits (no int(): it refuses texts of thousands of digits).
    return tuple(
        (0, len(p.lstrip("0")), p.lstrip("0") + "/" + p) if p.isdigit() else (1, 0, p) for p in prerelease.split(".")
    )


@public("plancheck.tfversion")
@frozen
class Version(FrozenValue):
    """A Terraform version as hashicorp/go-version reads it: ``1.12.0``, ``1.11.4-rc1``, ``1.0.0+meta``.

    Missing segments count as 0 (``1.2`` is ``1.2.0``); a prerelease sorts before its release;
    build metadata is kept in ``str`` but ignored by comparisons (as in Go).

    >>> v = Version("1.12.0-alpha20240101")
    >>> v, str(v), v.prerelease, v.core
    (Version('1.12.0-alpha20240101'), '1.12.0-alpha20240101', 'alpha20240101', Version('1.12.0'))
    >>> Version("1.11.4") < v < Version("1.12.0") < Version("1.12.0.1"), Version("1.2") == Version("1.2.0")
    (True, True)
    >>> Version.parse("1.x")
    Traceback (most recent call last):
    ...
    plancheck.tfversion.VersionError: Version: not a version: '1.x' (expected e.g. 1.12.0 or 1.12.0-alpha20240101)
    """

    text: InitVar[str]
    _segments: tuple[int, ...] = field(init=False)
    _prerelease: str = field(init=False)
    _metadata: str = field(init=False)

    def __post_init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise VersionError("Version", f"expected a version string such as '1.12.0', got {type(text).__name__}")
        match = _VERSION.fullmatch(text)
        if match is None:
            raise VersionError(
                "Version", f"not a version: {_shown(text)} (expected e.g. 1.12.0 or 1.12.0-alpha20240101)"
            )
        texts = [t.lstrip("0") or "0" for t in match["segments"].split(".")]
        too_large = next((t for t in texts if len(t) > 19 or (len(t) == 19 and int(t) > _MAX_SEGMENT)), None)
        if too_large is not None:
            # go-version reads segments as int64; int() would also refuse thousands of digits.
            raise VersionError("Version", f"not a version: {_shown(text)} (segment {_shown(too_large)} is too large)")
        segments = [int(t) for t in texts]
        # go-version pads to MAJOR.MINOR.PATCH, and prints the padded form.
        segments.extend([0] * (3 - len(segments)))
        self._set(_segments=tuple(segments), _prerelease=match["pre1"] or match["pre2"] or "", _metadata=match["meta"] or "")

    @classmethod
    def parse(cls, text: str) -> Version:
        """Read ``text`` (Go's ``version.NewVersion``); a :class:`VersionError` names text that is not a version.

        >>> Version.parse("v1.0.3+ent").metadata
        'ent'
        """
        return cls(text)

    @property
    def segments(self) -> tuple[int, ...]:
        """The numeric segments, at least three.

        >>> Version("1.4").segments
        (1, 4, 0)
        """
        return self._segments

    @property
    def prerelease(self) -> str:
        """The prerelease text (``alpha20240101``, ``rc1``), empty for a release.

        >>> Version("1.11.4-rc1").prerelease, Version("1.11.4").prerelease
        ('rc1', '')
        """
        return self._prerelease

    @property
    def metadata(self) -> str:
        """The build metadata after ``+``, empty when there is none.

        >>> Version("1.0.0+x").metadata
        'x'
        """
        return self._metadata

    @property
    def core(self) -> Version:
        """MAJOR.MINOR.PATCH alone: no prerelease, no metadata (Go's ``Core()``).

        >>> Version("1.12.0-alpha20240101+abc").core
        Version('1.12.0')
        """
        major, minor, patch = self._segments[:3]
        return Version(f"{major}.{minor}.{patch}")

    def _key(self) -> tuple[object, ...]:
        numbers = list(self._segments)
        while numbers and numbers[-1] == 0:
            numbers.pop()
        # A release (empty prerelease) sorts after every prerelease of it.
        pre = (1, ()) if not self._prerelease else (0, _prerelease_key(self._prerelease))
        return (tuple(numbers), pre)

    def __str__(self) -> str:
        text = ".".join(str(s) for s in self._segments)
        if self._prerelease:
            text += f"-{self._prerelease}"
        if self._metadata:
            text += f"+{self._metadata}"
        return text

    def __repr__(self) -> str:
        return f"Version({str(self)!r})"

    def __reduce__(self) -> tuple[object, ...]:
        return (Version, (str(self),))

    # Versions compare by what they mean: 1.0 == 1.0.0, and build metadata is ignored.
    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Version):
            return self._key() == other._key()
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Version):
            return self._key() < other._key()
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Version):
            return self._key() <= other._key()
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Version):
            return self._key() > other._key()
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Version):
            return self._key() >= other._key()
        return NotImplemented


def as_version(value: object, where: str) -> Version:
    """``value`` as a :class:`Version` (a Version or its text); a :class:`VersionError` names ``where``.

    >>> as_version("1.0.3", "SkipIf(version)")
    Version('1.0.3')
    """
    if isinstance(value, Version):
        return value
    if not isinstance(value, str):
        raise VersionError(where, f"expected a version (str or Version), got {type(value).__name__}")
    try:
        return Version(value)
    except VersionError as exc:
        raise VersionError(where, exc.problem) from None


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
    """Base of the checks: ``CheckTerraformVersion(version)`` (Go's name, the only one) returns a :class:`Result`.

    >>> SkipIf("1.0.3").CheckTerraformVersion("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.'
    """

    def CheckTerraformVersion(self, version: Version | str) -> Result:  # Go's name, kept for ported tests
        """Decide for the Terraform ``version`` (a :class:`Version` or its text).

        >>> SkipBelow("1.12.0").CheckTerraformVersion("1.11.4").skip
        'Terraform CLI version 1.11.4 is below minimum version 1.12.0: skipping test'
        >>> SkipAbove("1.0.0").CheckTerraformVersion("1.11.4").skip
        'Terraform CLI version 1.11.4 is above maximum version 1.0.0: skipping test'
        """
        raise NotImplementedError


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

    >>> SkipBelow("1.12.0").CheckTerraformVersion("1.11.4")
    Result(skip='Terraform CLI version 1.11.4 is below minimum version 1.12.0: skipping test')
    >>> SkipBelow("1.12.0").CheckTerraformVersion("1.12.0-alpha20240101").passed
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

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) < self.version:
            return Result(skip=f"Terraform CLI version {tf} is below minimum version {self.version}: skipping test")
        return _PASS


@public("plancheck.tfversion")
class SkipAbove(_One):
    """Skip the test when Terraform is newer than ``maximum`` (Go's ``tfversion.SkipAbove``).

    >>> SkipAbove("1.11.4").CheckTerraformVersion("1.11.4").passed
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

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) > self.version:
            return Result(skip=f"Terraform CLI version {tf} is above maximum version {self.version}: skipping test")
        return _PASS


@public("plancheck.tfversion")
class SkipBetween(_Range):
    """Skip the test when ``minimum <= Terraform < maximum`` (Go's ``tfversion.SkipBetween``).

    >>> SkipBetween("1.0.0", "1.12.0").CheckTerraformVersion("1.11.4").skip
    'Terraform CLI version 1.11.4 is between 1.0.0 and 1.12.0: skipping test.'
    """

    def CheckTerraformVersion(self, version: Version | str) -> Result:
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

    >>> SkipIf("1.0.3").CheckTerraformVersion("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.'
    """

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        if _against(_terraform(version), self.version) == self.version:
            return Result(skip=f"Terraform CLI version is {self.version}: skipping test.")
        return _PASS


@public("plancheck.tfversion")
class SkipIfNotAlpha(VersionCheck):
    """Skip the test unless Terraform is an alpha build (Go's ``tfversion.SkipIfNotAlpha``).

    >>> SkipIfNotAlpha().CheckTerraformVersion("1.12.0-alpha20240101").passed
    True
    >>> SkipIfNotAlpha().CheckTerraformVersion("1.11.4-rc1").skip
    'Terraform CLI version 1.11.4-rc1 is not an alpha build: skipping test.'
    """

    __slots__ = ()

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if "alpha" not in tf.prerelease:
            return Result(skip=f"Terraform CLI version {tf} is not an alpha build: skipping test.")
        return _PASS


@public("plancheck.tfversion")
class SkipIfNotPrerelease(VersionCheck):
    """Skip the test unless Terraform is a prerelease build (Go's ``tfversion.SkipIfNotPrerelease``).

    >>> SkipIfNotPrerelease().CheckTerraformVersion("1.11.4").skip
    'Terraform CLI version 1.11.4 is not a prerelease build: skipping test.'
    """

    __slots__ = ()

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if not tf.prerelease:
            return Result(skip=f"Terraform CLI version {tf} is not a prerelease build: skipping test.")
        return _PASS


@public("plancheck.tfversion")
class RequireAbove(_One):
    """Fail the test when Terraform is older than ``minimum`` (Go's ``tfversion.RequireAbove``).

    >>> RequireAbove("1.12.0").CheckTerraformVersion("1.11.4").error
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

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) < self.version:
            return Result(error=f"expected Terraform CLI version above {self.version} but detected version is {tf}")
        return _PASS


@public("plancheck.tfversion")
class RequireBelow(_One):
    """Fail the test unless Terraform is older than ``maximum`` (Go's ``tfversion.RequireBelow``).

    >>> RequireBelow("1.12.0").CheckTerraformVersion("1.12.0").error
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

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        tf = _terraform(version)
        if _against(tf, self.version) >= self.version:
            return Result(error=f"expected Terraform CLI version below {self.version} but detected version is {tf}")
        return _PASS


@public("plancheck.tfversion")
class RequireBetween(_Range):
    """Fail the test unless ``minimum <= Terraform < maximum`` (Go's ``tfversion.RequireBetween``).

    >>> RequireBetween("1.0.0", "1.12.0").CheckTerraformVersion("1.14.1").error
    'expected Terraform CLI version between 1.0.0 and 1.12.0 but detected version is 1.14.1'
    """

    def CheckTerraformVersion(self, version: Version | str) -> Result:
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

    >>> RequireNot("1.0.3").CheckTerraformVersion("1.0.3").error
    'unexpected Terraform CLI version: 1.0.3'
    """

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        if _against(_terraform(version), self.version) == self.version:
            return Result(error=f"unexpected Terraform CLI version: {self.version}")
        return _PASS


def _method(check: object) -> t.Callable[[Version | str], object] | None:
    # A check of the user's own may still answer to the snake_case name the library's checks once had.
    for name in ("check_terraform_version", "CheckTerraformVersion"):
        method = getattr(check, name, None)
        if callable(method):
            return t.cast("t.Callable[[Version | str], object]", method)
    return None


@public("plancheck.tfversion")
def run_check(check: object, version: Version | str, where: str) -> Result:
    """Run any version check (Go's ``CheckTerraformVersion``, or ``check_terraform_version`` on a check of your own) as a :class:`Result`.

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
    >>> Any(SkipIf("1.0.3"), SkipBelow("1.5.0")).CheckTerraformVersion("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.\\nTerraform CLI version 1.0.3 is below minimum version 1.5.0: skipping test'
    >>> Any(SkipIf("1.0.3"), SkipBelow("1.5.0")).CheckTerraformVersion("1.11.4").passed
    True
    """

    __slots__ = ()

    def CheckTerraformVersion(self, version: Version | str) -> Result:
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
    >>> All(RequireAbove("1.5.0"), SkipIf("1.0.3")).CheckTerraformVersion("1.0.3").error
    'expected Terraform CLI version above 1.5.0 but detected version is 1.0.3'
    >>> All(SkipIf("1.0.3"), RequireAbove("1.5.0")).CheckTerraformVersion("1.0.3").skip
    'Terraform CLI version is 1.0.3: skipping test.'
    """

    __slots__ = ()

    def CheckTerraformVersion(self, version: Version | str) -> Result:
        for result in self._results(version):
            if result.error is not None:
                return Result(error=result.error)
            if result.skip is not None:
                return Result(skip=result.skip)
        return Result()
