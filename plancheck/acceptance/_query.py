"""What a ``query=True`` step needs besides running commands (Go's ``testStepNewQuery``).

The runner writes the step's ``config`` as ``main.tfquery.hcl`` beside the configuration of the
last config-mode step (Go keeps that step's ``.tf`` files too), runs ``terraform query -no-color
-json`` and reads its JSON lines with :func:`plancheck.querycheck.load_query`. These helpers
decide whether the binary can run it, read its errors and run the step's query result checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .._checking.run import by_method, run_each
from .._terraform import TerraformBinary
from ..querycheck import QueryOutput, QueryResultCheck, query_check_failures
from ..tfversion import Version, VersionError

__all__ = ["QUERY_FILE", "QUERY_MIN_VERSION", "query_error_messages", "query_refusal", "query_result_failures"]

#: Where a query step's configuration is written (Go: ``terraform_plugin_test.tfquery.hcl``).
QUERY_FILE: Final = "main.tfquery.hcl"
#: ``terraform query`` (list blocks, ``-json``) first shipped in Terraform 1.14.0.
QUERY_MIN_VERSION: Final = Version("1.14.0")
_HINT: Final = (
    "Either upgrade the Terraform version running the test or add "
    '`terraform_version_checks=[SkipBelow("1.14.0")]` to the test case to skip this test.'
)


def query_refusal(binary: TerraformBinary) -> str | None:
    """Why ``binary`` cannot run a query step, or None when it can (or its version cannot be read).

    >>> print(query_refusal(TerraformBinary("/usr/bin/terraform", "1.11.4")))
    Query steps require Terraform 1.14.0 or later (this is Terraform 1.11.4): terraform query was added in 1.14.0. Either upgrade the Terraform version running the test or add `terraform_version_checks=[SkipBelow("1.14.0")]` to the test case to skip this test.
    >>> query_refusal(TerraformBinary("/usr/bin/terraform", "1.14.2")) is None
    True
    """
    try:
        version = Version(binary.version)
    except VersionError:
        return None  # as for import steps: an unreadable version lets Terraform itself decide
    if binary.flavor == "tofu":
        return (
            f"Query steps require Terraform 1.14.0 or later (this is {binary.product} {version}, "
            f"which has no query command). {_HINT}"
        )
    if version < QUERY_MIN_VERSION:
        return (
            f"Query steps require Terraform 1.14.0 or later (this is {binary.product} {version}): "
            f"terraform query was added in 1.14.0. {_HINT}"
        )
    return None


def _diagnostic_text(message: Mapping[str, Any]) -> str:
    diagnostic = message.get("diagnostic")
    if isinstance(diagnostic, Mapping):
        summary = diagnostic.get("summary")
        detail = diagnostic.get("detail")
        if isinstance(summary, str) and summary:
            text = f"Error: {summary}"
            return f"{text}\n{detail}" if isinstance(detail, str) and detail else text
    fallback = message.get("@message")
    return fallback if isinstance(fallback, str) and fallback else "an error without a message"


def query_error_messages(output: QueryOutput) -> list[str]:
    """The text of every error-level message of ``output`` (Go fails the step on any of them).

    >>> out = QueryOutput.from_messages([{"@level": "error", "@message": "Error: Missing list block",
    ...     "type": "diagnostic", "diagnostic": {"severity": "error", "summary": "Missing list block",
    ...     "detail": "A query file needs a list block."}}])
    >>> query_error_messages(out)
    ['Error: Missing list block\\nA query file needs a list block.']
    """
    return [_diagnostic_text(message) for message in output.messages if message.get("@level") == "error"]


def query_result_failures(output: QueryOutput, checks: Sequence[QueryResultCheck]) -> list[str]:
    """Every failure of ``checks`` on ``output``, one text each, in order (Go's ``RunQueryChecks``).

    An output without any message fails with "no query results found" first. A check that
    raises (an ``AssertionError`` instead of returning failures, or a bug: ``raised <Type>: <text>``)
    is reported, not propagated, so the checks after it still run.

    >>> from plancheck.querycheck import ExpectLength, ExpectLengthAtLeast
    >>> out = QueryOutput.from_messages([{"type": "list_complete",
    ...     "list_complete": {"address": "list.concept_pet.pets", "total": 2}}])
    >>> query_result_failures(out, [ExpectLength("concept_pet.pets", 2), ExpectLengthAtLeast("concept_pet.pets", 3)])
    ['ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 3 - expected but got 2.']
    """
    found = [str(failure) for failure in query_check_failures(output, ())]
    # Contained as assert_* contains it: a check that raises is one failure naming it; the case scrubs the text.
    outcomes = run_each(output, checks, run=by_method("failures"), contain=True)
    found.extend(str(failure) for outcome in outcomes for failure in outcome.failures)
    return found
