"""The error of a mock provider built from a schema that does not fit: a bad document, an unknown name, a default of the wrong type."""

from __future__ import annotations

from collections.abc import Sequence

from ..._errors import TfCheckError
from ..._frozen import public
from ..._text import shortened

__all__ = ["MockSchemaError", "at_key", "at_name"]


def at_key(at: str, key: str) -> str:
    """Where ``key`` under ``at`` is, as a message names it: ``at["key"]``, a long key shortened.

    A key is the user's (a ``mock_resources`` key, an attribute name, a map key of a default), so
    any length: the message echoes it bounded (:func:`plancheck._text.shortened`).

    >>> at_key("mock_resources", "cloud_bucket"), len(at_key("mock_resources", "x" * 100_000))
    ('mock_resources["cloud_bucket"]', 219)
    """
    return f'{at}["{shortened(key)}"]'


def at_name(at: str, name: object) -> str:
    """Where the member ``name`` of ``at`` is in a schema document, as a message names it: ``at.name``, bounded.

    >>> at_name("schema.resource_schemas", "cloud_bucket"), len(at_name("schema", "x" * 100_000))
    ('schema.resource_schemas.cloud_bucket', 208)
    """
    return f"{at}.{shortened(str(name))}"  # a dict given in Python may have keys of other types


@public("plancheck.acceptance")
class MockSchemaError(TfCheckError, ValueError):
    """A :class:`MockProvider`'s schema document or defaults do not fit together.

    ``where`` says which option or key (``mock_resources["cloud_bucket"]["arn"]``); ``type_name``,
    ``attribute`` and ``expected`` are set when they apply; ``suggestions`` holds the closest names.
    The message never shows a value (a default may be a secret), only names and types.

    >>> err = MockSchemaError('mock_resources["cloud_bucket"]', "no resource type cloud_buckt", suggestions=["cloud_bucket"])
    >>> print(err)
    mock_resources["cloud_bucket"]: no resource type cloud_buckt; did you mean cloud_bucket?
    >>> isinstance(err, ValueError)
    True
    """

    def __init__(
        self,
        where: str,
        problem: str,
        *,
        type_name: str | None = None,
        attribute: str | None = None,
        expected: str | None = None,
        suggestions: Sequence[str] = (),
    ) -> None:
        self.where = where
        self.problem = problem
        self.type_name = type_name
        self.attribute = attribute
        self.expected = expected
        self.suggestions = tuple(suggestions)
        hint = f"; did you mean {' or '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"{where}: {problem}{hint}")


