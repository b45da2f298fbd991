"""The query checks and filters of Go's ``querycheck``, on hand-built Terraform 1.14 query output.

Messages are pinned after Go's ``querycheck/*.go``; the output is described in ``query_support``.
"""

from __future__ import annotations

import pickle
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from query_support import MESSAGES, complete, found, jsonl, start

from plancheck import CheckFailure
from plancheck import knownvalue as kv
from plancheck.querycheck import (
    ExpectIdentity,
    ExpectLength,
    ExpectLengthAtLeast,
    ExpectNoIdentity,
    ExpectResourceDisplayName,
    ExpectResourceKnownValues,
    ExpectTotalLengthForMatching,
    KnownValueCheck,
    QueryCheckError,
    QueryOutput,
    QueryResultCheck,
    assert_query,
    load_query,
    query_check_failures,
    queryfilter,
)
from tfjsonpath import New


@pytest.fixture(scope="module")
def output() -> QueryOutput:
    return load_query(jsonl(MESSAGES))


BY_INSTANCE_1 = queryfilter.ByResourceIdentity({"id": kv.StringExact("test-instance-1")})

PASSING = [
    pytest.param(ExpectIdentity("concept_pet.pets", {"id": kv.StringExact("brave-heron"), "legs": kv.Int64Exact(2)}),
                 id="ExpectIdentity"),
    pytest.param(ExpectIdentity("list.concept_pet.pets", {"id": kv.StringRegexp("newt"), "legs": kv.NotNull()}),
                 id="ExpectIdentity-list-prefix"),
    pytest.param(ExpectNoIdentity("concept_pet.pets", {"id": kv.StringExact("calm-ibis"), "legs": kv.Int64Exact(2)}),
                 id="ExpectNoIdentity-other-block"),
    pytest.param(ExpectNoIdentity("test_instance.none", {"id": kv.NotNull()}), id="ExpectNoIdentity-no-results"),
    pytest.param(ExpectLengthAtLeast("list.test_instance.none", 0), id="ExpectLengthAtLeast-zero-results"),
    pytest.param(ExpectLength("concept_pet.pets", 3), id="ExpectLength"),
    pytest.param(ExpectLength("list.test_instance.none", 0), id="ExpectLength-zero-with-prefix"),
    pytest.param(ExpectLengthAtLeast("concept_pet.pets", 2), id="ExpectLengthAtLeast"),
    pytest.param(ExpectTotalLengthForMatching(r"^list\.concept_pet\.", 4), id="ExpectTotalLengthForMatching"),
    pytest.param(ExpectTotalLengthForMatching(re.compile(r"test_instance"), 3), id="ExpectTotalLengthForMatching-compiled"),
    pytest.param(ExpectResourceDisplayName("test_instance.example", BY_INSTANCE_1, kv.StringExact("Test Instance 1")),
                 id="ExpectResourceDisplayName"),
    pytest.param(ExpectResourceDisplayName("test_instance.bare", None, kv.StringExact("Bare 1")),
                 id="ExpectResourceDisplayName-no-filter"),
    pytest.param(ExpectResourceDisplayName(
        "concept_pet.pets", queryfilter.ByDisplayName(kv.StringRegexp("heron")), kv.StringExact("This is a brave-heron")),
        id="ExpectResourceDisplayName-ByDisplayName"),
    pytest.param(ExpectResourceKnownValues("test_instance.example", BY_INSTANCE_1, [
        KnownValueCheck(New("ami"), kv.StringExact("ami-12345")),
        KnownValueCheck(New("size"), kv.Float64Exact(1.5)),
        KnownValueCheck(New("tags"), kv.MapSizeExact(1)),
    ]), id="ExpectResourceKnownValues"),
]


@pytest.mark.parametrize("check", PASSING)
def test_checks_pass(output: QueryOutput, check: QueryResultCheck) -> None:
    assert check.failures(output) == []
    check.CheckQuery(output)
    check.CheckQuery(output)
    assert query_check_failures(output, [check]) == []


FAILING = [
    pytest.param(
        ExpectIdentity("concept_pet.pets", {"id": kv.StringExact("brave-heron"), "legs": kv.Int64Exact(4)}),
        ['ExpectIdentity: concept_pet.pets: an identity with the following attributes was not found: attribute "id": '
         '"brave-heron", attribute "legs": 4 (3 results of this list block searched, lines 3, 4, 5)'],
        id="ExpectIdentity-not-found",
    ),
    pytest.param(
        ExpectIdentity("test_instance.none", {"id": kv.NotNull()}),
        ['ExpectIdentity: test_instance.none: an identity with the following attributes was not found: attribute "id": '
         "<not null> (the query found no results for this list block)"],
        id="ExpectIdentity-no-results",
    ),
    pytest.param(
        ExpectIdentity("concept_pet.pets", {"id": kv.NotNull()}),
        ['ExpectIdentity: concept_pet.pets: expected 1 attribute(s) in the actual identity object, got 2 attribute(s): '
         'actual identity has extra attribute(s): "legs"'],
        id="ExpectIdentity-extra-attribute",
    ),
    pytest.param(
        ExpectIdentity("concept_pet.pets", {"id": kv.NotNull(), "arms": kv.NotNull()}),
        ['ExpectIdentity: concept_pet.pets: missing attribute "arms" in actual identity object'],
        id="ExpectIdentity-other-attribute",
    ),
    pytest.param(
        ExpectNoIdentity("concept_pet.pets", {"id": kv.StringExact("quiet-newt"), "legs": kv.Int64Exact(4)}),
        ['ExpectNoIdentity: concept_pet.pets: an unexpected identity matching the given attributes was found: '
         'attribute "id": "quiet-newt", attribute "legs": 4 (line 5)'],
        id="ExpectNoIdentity-found",
    ),
    pytest.param(
        ExpectNoIdentity("concept_pet.pets", {"id": kv.NotNull(), "legs": kv.NotNull(), "tail": kv.NotNull()}),
        ['ExpectNoIdentity: concept_pet.pets: expected 3 attribute(s) in the actual identity object, got 2 attribute(s): '
         'actual identity is missing attribute(s): "tail"'],
        id="ExpectNoIdentity-shape",
    ),
    pytest.param(
        ExpectLength("concept_pet.pets", 4),
        ["ExpectLength: concept_pet.pets: number of found resources 4 - expected but got 3."],
        id="ExpectLength-differs",
    ),
    pytest.param(
        ExpectLengthAtLeast("concept_pet.pets", 4),
        ["ExpectLengthAtLeast: concept_pet.pets: Query result of at least length 4 - expected but got 3."],
        id="ExpectLengthAtLeast-short",
    ),
    pytest.param(
        ExpectTotalLengthForMatching(r"^list\.concept_pet\.", 5),
        ["ExpectTotalLengthForMatching: expected total of found resources to be 5, got 4"],
        id="ExpectTotalLengthForMatching-differs",
    ),
    pytest.param(
        ExpectTotalLengthForMatching("aws_", 1),
        ["ExpectTotalLengthForMatching: no list resources matching the provided regex pattern aws_ were found in the "
         "query results"],
        id="ExpectTotalLengthForMatching-no-match",
    ),
    pytest.param(
        ExpectResourceDisplayName("test_instance.example", BY_INSTANCE_1, kv.StringExact("Test Instance 2")),
        ['ExpectResourceDisplayName: test_instance.example: error checking value for display name "Test Instance 2", '
         'err: expected value "Test Instance 2" for StringExact check, got: "Test Instance 1"'],
        id="ExpectResourceDisplayName-differs",
    ),
    pytest.param(
        ExpectResourceDisplayName("test_instance.example", None, kv.NotNull()),
        ["ExpectResourceDisplayName: test_instance.example: more than 1 query result found after filtering "
         "(2 results, lines 11, 12)"],
        id="ExpectResourceDisplayName-two-results",
    ),
    pytest.param(
        ExpectResourceDisplayName("test_instance.example", queryfilter.ByDisplayName(kv.StringExact("nope")), kv.NotNull()),
        ["ExpectResourceDisplayName: test_instance.example: no query results found after filtering "
         "(2 results before filtering)"],
        id="ExpectResourceDisplayName-filtered-away",
    ),
    pytest.param(
        ExpectResourceKnownValues("test_instance.example", BY_INSTANCE_1, [
            KnownValueCheck(New("ami"), kv.StringExact("ami-67890")),
            KnownValueCheck(New("id"), kv.StringExact("test-instance-1")),
            KnownValueCheck(New("zone"), kv.Null()),
        ]),
        ['ExpectResourceKnownValues: test_instance.example: error checking value for attribute at path: ami for '
         'resource with identity {"id": "test-instance-1"}, err: expected value "ami-67890" for StringExact check, '
         'got: "ami-12345"',
         'ExpectResourceKnownValues: test_instance.example: error checking value for attribute at path: zone for '
         'resource with identity {"id": "test-instance-1"}, err: value is not present (no key "zone" in an object '
         "with 4 keys); expected null"],
        id="ExpectResourceKnownValues-every-failure",
    ),
    pytest.param(
        ExpectResourceDisplayName("test_instance.none", None, kv.NotNull()),
        ["ExpectResourceDisplayName: test_instance.none: no query results found after filtering (0 results before filtering)"],
        id="ExpectResourceDisplayName-no-results",
    ),
    pytest.param(
        ExpectResourceKnownValues("test_instance.bare", None, [KnownValueCheck(New("ami"), kv.NotNull())]),
        ["ExpectResourceKnownValues: test_instance.bare: no resource object was returned, ensure `include_resource` "
         "has been set to `true` in the list resource config"],
        id="ExpectResourceKnownValues-no-resource-object",
    ),
    pytest.param(
        ExpectResourceKnownValues("test_instance.example", BY_INSTANCE_1, [
            KnownValueCheck(New("tags").AtMapKey("team"), kv.StringExact("tok-00000"))]),
        ['ExpectResourceKnownValues: test_instance.example: error checking value for attribute at path: tags["team"] '
         'for resource with identity {"id": "test-instance-1"}, err: expected value (sensitive) for StringExact check, '
         "got: (sensitive)"],
        id="sensitive-input-hidden",
    ),
]


@pytest.mark.parametrize(("check", "expected"), FAILING)
def test_checks_fail_with_go_messages(output: QueryOutput, check: QueryResultCheck, expected: list[str]) -> None:
    assert [str(f) for f in check.failures(output)] == expected
    with pytest.raises(QueryCheckError):
        check.CheckQuery(output)


_NOT_FOUND = "the list block {address} was not found in the query results; closest: {closest}"
_GO_PASSES = (" (Go passes here; this fails because a list block absent from the output was never queried, "
              "so no identity was checked: one that found no results passes)")
_ONE_INSTANCE = [KnownValueCheck(New("ami"), kv.NotNull())]
_INSTANCES = "test_instance.example, test_instance.bare, test_instance.none"

#: A misspelt address: every check on one list block fails the same way, naming the closest blocks.
ABSENT_BLOCK = [
    pytest.param(ExpectIdentity("test_instance.exampel", {"id": kv.NotNull()}), _INSTANCES, "",
                 id="ExpectIdentity"),
    pytest.param(ExpectNoIdentity("test_instance.exampel", {"id": kv.NotNull()}), _INSTANCES, _GO_PASSES,
                 id="ExpectNoIdentity"),
    pytest.param(ExpectLength("test_instance.exampel", 2), _INSTANCES, "", id="ExpectLength"),
    pytest.param(ExpectLengthAtLeast("test_instance.exampel", 0), _INSTANCES, "", id="ExpectLengthAtLeast"),
    pytest.param(ExpectResourceDisplayName("test_instance.exampel", BY_INSTANCE_1, kv.NotNull()), _INSTANCES,
                 "", id="ExpectResourceDisplayName"),
    pytest.param(ExpectResourceKnownValues("test_instance.exampel", BY_INSTANCE_1, _ONE_INSTANCE), _INSTANCES,
                 "", id="ExpectResourceKnownValues"),
    pytest.param(ExpectLength("list.concept_pet.pet", 3), "concept_pet.pets, concept_pet.more_pets", "",
                 id="ExpectLength-list-prefix-two-close"),
    pytest.param(ExpectNoIdentity("concept_pet.cats", {"id": kv.NotNull()}), "concept_pet.pets, concept_pet.more_pets", _GO_PASSES,
                 id="ExpectNoIdentity-other-name"),
]


@pytest.mark.parametrize(("check", "closest", "note"), ABSENT_BLOCK)
def test_an_absent_list_block_fails_every_check_naming_the_closest(
    output: QueryOutput, check: Any, closest: str, note: str
) -> None:
    expected = f"{type(check).__name__}: {check.address}: " + _NOT_FOUND.format(address=check.address, closest=closest)
    assert [str(f) for f in check.failures(output)] == [expected + note]
    assert [str(f) for f in query_check_failures(output, [check])] == [expected + note]


@pytest.mark.parametrize(
    ("messages", "check", "expected"),
    [
        pytest.param([], ExpectNoIdentity("a.b", {"id": kv.NotNull()}),
                     "ExpectNoIdentity: a.b: the list block a.b was not found in the query results; the query output "
                     "has no list blocks" + _GO_PASSES, id="no-list-blocks"),
        pytest.param([complete("list.aws_s3_bucket.logs", "aws_s3_bucket", 0)],
                     ExpectIdentity("test_instance.example", {"id": kv.NotNull()}),
                     "ExpectIdentity: test_instance.example: the list block test_instance.example was not found in the "
                     "query results; the query output has no similar list block (it has aws_s3_bucket.logs)",
                     id="nothing-similar"),
        pytest.param([complete(f"list.aws_s3_bucket.b{i}", "aws_s3_bucket", 0) for i in range(7)],
                     ExpectLength("test_instance.example", 1),
                     "ExpectLength: test_instance.example: the list block test_instance.example was not found in the "
                     "query results; the query output has no similar list block (it has aws_s3_bucket.b0, aws_s3_bucket.b1, "
                     "aws_s3_bucket.b2, aws_s3_bucket.b3, aws_s3_bucket.b4 and 2 more)",
                     id="nothing-similar-many"),
        pytest.param([found("list.concept_pet.pets", "concept_pet", "p", {"id": "p"})], ExpectLength("concept_pet.pets", 1),
                     "ExpectLength: concept_pet.pets: the list block concept_pet.pets has no list_complete message in the "
                     "query output, so its total is unknown", id="length-without-list-complete"),
    ],
)
def test_absent_list_block_messages(messages: list[dict[str, Any]], check: QueryResultCheck, expected: str) -> None:
    assert [str(f) for f in check.failures(QueryOutput.from_messages(messages))] == [expected]


@pytest.mark.parametrize(
    ("message", "check"),
    [
        pytest.param(start("list.test_instance.none", "test_instance"), ExpectNoIdentity("test_instance.none", {"id": kv.NotNull()}),
                     id="list_start-only"),
        pytest.param(complete("list.test_instance.none", "test_instance", 0),
                     ExpectNoIdentity("test_instance.none", {"id": kv.NotNull()}), id="list_complete-only"),
        pytest.param(complete("list.test_instance.none", "test_instance", 0), ExpectLength("test_instance.none", 0),
                     id="length-zero"),
    ],
)
def test_a_list_block_with_no_results_is_present(message: dict[str, Any], check: QueryResultCheck) -> None:
    assert check.failures(QueryOutput.from_messages([message])) == []


def test_query_check_failures_runs_everything_in_order(output: QueryOutput) -> None:
    failures = query_check_failures(output, [ExpectLength("concept_pet.pets", 1), ExpectLength("concept_pet.pets", 3),
                                             ExpectLengthAtLeast("concept_pet.pets", 9)])
    assert [f.check for f in failures] == ["ExpectLength", "ExpectLengthAtLeast"]
    assert all(isinstance(f, CheckFailure) for f in failures)


def test_an_empty_output_fails_as_in_go() -> None:
    assert [str(f) for f in query_check_failures(QueryOutput.from_messages([]), [])] == ["query: no query results found"]


def test_assert_query_lists_every_failure(output: QueryOutput) -> None:
    with pytest.raises(QueryCheckError) as info:
        assert_query(output, ExpectLength("concept_pet.pets", 1), ExpectTotalLengthForMatching("pets", 9))
    assert str(info.value) == (
        "2 query checks failed:\n"
        "  1. ExpectLength: concept_pet.pets: number of found resources 1 - expected but got 3.\n"
        "  2. ExpectTotalLengthForMatching: expected total of found resources to be 9, got 4"
    )
    assert isinstance(info.value, AssertionError)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        pytest.param(lambda o: assert_query(o, [ExpectLength("a.b", 1)]), TypeError,
                     "assert_query: check 1 must be a QueryResultCheck, got list; to pass a list of checks, unpack it: "
                     "assert_query(output, *checks)", id="assert-list"),
        pytest.param(lambda o: query_check_failures(o, ["x"]), TypeError,
                     "query_check_failures: check 1 must be a QueryResultCheck, got str", id="failures-str"),
        pytest.param(lambda o: ExpectLength("a.b", 1).CheckQuery({"type": "version"}), TypeError,
                     "ExpectLength.CheckQuery expects a plancheck.querycheck.QueryOutput (use load_query), got dict",
                     id="check-dict"),
    ],
)
def test_wrong_arguments_when_running(output: QueryOutput, call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call(output)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        pytest.param(lambda: ExpectLength("a.b", -1), ValueError, "ExpectLength: length must be >= 0, got -1", id="negative"),
        pytest.param(lambda: ExpectLength("a.b", True), TypeError, "ExpectLength: length must be an int, got bool", id="bool-length"),
        pytest.param(lambda: ExpectLengthAtLeast("", 1), ValueError, "ExpectLengthAtLeast: address must not be empty", id="empty"),
        pytest.param(lambda: ExpectTotalLengthForMatching("(", 1), ValueError,
                     "ExpectTotalLengthForMatching: regex '(' does not compile: missing ), unterminated subpattern at position 0",
                     id="bad-regex"),
        pytest.param(lambda: ExpectTotalLengthForMatching(3, 1), TypeError,
                     "ExpectTotalLengthForMatching: regex must be a str or a compiled re.Pattern of str, got int", id="int-regex"),
        pytest.param(lambda: ExpectIdentity("a.b", {"id": "x"}), TypeError,
                     'ExpectIdentity: identity["id"] must be a knownvalue check, got str (wrap plain values with '
                     "knownvalue.exact())", id="plain-identity"),
        pytest.param(lambda: ExpectResourceDisplayName("a.b", kv.NotNull(), kv.NotNull()), TypeError,
                     "ExpectResourceDisplayName: filter must be a queryfilter.QueryFilter (e.g. "
                     "queryfilter.ByResourceIdentity(...)) or None, got NotNull", id="matcher-as-filter"),
        pytest.param(lambda: ExpectResourceKnownValues("a.b", None, KnownValueCheck(New("a"), kv.Null())), TypeError,
                     "ExpectResourceKnownValues: known_values must be a list of KnownValueCheck, got KnownValueCheck",
                     id="single-known-value"),
        pytest.param(lambda: ExpectResourceKnownValues("a.b", None, [kv.Null()]), TypeError,
                     "ExpectResourceKnownValues: known_values[0] must be a KnownValueCheck, got Null", id="matcher-in-list"),
        pytest.param(lambda: KnownValueCheck("a", kv.Null()), TypeError,
                     "KnownValueCheck: path must be a tfjsonpath.Path, got str (to use text, parse it: "
                     "tfjsonpath.Path.parse('a'))", id="text-path"),
        pytest.param(lambda: queryfilter.ByDisplayName("x"), TypeError,
                     "ByDisplayName: matcher must be a knownvalue check, got str (wrap plain values with knownvalue.exact())",
                     id="plain-display-name"),
        pytest.param(lambda: queryfilter.ByResourceIdentity([]), TypeError,
                     "ByResourceIdentity: identity must be a dict of attribute name to knownvalue check, got list",
                     id="identity-list"),
    ],
)
def test_bad_arguments_fail_at_construction(build: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        build()
    assert str(info.value) == message


FROZEN = [
    pytest.param(ExpectIdentity("a.b", {"z": kv.Null(), "id": kv.StringExact("x")}),
                 "ExpectIdentity('a.b', {'id': StringExact('x'), 'z': Null()})", id="ExpectIdentity"),
    pytest.param(ExpectNoIdentity("a.b", {"id": kv.Null()}), "ExpectNoIdentity('a.b', {'id': Null()})", id="ExpectNoIdentity"),
    pytest.param(ExpectLength("a.b", 2), "ExpectLength('a.b', 2)", id="ExpectLength"),
    pytest.param(ExpectLengthAtLeast("a.b", 2), "ExpectLengthAtLeast('a.b', 2)", id="ExpectLengthAtLeast"),
    pytest.param(ExpectTotalLengthForMatching("^list", 2), "ExpectTotalLengthForMatching(re.compile('^list'), 2)",
                 id="ExpectTotalLengthForMatching"),
    pytest.param(ExpectResourceDisplayName("a.b", None, kv.Null()), "ExpectResourceDisplayName('a.b', None, Null())",
                 id="ExpectResourceDisplayName"),
    pytest.param(ExpectResourceKnownValues("a.b", queryfilter.ByDisplayName(kv.Null()), [KnownValueCheck(New("a"), kv.Null())]),
                 "ExpectResourceKnownValues('a.b', ByDisplayName(Null()), [KnownValueCheck(Path(MapStep('a')), Null())])",
                 id="ExpectResourceKnownValues"),
    pytest.param(queryfilter.ByResourceIdentity({"id": kv.Null()}), "ByResourceIdentity({'id': Null()})", id="ByResourceIdentity"),
]


@pytest.mark.parametrize(("value", "text"), FROZEN)
def test_checks_and_filters_are_frozen_values(value: Any, text: str) -> None:
    assert repr(value) == text
    copy = pickle.loads(pickle.dumps(value))
    assert copy == value
    assert hash(copy) == hash(value)
    with pytest.raises(AttributeError, match="is immutable"):
        value.address = "x"


def test_known_values_are_copied() -> None:
    items = [KnownValueCheck(New("a"), kv.Null())]
    check = ExpectResourceKnownValues("a.b", None, items)
    items.append(KnownValueCheck(New("b"), kv.Null()))
    assert len(check.known_values) == 1


def test_filters_of_a_check(output: QueryOutput) -> None:
    check = ExpectResourceDisplayName("test_instance.example", BY_INSTANCE_1, kv.NotNull())
    assert check.QueryFilters() == (BY_INSTANCE_1,) == check.QueryFilters()
    assert ExpectLength("a.b", 1).QueryFilters() == ()
    assert [r.display_name for r in check.filtered(output.results_for("test_instance.example"))] == ["Test Instance 1"]


def test_secrets_never_show(output: QueryOutput) -> None:
    messages = [
        {"type": "list_start", "list_start": {"address": "list.test_instance.s", "input_config": {"name": "pw-7k2x9q"},
                                              "sensitive_attribute_paths": [".name"]}},
        found("list.test_instance.s", "test_instance", "pw-7k2x9q", {"id": "pw-7k2x9q"}, {"name": "pw-7k2x9q"}),
        complete("list.test_instance.s", "test_instance", 1),
    ]
    secret_output = QueryOutput.from_messages(messages)
    checks: list[QueryResultCheck] = [
        ExpectIdentity("test_instance.s", {"id": kv.StringExact("pw-7k2x9r")}),
        ExpectResourceDisplayName("test_instance.s", None, kv.StringExact("pw-7k2x9r")),
        ExpectResourceKnownValues("test_instance.s", None, [KnownValueCheck(New("name"), kv.StringExact("pw-7k2x9r"))]),
    ]
    failures = query_check_failures(secret_output, checks)
    assert len(failures) == 3
    assert all("pw-7k2x9" not in str(f) for f in failures)


# -- laws ----------------------------------------------------------------------------------------

_IDENTITY = st.dictionaries(st.sampled_from(["id", "legs", "region", "name"]),
                            st.one_of(st.integers(0, 9), st.text(min_size=1, max_size=5)), min_size=1, max_size=4)


@settings(max_examples=50, deadline=None)
@given(st.lists(_IDENTITY, min_size=1, max_size=5), st.data())
def test_expect_identity_and_expect_no_identity_are_complements(identities: list[dict[str, Any]], data: st.DataObject) -> None:
    # One identity schema per list block: every result has the same attribute names.
    names = sorted(identities[0])
    rows = [{name: identity.get(name, 0) for name in names} for identity in identities]
    messages = [found("list.concept_pet.pets", "concept_pet", f"pet {i}", row) for i, row in enumerate(rows)]
    out = QueryOutput.from_messages(messages)
    target = data.draw(st.one_of(st.sampled_from(rows), _IDENTITY.map(lambda d: {n: d.get(n, 1) for n in names})))
    expected = {name: kv.exact(value) for name, value in target.items()}
    present = target in rows
    assert (ExpectIdentity("concept_pet.pets", expected).failures(out) == []) is present
    assert (ExpectNoIdentity("concept_pet.pets", expected).failures(out) == []) is not present
    included = [r for r in out.results if queryfilter.ByResourceIdentity(expected).Filter(r)]
    assert [r.identity for r in included] == [row for row in rows if row == target]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=6))
def test_total_length_is_the_sum_of_matching_totals(totals: list[int]) -> None:
    out = QueryOutput.from_messages([complete(f"list.concept_pet.p{i}", "concept_pet", t) for i, t in enumerate(totals)])
    assert ExpectTotalLengthForMatching(r"^list\.concept_pet\.p", sum(totals)).failures(out) == []
    for i, total in enumerate(totals):
        assert ExpectLength(f"concept_pet.p{i}", total).failures(out) == []
        assert ExpectLengthAtLeast(f"concept_pet.p{i}", total).failures(out) == []
        assert ExpectLengthAtLeast(f"concept_pet.p{i}", total + 1).failures(out) != []


def test_query_check_error_is_a_public_check_failure(output: QueryOutput) -> None:
    from plancheck import CheckFailedError, TfCheckError

    with pytest.raises(QueryCheckError) as info:
        ExpectLength("concept_pet.pets", 9).CheckQuery(output)
    error = info.value
    assert QueryCheckError.__module__ == "plancheck.querycheck"
    assert isinstance(error, CheckFailedError)
    assert isinstance(error, TfCheckError)
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    assert error.address == "concept_pet.pets"
