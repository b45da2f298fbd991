"""How plan, state and configuration checks word their failures: one helper for each piece of text.

A failure names its check, the address (scrubbed of secrets) and a message; the
pieces here (a quoted key, the closest names to a missing one, a deposed object's
prefix, an output's address) read the same in every check family.
"""

from __future__ import annotations

from collections.abc import Sequence

from tfjsonpath import Path

from .._documents.plan import shown_address
from .._errors import CheckFailure
from .._redact import Secrets
from .._text import closest, quote

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
    """A CheckFailure with every one of ``secrets`` scrubbed out of its message, address and path text.

    An address can hold a secret: a ``for_each`` key made from a value whose mark was dropped;
    so can a path (a map key).

    >>> from tfjsonpath import New
    >>> str(scrubbed_failure(Secrets(["pw1-key"]), "ExpectX", "a.b", New("t").AtMapKey("pw1-key"), "no"))
    'ExpectX: a.b: t["(sensitive)"]: no'

    >>> scrubbed_failure(Secrets(["pw1"]), "ExpectX", 'a.b["pw1"]', None, "got pw1")
    CheckFailure('ExpectX', 'a.b["(sensitive)"]', None, 'got (sensitive)')
    """
    if address is not None:
        address = shown_address(address, secrets)
    shown_path = None
    if path is not None and len(secrets):
        text = path.to_text()
        # A map key can be a secret too (a for_each key, a key of a sensitive map).
        shown_path = secrets.scrub(text) if secrets.touches(text) else None
    return CheckFailure(check, address, path, secrets.scrub(message), shown_path)


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
