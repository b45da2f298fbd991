"""The :class:`Version` value (hashicorp/go-version semantics) and its parse error."""

from __future__ import annotations

import re
from dataclasses import InitVar, field
from typing import Final

from .._errors import TfCheckError
from .._frozen import FrozenValue, frozen, public

__all__ = ["Version", "VersionError", "as_version"]

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
