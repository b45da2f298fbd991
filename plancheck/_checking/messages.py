"""How plan, state and configuration checks word their failures: one helper for each piece of text.

A failure names its check, the address (scrubbed of secrets) and a message; the
pieces here (a quoted key, the closest names to a missing one, a deposed object's
prefix, an output's address) read the same in every check family.
"""

from __future__ import annotations

import difflib
import heapq
import os
from collections.abc import Iterable, Sequence
from typing import Final

from tfjsonpath import Path

from .._documents.plan import shown_address
from .._errors import CheckFailure
from .._redact import Secrets
from ..knownvalue._base import quote

__all__ = [
    "actions_text",
    "closest",
    "closest_text",
    "deposed_prefix",
    "located",
    "output_address",
    "quote",
    "scrubbed_failure",
]

# Above this many candidates, difflib compares only the ones sharing the longest start and end.
_CLOSEST_SHORTLIST: Final = 300


def closest(target: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    """The candidates most similar to ``target`` (difflib ratio at least 0.6), best first.

    Among many candidates, difflib's full comparison (seconds for 20,000 addresses) is
    kept for the few hundred sharing the longest start and end with ``target``.

    >>> closest("null_resource.b", ["null_resource.a", "aws_instance.x"])
    ['null_resource.a']
    >>> closest("regoin", ["region", "zone", "regions"], n=1)
    ['region']
    """
    pool = list(candidates)
    if len(pool) > _CLOSEST_SHORTLIST:
        reversed_target = target[::-1]

        def shared_ends(candidate: str) -> int:
            # Character by character is meant: addresses are not paths.
            start = os.path.commonprefix((target, candidate))  # noqa: RUF071
            end = os.path.commonprefix((reversed_target, candidate[::-1]))  # noqa: RUF071
            return len(start) + len(end)

        pool = heapq.nlargest(_CLOSEST_SHORTLIST, pool, key=shared_ends)
    return difflib.get_close_matches(target, pool, n=n, cutoff=0.6)


def closest_text(found: Sequence[str], what: str, where: str) -> str:
    """The end of a not-found message: the closest names, or that ``where`` has none like it.

    >>> closest_text(["a.b", "a.c"], "address", "plan"), closest_text([], "output name", "state")
    ('; closest: a.b, a.c', '; the state has no similar output name')
    """
    if found:
        return "; closest: " + ", ".join(found)
    return f"; the {where} has no similar {what}"


def scrubbed_failure(
    secrets: Secrets, check: str, address: str | None, path: Path | None, message: str
) -> CheckFailure:
    """A CheckFailure with every one of ``secrets`` scrubbed out of its message and address.

    An address can hold a secret: a ``for_each`` key made from a value whose mark was dropped.

    >>> scrubbed_failure(Secrets(["pw1"]), "ExpectX", 'a.b["pw1"]', None, "got pw1")
    CheckFailure(check='ExpectX', address='a.b["(sensitive)"]', path=None, message='got (sensitive)')
    """
    if address is not None:
        address = shown_address(address, secrets)
    return CheckFailure(check, address, path, secrets.scrub(message))


def actions_text(actions: Sequence[str]) -> str:
    """Actions as Go's plancheck prints them.

    >>> actions_text(["delete", "create"])
    '[delete create]'
    """
    return "[" + " ".join(actions) + "]"


def deposed_prefix(deposed: str | None) -> str:
    """The message prefix that says a failure is about a deposed object.

    >>> deposed_prefix("k1"), deposed_prefix(None)
    ('deposed object "k1": ', '')
    """
    return f"deposed object {quote(deposed)}: " if deposed is not None else ""


def output_address(name: str) -> str:
    """The address a failure about output ``name`` carries.

    >>> output_address("ip")
    'output.ip'
    """
    return f"output.{name}"


def located(address: str, path: Path) -> str:
    """An address and a path as one text, as Go prints them.

    >>> from tfjsonpath import New
    >>> located("test_resource.one", New("list").AtSliceIndex(0)), located("a.b", Path())
    ('test_resource.one.list[0]', 'a.b')
    """
    text = path.to_text()
    if not text:
        return address
    return address + (text if text.startswith("[") else "." + text)
