"""queryfilter: which results a query check looks at, a port of Go's ``querycheck/queryfilter``.

>>> from plancheck import knownvalue as kv
>>> from plancheck.querycheck import queryfilter
>>> queryfilter.ByResourceIdentity({"id": kv.StringExact("able-werewolf")})
ByResourceIdentity({'id': StringExact('able-werewolf')})
"""

from ._filters import ByDisplayName, ByResourceIdentity, QueryFilter

__all__ = ["ByDisplayName", "ByResourceIdentity", "QueryFilter"]
