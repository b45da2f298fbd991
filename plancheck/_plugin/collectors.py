"""The objects behind the ``assert_plan``, ``plan_checks`` and ``tf_secrets`` fixtures.

Both raise the library's :class:`~plancheck.PlanCheckError` (an ``AssertionError``, so
pytest reports a failure) with a fresh traceback: the frames inside plancheck are cut
off entirely, so neither the default report nor ``--showlocals`` can print their
local variables (which hold raw plan values).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._errors import ArgumentError

if TYPE_CHECKING:
    from .._documents.plan import Plan
    from .._redact import Secrets

__all__ = ["AssertPlan", "PlanChecks", "TfSecrets"]


def _run_plan_checks(plan: Plan, checks: tuple[Any, ...]) -> None:
    __tracebackhide__ = True
    # Imported on use: pytest imports the plugin for every session, also those that check no plan.
    from .._errors import CheckFailedError
    from .._planchecks.base import assert_plan

    try:
        assert_plan(plan, *checks)
    except CheckFailedError as exc:
        # The message is complete and redacted; the library's frames add nothing but risk.
        raise exc.with_traceback(None) from None


class AssertPlan:
    """The ``assert_plan`` fixture: ``assert_plan(plan, *checks)`` runs every check and reports all failures.

    >>> AssertPlan()
    <plancheck assert_plan fixture>
    """

    __slots__ = ()

    def __call__(self, plan: Plan, *checks: Any) -> None:
        __tracebackhide__ = True
        # Even with no checks (an empty list passes, as in Go): ``assert_plan(check)`` forgot the
        # plan, and a verdict must not pass on a misuse.
        _run_plan_checks(plan, checks)

    def __repr__(self) -> str:
        return "<plancheck assert_plan fixture>"


class PlanChecks:
    """The ``plan_checks`` fixture: collect plan checks during a test; they run when the test body returns.

    ``add(*checks)`` queues checks; ``verify(plan=None)`` runs the queued ones now
    (against ``plan``, or the ``tf_plan`` fixture's plan) and empties the queue. Checks
    still queued when the test function returns are verified then, against ``tf_plan``,
    and fail the test (not its teardown). Nothing runs if the test already failed.

    >>> checks = PlanChecks(lambda: None)
    >>> checks.add("check-1", "check-2")
    >>> len(checks), checks
    (2, <plancheck plan_checks: 2 pending>)
    """

    __slots__ = ("_default_plan", "_pending")

    def __init__(self, default_plan: Callable[[], Plan | None]) -> None:
        self._default_plan = default_plan
        self._pending: list[Any] = []

    def add(self, *checks: Any) -> None:
        """Queue ``checks`` (plan checks such as ``ExpectUnknownValue(...)``) for verification."""
        self._pending.extend(checks)

    @property
    def pending(self) -> tuple[Any, ...]:
        """The checks queued and not yet verified.

        >>> PlanChecks(lambda: None).pending
        ()
        """
        return tuple(self._pending)

    def verify(self, plan: Plan | None = None) -> None:
        """Run the queued checks against ``plan`` (default: the ``tf_plan`` fixture) and empty the queue.

        >>> PlanChecks(lambda: None).verify()  # nothing queued: nothing to do
        """
        __tracebackhide__ = True
        if plan is not None:
            # Refused even with nothing queued: ``verify(check)`` is a misuse, never a pass.
            from .._checking.fields import require_document
            from .._documents.plan import Plan

            require_document(plan, Plan, "plan_checks.verify", "a plancheck.Plan (use load_plan or Plan.from_dict)")
        if not self._pending:
            return
        checks = tuple(self._pending)
        self._pending.clear()
        target = plan if plan is not None else self._default_plan()
        if target is None:
            raise ArgumentError("plan_checks.verify() needs a plan: pass one, or configure tf_plan")
        _run_plan_checks(target, checks)

    def __len__(self) -> int:
        return len(self._pending)

    def __repr__(self) -> str:
        return f"<plancheck plan_checks: {len(self._pending)} pending>"


class TfSecrets:
    """The ``tf_secrets`` fixture: secrets the test has of its own (a token it read from a vault, a
    ``plancheck.Secrets`` it built), which the plugin scrubs from this test's reports as it scrubs a plan's.

    ``add(*secrets)`` takes strings and ``plancheck.Secrets``: from then on they are ``(sensitive)`` in the
    test's failure (``-vv`` diffs, ``--showlocals``, every ``--tb`` style), its captured output, its JUnit test
    case and what an xdist worker sends of it; its setup's and teardown's too, but no later test's. Under
    ``--tf-show-sensitive`` nothing is scrubbed.

    >>> from plancheck import Secrets
    >>> added = []
    >>> tf_secrets = TfSecrets(added.append)
    >>> tf_secrets.add("hunter2-from-vault", Secrets(["s3cret-built"]))
    >>> added[0].scrub("pw=hunter2-from-vault, s3cret-built"), tf_secrets
    ('pw=(sensitive), (sensitive)', <plancheck tf_secrets>)
    >>> tf_secrets.add(b"bytes")
    Traceback (most recent call last):
    ...
    plancheck.ArgumentError: tf_secrets.add: each secret must be a str or a plancheck.Secrets, got bytes (argument 1)
    """

    __slots__ = ("_add",)

    def __init__(self, add: Callable[[Secrets], None]) -> None:
        # The session's scrub, taking the secrets as the running test's (SessionDocuments.add_secrets).
        self._add = add

    def add(self, *secrets: str | Secrets) -> None:
        """Scrub ``secrets`` (strings, ``plancheck.Secrets``) from this test's reports from now on."""
        from .._redact import Secrets

        strings: list[str] = []
        found = Secrets()
        for i, secret in enumerate(secrets, start=1):
            if isinstance(secret, Secrets):
                found = found | secret
            elif isinstance(secret, str):
                strings.append(secret)
            else:
                raise ArgumentError(
                    f"tf_secrets.add: each secret must be a str or a plancheck.Secrets, got {type(secret).__name__} "
                    f"(argument {i})"
                )
        self._add(found | Secrets(strings))

    def __repr__(self) -> str:
        return "<plancheck tf_secrets>"
