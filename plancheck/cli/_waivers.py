"""Waivers: failures a checks file accepts, says why, and until when.

A checks-file entry may carry ``waive = [{ address = "aws_s3_bucket.legacy*", reason = "...", until =
2027-01-31 }]``: a failure of that check at an address the glob matches (the selectors' address glob,
:func:`plancheck._documents.select.address_pattern`, linear in the address) is *waived*: reported as
waived with its reason, never counted as a failure. A failure with no address is matched only by
``address = "*"``. ``until`` (a TOML date, or ``"YYYY-MM-DD"`` in a JSON checks file) is the last day
the waiver waives; from the day after, the waiver is *expired*: it waives nothing and every report
says so. "Today" is the UTC date, or ``TFPLANCHECK_TODAY`` (``YYYY-MM-DD``) when set: a fixed date for
tests and for re-running an old pipeline as it ran.

The runner applies them (:func:`plancheck.cli._checksfile.apply_waivers`); baselines, the other way to
accept failures, are in :mod:`plancheck.cli._output`.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from .._documents.select import address_pattern
from .._errors import CheckFailure
from .._frozen import FrozenValue, frozen
from .._text import Glob, closest

__all__ = ["TODAY_ENV", "Waived", "Waiver", "WaiverError", "parse_waivers", "today"]

#: The environment variable that fixes "today" (``YYYY-MM-DD``) for waiver expiry.
TODAY_ENV: Final = "TFPLANCHECK_TODAY"
_WAIVER_KEYS: Final = ("address", "reason", "until")
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_EXAMPLE: Final = '[{ address = "aws_s3_bucket.legacy*", reason = "...", until = 2027-01-31 }]'


class WaiverError(ValueError):
    """A bad ``waive`` entry, at its key path (made a located ``ChecksFileError`` by the checks-file reader).

    >>> str(WaiverError("check[0].waive[0]", "a waiver needs a reason"))
    'check[0].waive[0]: a waiver needs a reason'
    """

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}")


@frozen
class Waiver(FrozenValue):
    """One accepted failure pattern of a check: an address glob, why, and until when.

    >>> w = Waiver("aws_s3_bucket.legacy*", "migrating in Q3 (team-storage)", datetime.date(2027, 1, 31), "check[0].waive[0]")
    >>> w.covers("aws_s3_bucket.legacy_logs"), w.expired(datetime.date(2027, 2, 1)), w.expired(datetime.date(2027, 1, 31))
    (True, True, False)
    """

    address: str
    reason: str
    until: datetime.date | None
    origin: str
    glob: Glob | None = dataclasses.field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.glob is None:
            object.__setattr__(self, "glob", address_pattern(self.address, "address", "waive"))

    def covers(self, address: str | None) -> bool:
        """Whether this waiver's glob matches ``address`` (None, a failure of no address: only ``*``)."""
        assert self.glob is not None
        return self.glob.matches(address or "")

    def expired(self, on: datetime.date) -> bool:
        """Whether the waiver no longer waives on the day ``on`` (``until`` is its last day)."""
        return self.until is not None and on > self.until

    def describe(self) -> str:
        """One line: the glob, the expiry and the reason.

        >>> Waiver("a.b", "why", None, "check[0].waive[0]").describe()
        'a.b (no expiry): why'
        """
        until = f"until {self.until.isoformat()}" if self.until is not None else "no expiry"
        return f"{self.address} ({until}): {self.reason}"

    def as_json(self) -> dict[str, Any]:
        """The waiver in JSON documents."""
        return {"address": self.address, "reason": self.reason,
                "until": self.until.isoformat() if self.until is not None else None, "origin": self.origin}


@frozen
class Waived(FrozenValue):
    """A failure and the waiver that waived it.

    >>> Waived(CheckFailure("ExpectEmptyPlan", "a.b", None, "changed"), Waiver("a.*", "why", None, "check[0].waive[0]")).waiver.reason
    'why'
    """

    failure: CheckFailure
    waiver: Waiver


def _date(value: Any, where: str) -> datetime.date:
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value
    if isinstance(value, str) and _DATE.match(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    shown = json.dumps(value[:40]) if isinstance(value, str) else (
        "a date and time" if isinstance(value, (datetime.datetime, datetime.time)) else type(value).__name__)
    raise WaiverError(where, f'expected a date such as 2027-01-31 (in JSON "2027-01-31"), found {shown}')


def parse_waivers(value: Any, where: str, origin: str = "") -> tuple[Waiver, ...]:
    """An entry's ``waive`` list as waivers; a :class:`WaiverError` at the key path for anything wrong.

    >>> parse_waivers([{"address": "a.*", "reason": "why", "until": "2027-01-31"}], "check[0].waive")[0].until
    datetime.date(2027, 1, 31)
    >>> parse_waivers([{"address": "a.*"}], "check[0].waive")
    Traceback (most recent call last):
    ...
    plancheck.cli._waivers.WaiverError: check[0].waive[0]: a waiver needs a reason: why the failure is accepted (and who accepts it)
    """
    if not isinstance(value, list):
        raise WaiverError(where, f"expected a list of waivers such as {_EXAMPLE}, found {_kind(value)}")
    waivers = []
    for i, item in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(item, Mapping):
            raise WaiverError(at, f"expected a waiver table such as {_EXAMPLE[1:-1]}, found {_kind(item)}")
        for key in item:
            if key not in _WAIVER_KEYS:
                near = closest(str(key), list(_WAIVER_KEYS), n=1)
                did = f"; did you mean {near[0]!r}?" if near else ""
                shown = str(key) if len(str(key)) <= 60 else str(key)[:50] + "…"
                raise WaiverError(f"{at}.{shown}", f"unknown waiver key {shown!r}{did} (a waiver takes: address, reason, until)")
        if "address" not in item:
            raise WaiverError(at, 'a waiver needs an address: an address glob such as "aws_s3_bucket.legacy*"')
        if "reason" not in item:
            raise WaiverError(at, "a waiver needs a reason: why the failure is accepted (and who accepts it)")
        address, reason = item["address"], item["reason"]
        if not isinstance(address, str):
            raise WaiverError(f"{at}.address", f'expected an address glob such as "aws_s3_bucket.legacy*", found {_kind(address)}')
        if not isinstance(reason, str) or not reason.strip():
            found = "an empty string" if isinstance(reason, str) else _kind(reason)
            raise WaiverError(f"{at}.reason", f"expected a reason (text saying why the failure is accepted), found {found}")
        until = _date(item["until"], f"{at}.until") if "until" in item else None
        try:
            waivers.append(Waiver(address, reason, until, f"{origin} {at}".strip()))
        except (TypeError, ValueError) as exc:
            raise WaiverError(f"{at}.address", str(exc)) from None
    return tuple(waivers)


def _kind(value: Any) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return "a date/time"
    from tfjsonpath import describe_json_type

    return describe_json_type(value)


def today(environ: Mapping[str, str]) -> datetime.date:
    """Today's UTC date, or ``TFPLANCHECK_TODAY`` from ``environ``; a ``ValueError`` for a bad value.

    >>> today({"TFPLANCHECK_TODAY": "2027-02-01"})
    datetime.date(2027, 2, 1)
    >>> today({"TFPLANCHECK_TODAY": "tomorrow"})
    Traceback (most recent call last):
    ...
    ValueError: TFPLANCHECK_TODAY must be a date such as 2027-01-31, not 'tomorrow'
    """
    given = environ.get(TODAY_ENV)
    if not given:
        return datetime.datetime.now(datetime.UTC).date()
    try:
        if _DATE.match(given):
            return datetime.date.fromisoformat(given)
    except ValueError:
        pass
    raise ValueError(f"{TODAY_ENV} must be a date such as 2027-01-31, not {given[:40]!r}")
