"""queryfilter: which results a query check looks at, a port of Go's ``querycheck/queryfilter``.

>>> from plancheck import knownvalue as kv
>>> from plancheck.querycheck import queryfilter
>>> queryfilter.ByResourceIdentity({"id": kv.StringExact("able-werewolf")})
ByResourceIdentity({'id': StringExact('able-werewolf')})
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._checking.fields import checked_matcher
from .._checking.match import checked_identity, identity_matches
from .._documents.query import QueryResult
from .._frozen import FrozenValue, frozen, public
from ..knownvalue import Check

__all__ = ["ByDisplayName", "ByResourceIdentity", "QueryFilter"]


@public("plancheck.querycheck.queryfilter")
@frozen
class QueryFilter(FrozenValue, abc.ABC):
    """Base class of the query filters: :meth:`Filter` (Go's name) says whether a check looks at a result.

    A check that takes a filter looks only at the results it includes. Filters are small
    frozen values, like checks; a filter of your own implements :meth:`Filter`.

    >>> from plancheck.querycheck import QueryResult
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class ByType(QueryFilter):
    ...     resource_type: str
    ...     def Filter(self, result):
    ...         return result.resource_type == self.resource_type
    >>> result = QueryResult({"list_resource_found": {"address": "list.concept_pet.pets", "resource_type": "concept_pet"}})
    >>> ByType("concept_pet").Filter(result), ByType("dog").Filter(result)
    (True, False)
    """

    @abc.abstractmethod
    def Filter(self, result: QueryResult) -> bool:  # Go's name, kept for line-by-line ports
        """Whether a check looks at ``result`` (Go's ``Filter``, returning the bool).

        >>> from plancheck import knownvalue as kv
        >>> from plancheck.querycheck import QueryResult
        >>> ByDisplayName(kv.StringExact("x")).Filter(QueryResult({"list_resource_found": {"address": "list.a.b", "display_name": "x"}}))
        True
        """


@public("plancheck.querycheck.queryfilter")
@frozen
class ByDisplayName(QueryFilter):
    """Includes the results whose display name matches ``display_name`` (a knownvalue check).

    >>> from plancheck import knownvalue as kv
    >>> from plancheck.querycheck import QueryResult
    >>> found = QueryResult({"list_resource_found": {"address": "list.concept_pet.pets", "display_name": "This is a able-werewolf"}})
    >>> ByDisplayName(kv.StringRegexp("werewolf$")).Filter(found), ByDisplayName(kv.StringExact("x")).Filter(found)
    (True, False)
    """

    display_name: Check

    def __post_init__(self) -> None:
        self._set(display_name=checked_matcher(self.display_name, type(self).__name__))

    def Filter(self, result: QueryResult) -> bool:
        """Whether the result's display name matches."""
        return self.display_name == result.display_name


@public("plancheck.querycheck.queryfilter")
@frozen
class ByResourceIdentity(QueryFilter):
    """Includes the results whose identity has exactly these attributes, each matching its check.

    >>> from plancheck import knownvalue as kv
    >>> from plancheck.querycheck import QueryResult
    >>> found = QueryResult({"list_resource_found": {"address": "list.concept_pet.pets", "identity": {"id": "able-werewolf", "legs": 5}}})
    >>> ByResourceIdentity({"id": kv.StringExact("able-werewolf"), "legs": kv.Int64Exact(5)}).Filter(found)
    True
    >>> ByResourceIdentity({"id": kv.StringExact("able-werewolf")}).Filter(found)   # exactly these attributes
    False
    """

    identity: tuple[tuple[str, Check], ...]

    if TYPE_CHECKING:  # the constructor takes more than the fields hold: __post_init__ converts
        def __init__(self, identity: Mapping[str, Check]) -> None: ...

    def __post_init__(self) -> None:
        self._set(identity=checked_identity(self.identity, type(self).__name__))

    def _args(self, *, shown: bool = False) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (dict(self.identity),), {}

    def Filter(self, result: QueryResult) -> bool:
        """Whether the result's identity matches."""
        return identity_matches(result.identity, self.identity)
