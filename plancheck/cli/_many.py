"""``tfplancheck PLAN [PLAN ...]``: each plan read and checked in a worker of its own, the runs in the order given.

With ``--jobs 1`` (or one plan) the plans are checked in the command's own process, by the same
:func:`check_plan`; either way a plan is heard only in its own scope, so each plan's part of every
format is scrubbed of its own secrets (:func:`plancheck.cli._output.plan_parts` writes the parts).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
from collections.abc import Sequence
from typing import Any, cast

from .._redact import Secrets
from .._text import exception_text
from ._io import (
    CliError,
    Io,
    Job,
    Outcome,
    PlanFacts,
    PlanFailed,
    PlanParts,
    checks_text,
    crossing_secrets,
    read_plan,
    use_colour,
)
from ._output import part_keys, parts_scrubbed, plan_parts
from ._runs import PlanRun

__all__ = ["check_many", "check_plan", "named_twice"]

#: The job of the run, set before the workers are forked (they inherit it) or the plans are checked here.
_JOB: list[Job] = []


def check_plan(name: str) -> Outcome | PlanParts | PlanFailed:
    """Read and check plan file ``name`` with the run's job; bad input is a :class:`PlanFailed`, never an exception.

    With the job's ``parts``, the plan is rendered here too (:class:`PlanParts`): its worker does all of its work,
    and the command's process only joins the parts; else its results come back to be judged with the others'.

    An unexpected exception (a bug) is one too, of kind ``internal``, its text scrubbed of the plan's secrets.
    """
    from .._documents.met import heard_only_by
    from .._loading.lifecycle import ending_on_signals
    from ._checksfile import run_checks

    (job,) = _JOB
    source = "<stdin>" if name == "-" else name
    heard: list[Any] = []
    # A worker's own scope: SIGTERM unwinds its Terraform command (the group ended, its files removed), then ends it.
    # Its plan is heard here only (so, too, with --jobs 1): the writers scrub each plan's part with its own secrets.
    with ending_on_signals(), heard_only_by(heard.append):
        try:
            plan = read_plan(name, terraform=job.terraform, stdin=job.stdin, environ=job.environ,
                             max_bytes=job.max_bytes, allow_errored=job.allow_errored, chdir=job.chdir)
            results = run_checks(job.specs, plan, today=job.today, key=job.key)
            crossing = crossing_secrets(plan.secrets, job.checks)
            if job.parts:
                # No baseline: each plan is judged alone, so its part of every format is already what it will be.
                run = PlanRun(PlanFacts.of(plan), tuple(results), waived=sum(len(r.waived) for r in results))
                return plan_parts(run, job.parts, job.fail_on, crossing)
            # Each result without its check (the parent has them, in order): a check need not pickle, nor travel.
            return Outcome(PlanFacts.of(plan), tuple(dataclasses.replace(r, spec=cast(Any, None)) for r in results),
                           crossing)
        except CliError as exc:
            return PlanFailed(source, exc.kind, exc.message)
        except Exception as exc:  # the boundary of one plan: the others are still checked and reported
            text = " ".join(exception_text(exc).split())
            try:
                for found in heard:
                    text = found.secrets.scrub(text)
            except Exception:  # the plan that broke the check may be what cannot give its secrets
                text = f"{type(exc).__name__} (its message is withheld: the secrets it may show could not be listed)"
            return PlanFailed(source, "internal", f"{source}: unexpected error: {text} (a bug: please report it)")


def named_twice(plans: Sequence[str]) -> str | None:
    """Why the plans cannot be checked in one run as given (a plan named twice; standard input among others), else None.

    >>> named_twice(["a.json", "./a.json"])
    'the plan ./a.json is named twice (each plan is checked once, and reported under its name)'
    >>> named_twice(["a.json", "-"])
    'standard input (-) can be the only plan of a run; name the other plans in another run'
    """
    if len(plans) > 1 and "-" in plans:
        return "standard input (-) can be the only plan of a run; name the other plans in another run"
    seen: set[str] = set()
    for name in plans:
        where = os.path.realpath(name)
        if where in seen:
            return f"the plan {name} is named twice (each plan is checked once, and reported under its name)"
        seen.add(where)
    return None


def check_many(plans: Sequence[str], args: argparse.Namespace, io: Io, specs: Sequence[Any], baseline: Any,
               on: datetime.date, max_bytes: int, key: Any = None) -> list[Any]:
    """``tfplancheck PLAN PLAN ...``: each plan checked (in ``--jobs`` workers), judged by the baseline (written with
    ``--write-baseline``; ``key`` fingerprints its secret instance keys), its run (a ``PlanRun``, or a :class:`PlanFailed` said on stderr) in the order given.

    Without a baseline to read or write, nor a waiver, each plan is judged alone: its worker renders its part of every
    format the run writes (a :class:`PlanParts` in its place), so this process only joins them (the same bytes). A
    waiver is judged by the whole run: it is unused when it waived nothing in any plan (:func:`~plancheck.cli._waivers.unused_once`).

    A baseline that cannot be written is a ``BaselineError``, for the caller to report.
    """
    from .._terraform.lifecycle import run_in_workers, worker_count
    from ._waivers import judge_plans, unused_once

    alone = baseline is None and args.write_baseline is None and not any(spec.waivers for spec in specs)
    # Standard output's text coloured as plancheck.cli._output.report colours it.
    colour = use_colour(io.stdout, io.environ, args.color) and args.format == "text"
    parts = part_keys(args, colour) if alone else ()
    _JOB[:] = [Job(tuple(specs), args.terraform, io.environ, max_bytes, args.allow_errored, args.chdir, on, io.stdin,
                   checks_text(specs), parts, args.fail_on, key)]
    try:
        outcomes = run_in_workers(check_plan, plans, args.jobs or worker_count())
    finally:
        _JOB.clear()
    checked = [(name, tuple(dataclasses.replace(r, spec=spec) for r, spec in zip(o.results, specs, strict=True)),
                o.facts) for name, o in zip(plans, outcomes, strict=True) if isinstance(o, Outcome)]
    unused = unused_once([(facts.source, results) for _, results, facts in checked])
    checked = [(name, tuple(results), facts) for (name, _, facts), results in zip(checked, unused, strict=True)]
    # Each plan's part of every format is scrubbed of its secrets by the writers, as a run of it alone is, and of
    # what every part shows of another plan's: its secrets the checks show (an address, a matcher's value). Not of
    # every secret of every plan: that scrub grows with both the output and the plans (170 s for the output of 200
    # plans of 1 MB), and a plan's own content is its own scrub's. The writers scrub each value of every part of
    # these, before it is escaped (their documents are not scrubbed again as text: plancheck.cli._io.Rendered), and
    # the streams hear them for the lines they write; trusting the paths the checks were given, as a plan's
    # failures trust them.
    crossing = [value for o in outcomes if not isinstance(o, PlanFailed) for value in o.crossing]
    apart = Secrets(crossing).trusting([spec.path.to_text() for spec in specs if spec.path is not None]) if crossing else None
    if apart is not None:
        io.heard(apart)
    judged = iter(judge_plans([(name, results, facts.secrets) for name, results, facts in checked], baseline,
                              args.write_baseline, key))
    runs: list[Any] = []
    for outcome in outcomes:
        if isinstance(outcome, PlanFailed):
            io.stderr.write(f"tfplancheck: error: {outcome.message}\n")
        if not isinstance(outcome, Outcome):
            if apart is not None:  # a plan that could not be read says its name and error: they may show one too
                outcome = (parts_scrubbed(outcome, apart) if isinstance(outcome, PlanParts) else
                           PlanFailed(apart.scrub(outcome.source), outcome.kind, apart.scrub(outcome.message)))
            runs.append(outcome)
            continue
        results, fixed, file = next(judged)
        runs.append(PlanRun(outcome.facts, tuple(results), waived=sum(len(r.waived) for r in results),
                            fixed=tuple(fixed), baseline=file, apart=apart))
    return runs

