"""Waivers: failures a checks file accepts, says why, and until when.

A checks-file entry may carry ``waive = [{ address = "aws_s3_bucket.legacy*", reason = "...", until =
2027-01-31 }]``: a failure of that check at an address the glob matches (the selectors' address glob,
:func:`plancheck._documents.select.address_pattern`, linear in the address) is *waived*: reported as
waived with its reason, never counted as a failure. A failure with no address is matched only by
``address = "*"``; a whole-plan check's (``ExpectEach*``) waiver names the objects of its failure it waives with
``element`` (:func:`apply_waivers`). ``until`` (a TOML date, or ``"YYYY-MM-DD"`` in a JSON checks file) is the last day
the waiver waives; from the day after, the waiver is *expired*: it waives nothing and every report
says so. "Today" is the UTC date, or ``TFPLANCHECK_TODAY`` (``YYYY-MM-DD``) when set: a fixed date for
tests and for re-running an old pipeline as it ran.

The runner applies them (:func:`apply_waivers`). Baselines, the other way to
accept failures, are here too (the second half): a file of failures accepted all at once.
"""

from __future__ import annotations

import dataclasses
import datetime
import errno
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from decimal import Decimal
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol, TypeVar

from .._checking.messages import keyed_address
from .._documents.select import address_pattern
from .._documents.sensitive import shown_address
from .._errors import ArgumentError, CheckFailure
from .._frozen import FrozenValue, frozen
from .._loading.jsontext import KeyRepeated, each_key_once
from .._loading.source import write_whole
from .._redact import NO_SECRETS
from .._text import Glob, Step, closest, compile_glob, one_line
from ._io import SCHEMA_VERSION, UnreadableInput, read_input, render_json

if TYPE_CHECKING:
    from tfjsonpath import Path

    from .._redact import Secrets
    from ..snapshot import FingerprintKey

__all__ = [
    "BASELINE_VERSION",
    "TODAY_ENV",
    "Baseline",
    "BaselineEntry",
    "BaselineError",
    "Waived",
    "Waiver",
    "WaiverError",
    "apply_baseline",
    "apply_waivers",
    "baseline_document",
    "baseline_key",
    "exact_json_int",
    "expired_note",
    "failure_identities",
    "failure_identity",
    "fixed_note",
    "judge_by_baseline",
    "parse_baseline",
    "judge_plans",
    "parse_waivers",
    "plan_key",
    "read_baseline",
    "render_waivers",
    "today",
    "unused_note",
    "unused_once",
    "waivers_document",
    "write_baseline",
    "waiver_for",
    "write_entries",
]

#: The environment variable that fixes "today" (``YYYY-MM-DD``) for waiver expiry.
TODAY_ENV: Final = "TFPLANCHECK_TODAY"
_WAIVER_KEYS: Final = ("address", "reason", "until", "plan", "element")
#: The keys that narrow what a waiver waives, and what each takes.
_NARROWING: Final = {"plan": 'a glob of plan files such as "envs/legacy/*"',
                     "element": 'an address glob of the objects it waives, such as "aws_s3_bucket.legacy"'}
_DATE: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")
_EXAMPLE: Final = '[{ address = "aws_s3_bucket.legacy*", reason = "...", until = 2027-01-31 }]'
#: How a secret instance key begins as shown, and as a keyed fingerprint (:func:`failure_identity`) spells it.
SENSITIVE_KEY: Final = "(sensitive"
_FINGERPRINTED: Final = re.compile(r"\(sensitive #[0-9a-f]{12}\)")


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
    _: dataclasses.KW_ONLY
    #: A glob of the plan files it waives in (``*`` any text, ``/`` included; matched against the file as given,
    #: normalised: :func:`plan_key`); None: every plan checked, as the checks are.
    plan: str | None = None
    plan_glob: Glob | None = dataclasses.field(default=None, compare=False, repr=False)
    #: For an address that names an instance by its secret key, ``(sensitive)`` or its keyed fingerprint
    #: ``(sensitive #0123456789ab)``: the glob with each fingerprint read as ``(sensitive)``, the instances it may
    #: be written for (:func:`waiver_for`); None for every other address.
    secret_glob: Glob | None = dataclasses.field(default=None, compare=False, repr=False)
    #: A whole-plan check's failure (``ExpectEach*``): the address glob of the objects of it this waiver waives, as
    #: :attr:`address` is an address's (a secret instance key by its keyed fingerprint); None: the failure as a whole.
    element: str | None = None
    #: The waiver :attr:`element` names the objects by, matched as a failure's address is (:func:`waiver_for`).
    each: Waiver | None = dataclasses.field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.glob is None:
            object.__setattr__(self, "glob", address_pattern(self.address, "address", "waive"))
        if self.secret_glob is None and SENSITIVE_KEY in self.address:
            shown = _FINGERPRINTED.sub(SENSITIVE_KEY + ")", self.address)
            object.__setattr__(self, "secret_glob", address_pattern(shown, "address", "waive"))
        if self.plan is not None and self.plan_glob is None:
            if not self.plan.strip():
                raise ArgumentError("expected a glob of plan files such as \"envs/legacy/*\", found an empty string")
            program = [Step.STAR if c == "*" else Step.ANY if c == "?" else c for c in plan_key(self.plan)]
            object.__setattr__(self, "plan_glob", compile_glob(program, self.plan))
        if self.element is not None and (self.each is None or self.each.address != self.element):
            glob = address_pattern(self.element, "element", "waive")
            object.__setattr__(self, "each", Waiver(self.element, self.reason, self.until, self.origin, glob))

    def covers(self, address: str | None, plan: str | None = None) -> bool:
        """Whether this waiver's glob matches ``address`` (None, a failure of no address: only ``*``), in plan file
        ``plan`` (a waiver naming plans waives nothing in a plan of no file name).

        >>> w = Waiver("a.*", "why", None, "check[0].waive[0]", plan="envs/legacy/*")
        >>> w.covers("a.b", "envs/legacy/plan.json"), w.covers("a.b", "./envs/legacy/plan.json"), w.covers("a.b", "envs/prod/plan.json")
        (True, True, False)
        """
        assert self.glob is not None
        return self.waives_in(plan) and self.glob.matches(address or "")

    def waives_in(self, plan: str | None) -> bool:
        """Whether this waiver waives in plan file ``plan`` (a waiver naming plans: in those only)."""
        return self.plan_glob is None or (plan is not None and self.plan_glob.matches(plan_key(plan)))

    @property
    def keyed(self) -> bool:
        """Whether the address names an instance by its keyed fingerprint (``TFPLANCHECK_SNAPSHOT_KEY``'s).

        >>> Waiver('a.k["(sensitive #0123456789ab)"]', "why", None, "w").keyed, Waiver('a.k["(sensitive)"]', "why", None, "w").keyed
        (True, False)
        """
        return _FINGERPRINTED.search(self.address) is not None

    def expired(self, on: datetime.date) -> bool:
        """Whether the waiver no longer waives on the day ``on`` (``until`` is its last day)."""
        return self.until is not None and on > self.until

    def describe(self) -> str:
        """One line: the glob, the expiry and the reason.

        >>> Waiver("a.b", "why", None, "check[0].waive[0]").describe()
        'a.b (no expiry): why'
        """
        until = f"until {self.until.isoformat()}" if self.until is not None else "no expiry"
        where = f" in {self.plan}" if self.plan is not None else ""
        element = f" element {self.element}" if self.element is not None else ""
        return f"{self.address}{element}{where} ({until}): {self.reason}"

    def as_json(self) -> dict[str, Any]:
        """The waiver in JSON documents (``plan`` only when it names plans, ``element`` when it names objects)."""
        return {"address": self.address, "reason": self.reason,
                "until": self.until.isoformat() if self.until is not None else None, "origin": self.origin,
                **({"plan": self.plan} if self.plan is not None else {}),
                **({"element": self.element} if self.element is not None else {})}


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
    # Said in the file's words, as every other key's error is (Python's type names, "int" or "NoneType", are not).
    if isinstance(value, str):
        shown = json.dumps(value[:40])
    elif isinstance(value, datetime.datetime):
        shown = "a date and time"
    elif isinstance(value, datetime.time):
        shown = "a time of day"
    else:
        shown = _kind(value)
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
                raise WaiverError(f"{at}.{shown}", f"unknown waiver key {shown!r}{did} (a waiver takes: {', '.join(_WAIVER_KEYS)})")
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
        narrowing = {name: item[name] for name in _NARROWING if item.get(name) is not None}
        for name, given in narrowing.items():
            if not isinstance(given, str):
                raise WaiverError(f"{at}.{name}", f"expected {_NARROWING[name]}, found {_kind(given)}")
        try:
            waivers.append(Waiver(address, reason, until, f"{origin} {at}".strip()))
        except (TypeError, ValueError) as exc:
            raise WaiverError(f"{at}.address", str(exc)) from None
        for name, given in narrowing.items():
            try:
                waivers[-1] = dataclasses.replace(waivers[-1], **{name: given})
            except ValueError as exc:
                raise WaiverError(f"{at}.{name}", str(exc)) from None
    return tuple(waivers)


def _kind(value: Any) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return "a date/time"
    from tfjsonpath import describe_json_type

    return describe_json_type(value)


def today(environ: Mapping[str, str]) -> datetime.date:
    """Today's UTC date, or ``TFPLANCHECK_TODAY`` from ``environ``; an ArgumentError (a ``ValueError``) for a bad value.

    >>> today({"TFPLANCHECK_TODAY": "2027-02-01"})
    datetime.date(2027, 2, 1)
    >>> today({"TFPLANCHECK_TODAY": "tomorrow"})
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: TFPLANCHECK_TODAY must be a date such as 2027-01-31, not 'tomorrow'
    """
    given = environ.get(TODAY_ENV)
    if not given:
        return datetime.datetime.now(datetime.UTC).date()
    try:
        if _DATE.match(given):
            return datetime.date.fromisoformat(given)
    except ValueError:
        pass
    raise ArgumentError(f"{TODAY_ENV} must be a date such as 2027-01-31, not {given[:40]!r}")


# What this module reads of the checks file's specs and results (``CheckSpec``, ``CheckResult`` of
# plancheck.cli._checksfile), said as protocols: that module imports this one for its waivers.


class _Spec(Protocol):
    @property
    def type(self) -> str: ...
    @property
    def address(self) -> str | None: ...
    @property
    def path(self) -> Path | None: ...
    @property
    def waivers(self) -> tuple[Waiver, ...]: ...


class _Result(Protocol):
    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def spec(self) -> _Spec: ...
    @property
    def status(self) -> str: ...
    @property
    def failures(self) -> tuple[CheckFailure, ...]: ...
    @property
    def known(self) -> tuple[CheckFailure, ...]: ...
    @property
    def waived(self) -> tuple[Waived, ...]: ...
    @property
    def unused_waivers(self) -> tuple[Waiver, ...]: ...


_R = TypeVar("_R", bound=_Result)


def apply_waivers(result: _R, on: datetime.date, plan: str | None = None, secrets: Secrets = NO_SECRETS,
                  key: FingerprintKey | None = None) -> _R:
    """``result`` with the failures its check's live waivers cover moved to ``waived``, its expired waivers named;
    ``plan`` is the plan file checked (a waiver naming plans waives in those only), ``secrets`` its secrets and
    ``key`` ``TFPLANCHECK_SNAPSHOT_KEY``, by which a waiver names an instance keyed by a secret (:func:`waiver_for`).

    A ``fail`` or ``warn`` result whose every failure is waived passes; an ``error`` result is left as
    it is (a check that could not run has nothing to waive). The live waivers that name none of its failures (nor an
    object of one) are its ``unused_waivers``: all of a ``pass`` result's, none of an ``error`` result's. The
    checks-file runner applies them (:func:`plancheck.cli._checksfile.run_checks`).
    """
    waivers = result.spec.waivers
    if not waivers:
        return result
    expired = tuple(w for w in waivers if w.expired(on))
    live = [w for w in waivers if not w.expired(on)]
    # A waiver naming other plans is out of this plan's scope, not stale: one checks file serves every plan of a
    # platform, and a job checking one plan would otherwise note every other plan's waivers.
    scoped = [w for w in live if w.waives_in(plan)]
    if result.status not in ("fail", "warn"):
        unused = tuple(scoped) if result.status == "pass" else ()  # what a check that could not run would fail: unknown
        return dataclasses.replace(result, expired_waivers=expired, unused_waivers=unused)
    kept: list[CheckFailure] = []
    waived: list[Waived] = list(result.waived)
    for failure in result.failures:
        address = failure.address if failure.address is not None else result.spec.address
        waiver, why = waiver_for([w for w in live if w.each is None], failure, address, plan, secrets, key)
        if waiver is None and failure.elements:
            waiver, why = _each_waived([w for w in live if w.each is not None and w.covers(address, plan)], failure,
                                       plan, secrets, key, why)
        if waiver is None:
            kept.append(failure if why is None else dataclasses.replace(failure, message=f"{failure.message} ({why})"))
        else:
            waived.append(Waived(failure, waiver))
    # A waiver that another before it shadows still names a failure: it is not stale, only redundant.
    unused = tuple(w for w in scoped if not any(_names(w, f, result.spec.address, plan, secrets, key)
                                                for f in result.failures))
    return dataclasses.replace(result, status=result.status if kept else "pass", failures=tuple(kept),
                               waived=tuple(waived), expired_waivers=expired, unused_waivers=unused)


def _names(waiver: Waiver, failure: CheckFailure, address: str | None, plan: str | None, secrets: Secrets,
           key: FingerprintKey | None) -> bool:
    """Whether ``waiver`` covers ``failure`` of a check at ``address`` in plan file ``plan`` as :func:`waiver_for`
    would were it the only one, or was written for it (the failure then says why it waives it not); one naming
    objects (:attr:`Waiver.element`): whether it does so for one of them."""
    address = failure.address if failure.address is not None else address
    if waiver.each is None:
        return _covering([waiver], address, failure.unscrubbed_address, plan, secrets, key) != (None, None)
    if not waiver.covers(address, plan):
        return False
    for element in failure.elements:
        shown = shown_address(element, secrets)
        if _covering([waiver.each], shown, element if shown != element else None, plan, secrets, key) != (None, None):
            return True
    return False


def waiver_for(waivers: Iterable[Waiver], failure: CheckFailure, address: str | None, plan: str | None,
               secrets: Secrets, key: FingerprintKey | None = None) -> tuple[Waiver | None, str | None]:
    """The first of ``waivers`` that covers ``failure`` at ``address`` in plan file ``plan``; with none, why a waiver
    written for it waives it not (None when none was).

    An instance keyed by a secret is shown ``(sensitive)``, as is every other such instance: a waiver naming it so
    would waive them all (a new secret, a swapped one). It names one instance as a baseline does, by its keyed
    fingerprint under ``key`` (``TFPLANCHECK_SNAPSHOT_KEY``), or every instance by a glob (``aws_s3_bucket.k[*]``).

    >>> from plancheck import Secrets
    >>> shown = Waiver('a.k["(sensitive)"]', "why", None, "c.toml:1 check[0].waive[0]")
    >>> failure = CheckFailure("X", 'a.k["(sensitive)"]', None, "no", unscrubbed_address='a.k["pw-1"]')
    >>> waiver_for([shown], failure, failure.address, None, Secrets(["pw-1"]))[1]
    'no waiver waives it: c.toml:1 check[0].waive[0] (a.k["(sensitive)"]) names an instance by its secret key, which only TFPLANCHECK_SNAPSHOT_KEY (a CI secret of 16 bytes or more) tells apart from other instances; set it, and name the instance as this note then does'
    """
    return _covering(waivers, address, failure.unscrubbed_address, plan, secrets, key)


def _covering(waivers: Iterable[Waiver], address: str | None, hidden: str | None, plan: str | None, secrets: Secrets,
              key: FingerprintKey | None) -> tuple[Waiver | None, str | None]:
    """:func:`waiver_for` of the address ``address`` as shown, ``hidden`` the address it hides a secret key of."""
    if hidden is None:
        return next((w for w in waivers if w.covers(address, plan)), None), None
    keyed = _fingerprinted(hidden, secrets, key) if key is not None else None
    for waiver in waivers:
        if waiver.secret_glob is None:
            if waiver.covers(address, plan):  # a glob of every instance: it covers this one as any other
                return waiver, None
        elif keyed is not None and waiver.covers(keyed, plan):
            return waiver, None
    written = next((w for w in waivers if w.secret_glob is not None and w.waives_in(plan)
                    and w.secret_glob.matches(address or "")), None)
    if written is None or (keyed is not None and written.keyed):  # none, or one of another instance
        return None, None
    if keyed is None:
        return None, f"no waiver waives it: {written.origin} ({written.address}) {UNKEYED_WAIVER}"
    return None, f"no waiver waives it: {written.origin} ({written.address}) {SHOWN_WAIVER}; name this one {keyed}"


def _each_waived(waivers: Sequence[Waiver], failure: CheckFailure, plan: str | None, secrets: Secrets,
                 key: FingerprintKey | None, why: str | None) -> tuple[Waiver | None, str | None]:
    """The waiver of a whole-plan check's ``failure`` when ``waivers``, each naming objects (:attr:`Waiver.element`),
    waive every object it fails on (the first object's); else None, and the objects none waives when some are."""
    if not waivers:
        return None, why
    first: Waiver | None = None
    left: list[str] = []
    for element in failure.elements:
        shown = shown_address(element, secrets)
        hidden = element if shown != element else None
        each, note = _covering([w.each for w in waivers if w.each is not None], shown, hidden, plan, secrets, key)
        if each is None:
            # Named as a baseline's entry names it: with the key, a secret instance key by its keyed fingerprint.
            left.append(_fingerprinted(element, secrets, key) if hidden is not None and key is not None else shown)
            why = why or note
        elif first is None:
            first = next(w for w in waivers if w.each is each)
    if not left:
        return first, None
    if first is None:
        return None, why
    return None, f"no waiver waives {', '.join(secrets.scrub(e) for e in left)}" + (f"; {why}" if why else "")


#: Why a waiver naming an instance by its secret key as shown, ``(sensitive)``, waives nothing with a key set.
SHOWN_WAIVER: Final = "names its secret instance key (sensitive), as every instance keyed by a secret is shown"
#: Why a waiver naming an instance by its secret key waives nothing without a key to tell instances apart.
UNKEYED_WAIVER: Final = ("names an instance by its secret key, which only TFPLANCHECK_SNAPSHOT_KEY (a CI secret of "
                         "16 bytes or more) tells apart from other instances; set it, and name the instance as this "
                         "note then does")


def _fingerprinted(address: str, secrets: Secrets, key: FingerprintKey) -> str:
    """``address`` with each instance key that hides a secret as its fingerprint under ``key``: how a baseline entry
    and a waiver name it (:func:`plancheck._checking.messages.keyed_address`)."""
    # Two instances keyed by secrets were one entry, (sensitive): a baseline accepting one accepted the other.
    # An HMAC under the CI's key tells them apart and, without that key, says nothing of the secret (a plain
    # hash of a short one is reversed by trying every candidate).
    return keyed_address(address, secrets, secrets.scrub,
                         lambda where, text: key.fingerprint(_KEY_PLACE + where, text, None))


def expired_note(check: str, waiver: Waiver) -> str:
    """What every output notes of an expired waiver of a ``check``-type check (which then waives nothing).

    >>> expired_note("ExpectNoDestroys", Waiver("a.*", "why", datetime.date(2020, 1, 1), "c.toml check[0].waive[0]"))
    'c.toml check[0].waive[0] (a.*) expired on 2020-01-01: it no longer waives ExpectNoDestroys (renew it with a new reason, or fix the failures)'
    """
    until = waiver.until.isoformat() if waiver.until is not None else "?"
    return (f"{waiver.origin} ({waiver.address}) expired on {until}: it no longer waives {check} "
            "(renew it with a new reason, or fix the failures)")


def unused_note(check: str, waiver: Waiver, plan: str | None) -> str:
    """What every output notes of a live waiver of a ``check``-type check that waived nothing in the run's plans its
    plan glob takes (a typo, or a failure since fixed), noted with plan file ``plan``, the first of them
    (:func:`unused_once`).

    >>> unused_note("ExpectNoDestroys", Waiver("a.legcy*", "why", None, "c.toml:3 check[0].waive[0]"), "plan.json")
    'c.toml:3 check[0].waive[0] (a.legcy*) waived nothing: no failure of ExpectNoDestroys matched it (correct it, or remove it)'
    """
    element = f" element {waiver.element}" if waiver.element is not None else ""
    where = f" in {waiver.plan}" if waiver.plan is not None else ""
    return (f"{waiver.origin} ({waiver.address}{element}{where}) waived nothing: no failure of {check} matched it "
            "(correct it, or remove it)")


def unused_once(plans: Sequence[tuple[str | None, Sequence[_R]]]) -> list[list[_R]]:
    """The results of each plan of a run of many (its file, its results, each of the same checks in order) with the
    waivers no plan used (in the ``unused_waivers`` of every plan its plan glob takes), each in one plan's only, as a
    baseline entry is noted fixed once: the first plan its plan glob takes. A waiver whose glob takes no plan of the
    run is out of its scope and not noted.

    >>> from plancheck.cli._checksfile import CheckResult, CheckSpec
    >>> w, v = Waiver("a.*", "why", None, "w0", plan="old/*"), Waiver("b.*", "why", None, "w1")
    >>> spec = CheckSpec("ExpectNoDestroys", None, "c", waivers=(w, v))
    >>> plans = [("new/p.json", [CheckResult(spec, "pass", unused_waivers=(w, v))]),
    ...          ("old/p.json", [CheckResult(spec, "pass", unused_waivers=(w,))])]
    >>> [[u.origin for u in results[0].unused_waivers] for results in unused_once(plans)]
    [[], ['w0']]
    """
    out = [list(results) for _, results in plans]
    for j in range(len(out[0]) if out else 0):
        named = list(dict.fromkeys(w for results in out for w in results[j].unused_waivers))  # in order, once each
        idle = [w for w in named if all(w in results[j].unused_waivers
                                        for (name, _), results in zip(plans, out, strict=True) if w.waives_in(name))]
        # Each is unused in some plan, so its glob takes that one: the first such is its home.
        home = [next(i for i, (name, _) in enumerate(plans) if w.waives_in(name)) for w in idle]
        for i, results in enumerate(out):
            results[j] = dataclasses.replace(results[j], unused_waivers=tuple(w for w, h in zip(idle, home, strict=True)
                                                                              if h == i))
    return out


def fixed_note(entry: BaselineEntry, baseline: str) -> str:
    """What every output notes of a ``baseline`` entry no failure matched any more (so the file can shrink).

    >>> fixed_note(BaselineEntry("ExpectNoDestroys", "a.b", None), "base.json")
    'baseline entry no longer fails (remove it from base.json): ExpectNoDestroys: a.b'
    """
    return f"baseline entry no longer fails (remove it from {baseline}): {entry.describe()}"


# -- --list-waivers --------------------------------------------------------------------------------


def waivers_document(specs: Sequence[_Spec], on: datetime.date, tool_version: str, keyed: bool = False) -> dict[str, Any]:
    """``--list-waivers`` (kind ``waivers``): every waiver of ``specs`` in order, its check, whether it expired by ``on``,
    and, for one naming an instance by its secret key that waives nothing (``keyed``: ``TFPLANCHECK_SNAPSHOT_KEY`` is
    set), why, as the failure it was written for says it (``waives_nothing``).

    >>> from plancheck.cli._checksfile import CheckSpec
    >>> spec = CheckSpec("ExpectNoDestroys", None, "c.toml check[0]", waivers=(Waiver("a.*", "why", None, "c.toml check[0].waive[0]"),))
    >>> print(render_waivers(waivers_document([spec], datetime.date(2027, 1, 31), "0.1.0")))
    c.toml check[0].waive[0]: ExpectNoDestroys: a.* (no expiry): why
    1 waiver (0 expired as of 2027-01-31)
    >>> spec = CheckSpec("ExpectNoDestroys", None, "c.toml check[0]", waivers=(Waiver('a.k["(sensitive)"]', "why", None, "c.toml check[0].waive[0]"),))
    >>> print(render_waivers(waivers_document([spec], datetime.date(2027, 1, 31), "0.1.0", keyed=True)))
    c.toml check[0].waive[0]: ExpectNoDestroys: a.k["(sensitive)"] (no expiry): why (it waives nothing: it names its secret instance key (sensitive), as every instance keyed by a secret is shown; name the instance as its failure's note does)
    1 waiver (0 expired as of 2027-01-31; 1 waives nothing)
    """
    listed = []
    for spec in specs:
        for w in spec.waivers:
            idle = [g for g in (w, w.each) if g is not None and g.secret_glob is not None and not (keyed and g.keyed)]
            # What the failure it was written for says (waiver_for): it would waive none of the instances it names.
            note = (UNKEYED_WAIVER if not keyed else f"{SHOWN_WAIVER}; name the instance as its failure's note does")
            listed.append({**w.as_json(), "check": spec.type, "expired": w.expired(on),
                           **({"waives_nothing": note} if idle else {})})
    return {"schema_version": SCHEMA_VERSION, "kind": "waivers", "tool_version": tool_version, "ok": True,
            "today": on.isoformat(), "waivers": listed}


def render_waivers(doc: Mapping[str, Any]) -> str:
    """The text form of :func:`waivers_document`: one waiver a line (``EXPIRED`` when it is, the note of one that waives
    nothing), then a count."""
    lines = []
    for w in doc["waivers"]:
        until = "no expiry" if w["until"] is None else f"EXPIRED {w['until']}" if w["expired"] else f"until {w['until']}"
        where = f" in {w['plan']}" if w.get("plan") is not None else ""
        element = f" element {w['element']}" if w.get("element") is not None else ""
        idle = f" (it waives nothing: it {w['waives_nothing']})" if "waives_nothing" in w else ""
        lines.append(f"{w['origin']}: {w['check']}: {w['address']}{element}{where} ({until}): {w['reason']}{idle}")
    count, expired = len(doc["waivers"]), sum(w["expired"] for w in doc["waivers"])
    idling = sum("waives_nothing" in w for w in doc["waivers"])
    nothing = f"; {idling} waive{'s' if idling == 1 else ''} nothing" if idling else ""
    lines.append(f"{count} waiver{'' if count == 1 else 's'} ({expired} expired as of {doc['today']}{nothing})")
    return "\n".join(one_line(line) for line in lines)


# -- baselines: failures accepted all at once, to fail only on new ones -------------------------------
#
# Baselines: the failures a team has accepted all at once, to fail only on new ones.
#
# A baseline file (``--write-baseline FILE``) records failures by identity: check type, address and path,
# as every output shows them (a secret in a ``for_each`` key is ``(sensitive)``; scrubbing is
# deterministic, so the same failure has the same identity in every run), never a message (messages
# change wording and may hold values). ``--baseline FILE`` moves the failures in it to ``known`` and lists
# its entries that no longer fail (``fixed``), so the file can shrink. The identity leaves out where the
# check stands in the checks file and its severity, so reordering, splitting or re-grading checks keeps
# the baseline valid; two checks of one type on one address and path share their entries. A whole-plan
# check (``ExpectEach*``) fails once, naming its selector and listing the objects that fail it: it has an
# identity for each (the selector's text, the path and the object's ``element``), so that one more object
# failing is new. An entry of such a check without ``element`` (an older tfplancheck's, which accepted
# whichever objects failed it) accepts nothing: the failure says so (:data:`WHOLE_NOTE`).
#
# The file is JSON: ``{"tfplancheck_baseline": 1, "failures": [{"check", "address", "path"}, ...]}``
# (``element`` and ``plan`` when there are), sorted, each identity once, so that it diffs well in review.


#: The version of the baseline file's format; a file of another version is refused.
BASELINE_VERSION: Final = 1
#: What a baseline's fingerprint of an instance key is of, before the address it stands in (a snapshot's is
#: ``instance key``): the same key's fingerprints of one address differ between the two files.
_KEY_PLACE: Final = "baseline instance key\x00"


#: Why a failure whose address hides a secret instance key is never accepted by a baseline without a key.
UNKEYED_NOTE: Final = ("no baseline accepts it: its address hides a secret instance key, which only "
                       "TFPLANCHECK_SNAPSHOT_KEY (a CI secret of 16 bytes or more) tells apart from other instances; "
                       "set it and write the baseline again")
#: Why a whole-plan check's failure is not accepted by the baseline's entry of the check as a whole (an older
#: tfplancheck's, which accepted whichever objects failed it).
WHOLE_NOTE: Final = ("no baseline accepts it: the baseline's entry names this check's failure without the objects that "
                     "fail it, as an older tfplancheck wrote it; write the baseline again to accept each by its address")


class BaselineError(ValueError):
    """A baseline file that cannot be read or written, or is no baseline (exit status 2).

    >>> str(BaselineError("base.json", "not JSON"))
    'base.json: not JSON'
    """

    def __init__(self, file: str, message: str) -> None:
        self.file = file
        self.message = message
        super().__init__(f"{file}: {message}")


@frozen
class BaselineEntry(FrozenValue):
    """A failure's identity: check type, address and path as shown (secrets scrubbed), never its message.

    >>> BaselineEntry("ExpectKnownValue", "a.b", "id").describe()
    'ExpectKnownValue: a.b: id'
    """

    check: str
    address: str | None
    path: str | None
    _: dataclasses.KW_ONLY
    #: The plan file whose failure it is, in a baseline of a run of many plans (``tfplancheck A B ...``); None in
    #: a run of one plan, whose baseline holds entries of that plan alone (and still fits when the file is renamed).
    plan: str | None = None
    #: A whole-plan check's failure (``ExpectEach*``): the address of the one object of it this entry accepts.
    element: str | None = None

    def key(self) -> tuple[str, str, str, str, str]:
        """The sort key: None sorts first; a baseline of many plans is grouped by plan."""
        return (self.plan or "", self.check, self.address or "", self.path or "", self.element or "")

    def of_plan(self, plan: str | None) -> BaselineEntry:
        """This identity, of ``plan`` (None: of whichever plan it is matched in).

        >>> BaselineEntry("ExpectNoDestroys", "a.b", None).of_plan("prod.json").as_json()["plan"]
        'prod.json'
        """
        return dataclasses.replace(self, plan=plan)

    def describe(self) -> str:
        """The entry as a report line names it."""
        return ": ".join(p for p in (self.check, self.address, self.path, self.element) if p)

    def as_json(self) -> dict[str, Any]:
        """The entry as the baseline file holds it (``plan`` only in a baseline of many plans)."""
        return {"check": self.check, "address": self.address, "path": self.path,
                **({"element": self.element} if self.element is not None else {}),
                **({"plan": self.plan} if self.plan is not None else {})}


@frozen
class Baseline(FrozenValue):
    """The entries of a baseline file.

    >>> Baseline("b.json", frozenset({BaselineEntry("ExpectEmptyPlan", None, None)})).file
    'b.json'
    """

    file: str
    entries: frozenset[BaselineEntry]

    def for_plan(self, name: str) -> Baseline:
        """The entries that judge plan file ``name``: those of no plan, and those of ``name`` (as :func:`plan_key`
        spells it), without their plan, as :func:`failure_identity` makes a failure's.

        >>> base = Baseline("b.json", frozenset({BaselineEntry("X", "a.b", None, plan="prod/plan.json"),
        ...                                       BaselineEntry("X", "a.c", None, plan="dev/plan.json")}))
        >>> sorted(e.address for e in base.for_plan("./prod/plan.json").entries)
        ['a.b']
        """
        key = plan_key(name)
        # An entry of no plan is taken as it is: a whole-plan check's baseline holds one entry for each object.
        return Baseline(self.file, frozenset(e if e.plan is None else e.of_plan(None) for e in self.entries
                                             if e.plan in (None, key)))


def plan_key(name: str) -> str:
    """How a baseline of many plans names plan file ``name``: normalised, with ``/`` (so ``./a/p.json`` is ``a/p.json``).

    >>> plan_key("./envs/prod/../prod/plan.json")
    'envs/prod/plan.json'
    """
    return os.path.normpath(name).replace(os.sep, "/")


def failure_identity(result: _Result, failure: CheckFailure, secrets: Secrets,
                     key: FingerprintKey | None = None) -> BaselineEntry:
    """The baseline identity of ``failure`` of ``result``: the address and path as every output shows them; with
    ``key`` (``TFPLANCHECK_SNAPSHOT_KEY``), each instance key that hides a secret with its keyed fingerprint."""
    address = failure.address if failure.address is not None else result.spec.address
    if failure.path is not None:
        path: str | None = failure.shown_path if failure.shown_path is not None else failure.path.to_text()
    else:
        path = result.spec.path.to_text() if result.spec.path is not None and len(result.spec.path) else None
    if key is not None and failure.unscrubbed_address is not None:
        address = failure.unscrubbed_address
    if address is None or key is None:
        shown = shown_address(address, secrets) if address is not None else None
    else:
        shown = _fingerprinted(address, secrets, key)
    return BaselineEntry(result.spec.type, secrets.scrub(shown) if shown is not None else None,
                         secrets.scrub(path) if path is not None else None)


def failure_identities(result: _Result, failure: CheckFailure, secrets: Secrets,
                       key: FingerprintKey | None = None) -> tuple[list[BaselineEntry], bool]:
    """The baseline entries of ``failure`` of ``result`` (:func:`failure_identity`; a whole-plan check's, one for each
    object it fails on, by its address, as the failure's address is), and whether an address hides a secret instance key.

    >>> from plancheck.cli._checksfile import CheckResult, CheckSpec
    >>> failure = CheckFailure("ExpectEachNullValue", "a.*", None, "2 of 2 failed", elements=("a.x", "a.y"))
    >>> result = CheckResult(CheckSpec("ExpectEachNullValue", None, "c.toml check[0]"), "fail", (failure,))
    >>> [e.describe() for e in failure_identities(result, failure, NO_SECRETS)[0]]
    ['ExpectEachNullValue: a.*: a.x', 'ExpectEachNullValue: a.*: a.y']
    """
    whole = failure_identity(result, failure, secrets, key)
    hidden = failure.unscrubbed_address is not None
    if not failure.elements:
        return [whole], hidden
    entries = []
    for element in failure.elements:
        shown = shown_address(element, secrets)
        if shown != element:
            hidden = True
            if key is not None:
                shown = _fingerprinted(element, secrets, key)
        entries.append(BaselineEntry(whole.check, whole.address, whole.path, element=secrets.scrub(shown)))
    return entries, hidden


def apply_baseline(
    results: Sequence[_R], baseline: Baseline, secrets: Secrets, shared: AbstractSet[BaselineEntry] = frozenset(),
    key: FingerprintKey | None = None,
) -> tuple[list[_R], list[BaselineEntry], set[BaselineEntry]]:
    """The results with the failures in ``baseline`` or ``shared`` moved to ``known``, the entries of ``baseline`` no
    failure matched (fixed), and the entries matched (``shared``'s among them, which a run of many plans reports
    fixed once for all its plans, not once per plan: :func:`_judge_each`).

    A result whose every failure is known passes; errors are left as they are.
    """
    matched: set[BaselineEntry] = set()
    out: list[_R] = []
    for result in results:
        if result.status not in ("fail", "warn"):
            out.append(result)
            continue
        kept: list[CheckFailure] = []
        known: list[CheckFailure] = []
        for failure in result.failures:
            entries, hidden = failure_identities(result, failure, secrets, key)
            # Its entries, and a whole-plan check's entry of old (no element), are still failing: none is fixed.
            whole = dataclasses.replace(entries[0], element=None)
            matched.update((*entries, whole))
            if key is None and hidden:
                # Without the key every instance keyed by a secret is one entry, (sensitive): matching it would let
                # a baseline that accepted one instance accept any other (a new secret, a swapped one). It fails closed.
                kept.append(dataclasses.replace(failure, message=f"{failure.message} ({UNKEYED_NOTE})"))
                continue
            new = [e for e in entries if e not in baseline.entries and e not in shared]
            if not new:
                known.append(failure)
            elif failure.elements and (whole in baseline.entries or whole in shared):
                kept.append(dataclasses.replace(failure, message=f"{failure.message} ({WHOLE_NOTE})"))
            elif len(new) < len(entries):
                shown = ", ".join(e.element or "" for e in new)
                kept.append(dataclasses.replace(failure, message=f"{failure.message} (new since the baseline: {shown})"))
            else:
                kept.append(failure)
        out.append(dataclasses.replace(result, status=result.status if kept else "pass", failures=tuple(kept),
                                       known=(*result.known, *known)))
    # Entries whose failure was waived are not fixed: their failure is still there.
    for result in out:
        for waived in result.waived:
            entries, _ = failure_identities(result, waived.failure, secrets, key)
            matched.update((*entries, dataclasses.replace(entries[0], element=None)))
    fixed = sorted(baseline.entries - matched, key=BaselineEntry.key)
    return out, fixed, matched


def _entries(results: Iterable[_Result], secrets: Secrets, key: FingerprintKey | None = None) -> list[BaselineEntry]:
    entries = {e for r in results for f in (*r.failures, *r.known) for e in failure_identities(r, f, secrets, key)[0]}
    return sorted(entries, key=BaselineEntry.key)


def baseline_document(results: Sequence[_Result], secrets: Secrets, key: FingerprintKey | None = None) -> dict[str, Any]:
    """The baseline file's document: its version and every failure's identity, sorted, each once."""
    return {"tfplancheck_baseline": BASELINE_VERSION,
            "failures": [e.as_json() for e in _entries(results, secrets, key)]}


def write_baseline(file: str, results: Sequence[_Result], secrets: Secrets, key: FingerprintKey | None = None) -> Baseline:
    """Write the baseline of ``results`` to ``file`` (whole or not at all); return it as read back."""
    return write_entries(file, _entries(results, secrets, key), secrets)


def write_entries(file: str, entries: Iterable[BaselineEntry], secrets: Secrets) -> Baseline:
    """Write a baseline of ``entries`` to ``file`` (whole or not at all), sorted, each once; return it as read back."""
    document = {"tfplancheck_baseline": BASELINE_VERSION,
                "failures": [e.as_json() for e in sorted(set(entries), key=BaselineEntry.key)]}
    # The file's one scrub, of each value (render_json): of the secrets its entries were made with (failure_identity),
    # the identities a run matches its failures by; an entry scrubbed of more would match no failure.
    text = render_json(document, secrets) + "\n"
    try:
        write_whole(file, text)
    except OSError as exc:
        raise BaselineError(file, f"cannot write the baseline: {exc.strerror or exc}") from None
    return parse_baseline(text, file)


def read_baseline(file: str, max_bytes: int | None = None) -> Baseline:
    """Read the baseline file ``file``; every problem is a :class:`BaselineError`.

    A file that is not there yet (a pipeline's first run with ``--baseline``) says how to make it.
    """
    from .._loading.source import max_input_bytes

    try:
        data = read_input(file, "baseline", limit=max_input_bytes(max_bytes))
    except UnreadableInput as exc:
        missing = exc.limit is None and exc.reason == os.strerror(errno.ENOENT)
        raise BaselineError(file, f"{exc} (write one with --write-baseline {file})" if missing else str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BaselineError(file, f"not UTF-8 text (byte {exc.start})") from None
    return parse_baseline(text.removeprefix("\ufeff"), file)  # a byte-order mark is no part of the text


#: What an entry's key that is empty should hold.
_EMPTY_HINTS: Final = {"check": "the check's type", "address": "null for a failure of no address",
                       "plan": "the plan file the failure is of", "element": "the address of the object that fails"}


def parse_baseline(text: str, file: str) -> Baseline:
    """A baseline file's text as a :class:`Baseline`.

    >>> parse_baseline('{"tfplancheck_baseline": 1, "failures": [{"check": "X", "address": "a.b", "path": null}]}', "b.json").entries
    frozenset({BaselineEntry('X', 'a.b', None)})
    >>> parse_baseline('{"failures": []}', "b.json")
    Traceback (most recent call last):
    ...
    plancheck.cli._waivers.BaselineError: b.json: not a tfplancheck baseline (no "tfplancheck_baseline": 1; write one with --write-baseline)
    """
    try:
        document = json.loads(text, object_pairs_hook=each_key_once, parse_int=exact_json_int)
    except KeyRepeated as exc:
        raise BaselineError(file, str(exc)) from None
    except RecursionError:
        # As the checks file says it: a bare "invalid JSON" sent the reader looking for a typo in valid JSON.
        raise BaselineError(file, "invalid JSON: nested too deeply") from None
    except ValueError as exc:
        where = f" (at line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise BaselineError(file, f"invalid JSON{where}") from None
    if not isinstance(document, dict) or "tfplancheck_baseline" not in document:
        raise BaselineError(file, f'not a tfplancheck baseline (no "tfplancheck_baseline": {BASELINE_VERSION}; '
                            "write one with --write-baseline)")
    version = document["tfplancheck_baseline"]
    if version != BASELINE_VERSION or type(version) is not int:  # not true, nor 1.0: the file's own writer writes 1
        shown = f"of {len(version.as_tuple().digits)} digits" if isinstance(version, Decimal) else json.dumps(version)[:20]
        raise BaselineError(file, f"baseline version {shown} is not supported "
                            f"(this tfplancheck reads version {BASELINE_VERSION})")
    extra = sorted(set(document) - {"tfplancheck_baseline", "failures"})
    if extra:
        raise BaselineError(file, f"unknown key {extra[0][:60]!r} (a baseline has tfplancheck_baseline and failures)")
    failures = document.get("failures")
    if not isinstance(failures, list):
        from tfjsonpath import describe_json_type

        raise BaselineError(file, f"failures: expected a list, found {describe_json_type(failures)}")
    entries = set()
    for i, item in enumerate(failures):
        if not isinstance(item, dict) or set(item) - {"plan", "element"} != {"check", "address", "path"}:
            raise BaselineError(file, f'failures[{i}]: expected a table of "check", "address" and "path" '
                                '(and "plan", in a baseline of many plans; "element", of a whole-plan check)')
        if not isinstance(item["check"], str) or not all(isinstance(item[k], (str, type(None))) for k in ("address", "path")):
            raise BaselineError(file, f"failures[{i}]: check is a string; address and path are strings or null")
        if not isinstance(item.get("plan", ""), str):
            raise BaselineError(file, f"failures[{i}]: plan is a string: the plan file the failure is of")
        if not isinstance(item.get("element", ""), str):
            raise BaselineError(file, f"failures[{i}]: element is a string: the address of the object that fails")
        # No failure has an empty check type, address, plan file or object (a checks file refuses an empty address);
        # an empty path is the root's, which a check of a whole value has.
        empty = next((key for key in ("check", "address", "plan", "element") if item.get(key) == ""), None)
        if empty is not None:
            raise BaselineError(file, f"failures[{i}]: {empty} is empty (" + _EMPTY_HINTS[empty] + ")")
        _parse_path(item["path"], file, i)
        entries.add(BaselineEntry(item["check"], item["address"], item["path"], plan=item.get("plan"),
                                  element=item.get("element")))
    return Baseline(file, frozenset(entries))


def _parse_path(text: str | None, file: str, index: int) -> None:
    """Refuse an entry's path that is no path's text form (no failure has it: the entry would only ever be fixed)."""
    # A path shown with a secret scrubbed out has "(sensitive)" where the secret's characters were, which need not
    # parse (a secret that is a whole bare key): the run that wrote it wrote it so, and matches it as it is.
    if text is None or SENSITIVE_KEY in text:
        return
    from tfjsonpath import Path, PathSyntaxError

    try:
        Path.parse(text)
    except PathSyntaxError as exc:
        raise BaselineError(file, f"failures[{index}].path: {exc}") from None


def exact_json_int(text: str) -> int | Decimal:
    """A JSON integer of a file the command line reads (a baseline, a checks file) exactly: one of more digits than
    Python converts to an ``int`` is read as the plan loader reads it, a ``Decimal`` of the same value (exact,
    linear to read; its error then says what it is, not a bare "invalid JSON").

    >>> exact_json_int("1"), exact_json_int("7" * 5000).adjusted()
    (1, 4999)
    """
    limit = sys.get_int_max_str_digits()
    if limit and len(text.lstrip("-")) > limit:
        return Decimal(text)
    return int(text)


def baseline_key(environ: Mapping[str, str]) -> FingerprintKey | None:
    """The key a baseline's instance keys that hide a secret are fingerprinted with: the snapshots' key,
    ``TFPLANCHECK_SNAPSHOT_KEY`` (a CI secret of 16 bytes or more), or None; a shorter one is a ``ValueError``.

    >>> baseline_key({}) is None, baseline_key({"TFPLANCHECK_SNAPSHOT_KEY": "0123456789abcdef"}).id
    (True, '71a6d148')
    """
    from ..snapshot import resolve_key

    return resolve_key(None, environ)


def judge_by_baseline(results: Sequence[_R], secrets: Secrets, baseline: Baseline | None, write_to: str | None,
                      plan: str, key: FingerprintKey | None = None) -> tuple[list[_R], list[BaselineEntry], str | None]:
    """``--baseline``/``--write-baseline``: the results of plan file ``plan`` with the failures in ``baseline`` known
    (a baseline of many plans: its entries of that plan, :meth:`Baseline.for_plan`), the entries fixed, and the
    baseline file that judged them; the run's failures written to ``write_to`` when given (a :class:`BaselineError`
    when they cannot be). Written without ``--baseline``, the new file judges the run.
    """
    fixed: list[BaselineEntry] = []
    if baseline is None:
        out = list(results)
    else:
        out, fixed, _ = apply_baseline(results, baseline.for_plan(plan), secrets, key=key)
    if write_to is not None:
        # Every failure of the run, known or new (never the waived: their waiver accepts them).
        written = write_baseline(write_to, out, secrets, key)
        if baseline is None:
            baseline = written
            out, fixed, _ = apply_baseline(out, written, secrets, key=key)
    return out, fixed, baseline.file if baseline is not None else None


def _judge_each(plans: Sequence[tuple[str, Sequence[_R], Secrets]], baseline: Baseline | None,
                key: FingerprintKey | None = None) -> list[tuple[list[_R], list[BaselineEntry]]]:
    """Each plan's results judged by the entries of ``baseline`` that are its own or of no plan; an entry of no plan
    that no plan fails any more is fixed once, with the first plan."""
    if baseline is None:
        return [(list(results), []) for _, results, _ in plans]
    shared = frozenset(e for e in baseline.entries if e.plan is None)
    # The entries of each plan, found in one pass: looking each plan's up in the whole baseline made a run of
    # P plans against their baseline of P entries read P x P entries (4,000 plans: 12.0 s of CPU, now 2.3 s).
    own_of: dict[str, set[BaselineEntry]] = {}
    for entry in baseline.entries:
        if entry.plan is not None:
            own_of.setdefault(entry.plan, set()).add(entry.of_plan(None))
    # The entries of no plan are matched in every plan and found fixed once, at the end: each plan's own fixed
    # entries taken from its own and the shared ones made each plan sort every shared entry it did not fail
    # (P plans against a baseline of no plan of P entries: P x P).
    still: set[BaselineEntry] = set()
    judged: list[tuple[list[_R], list[BaselineEntry]]] = []
    for name, results, secrets in plans:
        plan = plan_key(name)
        own = frozenset(own_of.get(plan, ()))
        out, fixed, matched = apply_baseline(results, Baseline(baseline.file, own), secrets, shared, key)
        still |= matched & shared
        judged.append((out, [e.of_plan(plan) for e in fixed]))
    gone = sorted(shared - still, key=BaselineEntry.key)
    if judged and gone:
        judged[0] = (judged[0][0], sorted([*judged[0][1], *gone], key=BaselineEntry.key))
    return judged


def judge_plans(plans: Sequence[tuple[str, Sequence[_R], Secrets]], baseline: Baseline | None, write_to: str | None,
                key: FingerprintKey | None = None) -> list[tuple[list[_R], list[BaselineEntry], str | None]]:
    """:func:`judge_by_baseline` for a run of many plans: ``plans`` are each plan's file, results and secrets.

    Each entry of the baseline written (``write_to``) names its plan (:func:`plan_key`), so a failure accepted in
    one plan is not accepted in another; an entry of no plan (a baseline written by a run of one plan) judges
    every plan. Each entry is scrubbed of its plan's secrets (:func:`failure_identity`). Returns each plan's results, fixed entries and
    the baseline file that judged them.
    """
    judged = _judge_each(plans, baseline, key)
    if write_to is not None:
        entries = [e.of_plan(plan_key(name)) for (name, _, plan_secrets), (out, _) in zip(plans, judged, strict=True)
                   for e in _entries(out, plan_secrets, key)]
        written = write_entries(write_to, entries, NO_SECRETS)
        if baseline is None:
            baseline = written
            judged = _judge_each([(name, out, s) for (name, _, s), (out, _) in zip(plans, judged, strict=True)], written,
                                 key)
    file = baseline.file if baseline is not None else None
    return [(out, fixed, file) for out, fixed in judged]
