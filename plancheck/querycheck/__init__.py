"""querycheck: checks on ``terraform query -json`` output (Terraform 1.14+), a port of Go's ``querycheck``.

Load the output (JSON lines) with :func:`load_query`, then run checks with
:func:`assert_query`; a test runner calls :func:`query_check_failures`. Filters that
choose which results a check looks at are in :mod:`plancheck.querycheck.queryfilter`.

>>> from plancheck import knownvalue as kv
>>> from plancheck.querycheck import (ExpectIdentity, ExpectLength, ExpectResourceDisplayName, assert_query,
...     load_query, queryfilter)
>>> output = load_query(b'''{"@level":"info","@message":"Terraform 1.14.0","type":"version","terraform":"1.14.0","ui":"1.2"}
... {"@level":"info","@message":"list.concept_pet.pets: Starting query...","type":"list_start","list_start":{"address":"list.concept_pet.pets","resource_type":"concept_pet"}}
... {"@level":"info","@message":"list.concept_pet.pets: Result found","type":"list_resource_found","list_resource_found":{"address":"list.concept_pet.pets","display_name":"This is a large-roughy","identity":{"id":"large-roughy","legs":2},"identity_version":1,"resource_type":"concept_pet"}}
... {"@level":"info","@message":"list.concept_pet.pets: List complete","type":"list_complete","list_complete":{"address":"list.concept_pet.pets","resource_type":"concept_pet","total":1}}
... ''')
>>> assert_query(output,
...     ExpectLength("concept_pet.pets", 1),
...     ExpectIdentity("concept_pet.pets", {"id": kv.StringExact("large-roughy"), "legs": kv.Int64Exact(2)}),
...     ExpectResourceDisplayName("concept_pet.pets", queryfilter.ByResourceIdentity({
...         "id": kv.StringExact("large-roughy"), "legs": kv.Int64Exact(2)}), kv.StringRegexp("roughy$")))
"""

from .._documents.query import QueryOutput, QueryResult, QueryStart, QuerySummary, load_query
from .._loading.query import ErroredQueryError, QueryFormatError
from . import queryfilter
from ._checks import (
    ExpectIdentity,
    ExpectLength,
    ExpectLengthAtLeast,
    ExpectNoIdentity,
    ExpectResourceDisplayName,
    ExpectResourceKnownValues,
    ExpectTotalLengthForMatching,
    KnownValueCheck,
    QueryCheckError,
    QueryCheckWarning,
    QueryResultCheck,
    assert_query,
    query_check_failures,
)

__all__ = [
    "ErroredQueryError",
    "ExpectIdentity",
    "ExpectLength",
    "ExpectLengthAtLeast",
    "ExpectNoIdentity",
    "ExpectResourceDisplayName",
    "ExpectResourceKnownValues",
    "ExpectTotalLengthForMatching",
    "KnownValueCheck",
    "QueryCheckError",
    "QueryCheckWarning",
    "QueryFormatError",
    "QueryOutput",
    "QueryResult",
    "QueryResultCheck",
    "QueryStart",
    "QuerySummary",
    "assert_query",
    "load_query",
    "query_check_failures",
    "queryfilter",
]
