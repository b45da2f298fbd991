"""plancheck.tfversion against Go's tfversion: every check over a table of Terraform versions, messages pinned."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import TfCheckError
from plancheck.tfversion import (
    All,
    Any,
    RequireAbove,
    RequireBelow,
    RequireBetween,
    RequireNot,
    Result,
    SkipAbove,
    SkipBelow,
    SkipBetween,
    SkipIf,
    SkipIfNotAlpha,
    SkipIfNotPrerelease,
    Version,
    Version1_4_6,
    Version1_12_0,
    VersionCheck,
    VersionError,
    run_check,
)

V103, V1114, ALPHA, V1120, V1141 = "1.0.3", "1.11.4", "1.12.0-alpha20240101", "1.12.0", "1.14.1"
VERSIONS = (V103, V1114, ALPHA, V1120, V1141)


def skip(text: str) -> Result:
    return Result(skip=text)


def error(text: str) -> Result:
    return Result(error=text)


OK = Result()


def below(tf: str, minimum: str) -> Result:
    return skip(f"Terraform CLI version {tf} is below minimum version {minimum}: skipping test")


def above(tf: str, maximum: str) -> Result:
    return skip(f"Terraform CLI version {tf} is above maximum version {maximum}: skipping test")


def between(tf: str, low: str, high: str) -> Result:
    return skip(f"Terraform CLI version {tf} is between {low} and {high}: skipping test.")


def need_above(tf: str, minimum: str) -> Result:
    return error(f"expected Terraform CLI version above {minimum} but detected version is {tf}")


def need_below(tf: str, maximum: str) -> Result:
    return error(f"expected Terraform CLI version below {maximum} but detected version is {tf}")


def need_between(tf: str, low: str, high: str) -> Result:
    return error(f"expected Terraform CLI version between {low} and {high} but detected version is {tf}")


# (check, expected result for each of VERSIONS in order)
TABLE: list[tuple[str, VersionCheck, tuple[Result, ...]]] = [
    ("SkipBelow-1.12.0", SkipBelow("1.12.0"), (below(V103, V1120), below(V1114, V1120), OK, OK, OK)),
    (
        "SkipBelow-prerelease-minimum-compares-the-full-version",
        SkipBelow("1.12.0-beta1"),
        (below(V103, "1.12.0-beta1"), below(V1114, "1.12.0-beta1"), below(ALPHA, "1.12.0-beta1"), OK, OK),
    ),
    ("SkipAbove-1.11.4", SkipAbove("1.11.4"), (OK, OK, above(ALPHA, V1114), above(V1120, V1114), above(V1141, V1114))),
    ("SkipAbove-1.12.0-alpha-counts-as-1.12.0", SkipAbove("1.12.0"), (OK, OK, OK, OK, above(V1141, V1120))),
    (
        "SkipBetween-1.11.0-1.12.0",
        SkipBetween("1.11.0", "1.12.0"),
        (OK, between(V1114, "1.11.0", V1120), OK, OK, OK),
    ),
    (
        "SkipBetween-prerelease-maximum",
        SkipBetween("1.11.0", "1.12.0-beta1"),
        (OK, between(V1114, "1.11.0", "1.12.0-beta1"), between(ALPHA, "1.11.0", "1.12.0-beta1"), OK, OK),
    ),
    ("SkipIf-1.12.0-also-its-prereleases", SkipIf("1.12.0"), (OK, OK, skip("Terraform CLI version is 1.12.0: skipping test."), skip("Terraform CLI version is 1.12.0: skipping test."), OK)),
    ("SkipIf-exact-prerelease", SkipIf(ALPHA), (OK, OK, skip(f"Terraform CLI version is {ALPHA}: skipping test."), OK, OK)),
    (
        "SkipIfNotAlpha",
        SkipIfNotAlpha(),
        tuple(
            OK if v == ALPHA else skip(f"Terraform CLI version {v} is not an alpha build: skipping test.")
            for v in VERSIONS
        ),
    ),
    (
        "SkipIfNotPrerelease",
        SkipIfNotPrerelease(),
        tuple(
            OK if v == ALPHA else skip(f"Terraform CLI version {v} is not a prerelease build: skipping test.")
            for v in VERSIONS
        ),
    ),
    ("RequireAbove-1.11.4", RequireAbove("1.11.4"), (need_above(V103, V1114), OK, OK, OK, OK)),
    ("RequireAbove-1.12.0-alpha-counts-as-1.12.0", RequireAbove("1.12.0"), (need_above(V103, V1120), need_above(V1114, V1120), OK, OK, OK)),
    ("RequireBelow-1.12.0", RequireBelow("1.12.0"), (OK, OK, need_below(ALPHA, V1120), need_below(V1120, V1120), need_below(V1141, V1120))),
    ("RequireBelow-prerelease-maximum", RequireBelow("1.12.0-beta1"), (OK, OK, OK, need_below(V1120, "1.12.0-beta1"), need_below(V1141, "1.12.0-beta1"))),
    (
        "RequireBetween-1.11.0-1.14.0",
        RequireBetween("1.11.0", "1.14.0"),
        (need_between(V103, "1.11.0", "1.14.0"), OK, OK, OK, need_between(V1141, "1.11.0", "1.14.0")),
    ),
    ("RequireNot-1.11.4", RequireNot("1.11.4"), (OK, error("unexpected Terraform CLI version: 1.11.4"), OK, OK, OK)),
    ("RequireNot-1.12.0-also-its-prereleases", RequireNot(Version1_12_0), (OK, OK, error("unexpected Terraform CLI version: 1.12.0"), error("unexpected Terraform CLI version: 1.12.0"), OK)),
]

CASES = [
    pytest.param(check, tf, expected, id=f"{name}@{tf}")
    for name, check, results in TABLE
    for tf, expected in zip(VERSIONS, results, strict=True)
]


@pytest.mark.parametrize(("check", "tf", "expected"), CASES)
def test_check_matches_go(check: VersionCheck, tf: str, expected: Result) -> None:
    assert check.CheckTerraformVersion(tf) == expected
    assert check.CheckTerraformVersion(Version(tf)) == expected


SKIP_OLD = SkipBelow("1.11.0")  # skips 1.0.3
SKIP_NEW = SkipAbove("1.12.0")  # skips 1.14.1
NEED_NEW = RequireAbove("1.11.0")  # fails 1.0.3
NEED_OLD = RequireBelow("1.12.0")  # fails 1.12.0-alpha, 1.12.0, 1.14.1


@pytest.mark.parametrize(
    ("check", "tf", "expected"),
    [
        pytest.param(Any(SKIP_OLD, SKIP_NEW), V1114, OK, id="any-all-pass"),
        pytest.param(Any(SKIP_OLD, SkipIf("1.11.4")), V103, OK, id="any-second-passes"),
        pytest.param(
            Any(SKIP_OLD, SkipIf("1.0.3")),
            V103,
            skip(
                "Terraform CLI version 1.0.3 is below minimum version 1.11.0: skipping test\n"
                "Terraform CLI version is 1.0.3: skipping test."
            ),
            id="any-every-skip-joined",
        ),
        pytest.param(
            Any(NEED_NEW, SKIP_OLD),
            V103,
            Result(
                error="expected Terraform CLI version above 1.11.0 but detected version is 1.0.3",
                skip="Terraform CLI version 1.0.3 is below minimum version 1.11.0: skipping test",
            ),
            id="any-error-and-skip-both-kept",
        ),
        pytest.param(
            Any(NEED_OLD, RequireNot("1.14.1")),
            V1141,
            error(
                "expected Terraform CLI version below 1.12.0 but detected version is 1.14.1\n"
                "unexpected Terraform CLI version: 1.14.1"
            ),
            id="any-every-error-joined",
        ),
        pytest.param(All(SKIP_OLD, SKIP_NEW), V1114, OK, id="all-pass"),
        pytest.param(All(SKIP_NEW, NEED_OLD), V1141, above(V1141, "1.12.0"), id="all-first-decides-skip"),
        pytest.param(All(NEED_OLD, SKIP_NEW), V1141, need_below(V1141, "1.12.0"), id="all-first-decides-error"),
        pytest.param(All(SKIP_OLD, NEED_OLD), V1120, need_below(V1120, "1.12.0"), id="all-later-error"),
        pytest.param(
            All(Any(SKIP_OLD, SKIP_NEW), NEED_OLD), ALPHA, need_below(ALPHA, "1.12.0"), id="nested-any-in-all"
        ),
    ],
)
def test_any_and_all_match_go(check: VersionCheck, tf: str, expected: Result) -> None:
    assert check.CheckTerraformVersion(tf) == expected


def test_all_stops_at_the_first_decision() -> None:
    class Boom:
        def check_terraform_version(self, version: object) -> Result:
            raise AssertionError("must not run")

    assert All(SKIP_OLD, Boom()).CheckTerraformVersion(V103).skip is not None
    assert Any(SKIP_NEW, Boom()).CheckTerraformVersion(V103).passed


def test_go_style_duck_typed_checks_combine() -> None:
    class GoStyle:
        class Response:
            error: str | None = None
            skip = "custom skip"

        def CheckTerraformVersion(self, version: object) -> object:
            return self.Response()

    assert All(GoStyle()).CheckTerraformVersion(V103) == skip("custom skip")
    assert run_check(GoStyle(), V103, "here") == skip("custom skip")


# -- construction errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: SkipBelow("one"), "SkipBelow(minimum): not a version: 'one' (expected e.g. 1.12.0 or 1.12.0-alpha20240101)", id="skip-below-text"),
        pytest.param(lambda: SkipAbove(1.5), "SkipAbove(maximum): expected a version (str or Version), got float", id="skip-above-type"),
        pytest.param(lambda: SkipIf(""), "SkipIf(version): not a version: '' (expected e.g. 1.12.0 or 1.12.0-alpha20240101)", id="skip-if-empty"),
        pytest.param(lambda: RequireNot(None), "RequireNot(version): expected a version (str or Version), got NoneType", id="require-not-none"),
        pytest.param(lambda: RequireBetween("1.2.0", "x"), "RequireBetween(maximum): not a version: 'x' (expected e.g. 1.12.0 or 1.12.0-alpha20240101)", id="between-bad-maximum"),
        pytest.param(lambda: SkipBetween("1.2.0", "1.2.0"), "SkipBetween(minimum, maximum): minimum 1.2.0 must be below maximum 1.2.0", id="between-empty-range"),
        pytest.param(lambda: RequireBetween("1.3", "1.2.9"), "RequireBetween(minimum, maximum): minimum 1.3.0 must be below maximum 1.2.9", id="between-reversed"),
        pytest.param(lambda: Any(), "Any(): give at least one version check", id="any-empty"),
        pytest.param(lambda: All(SKIP_OLD, "1.2.0"), "All(checks[1]): expected a version check (with check_terraform_version()), got str", id="all-not-a-check"),
        pytest.param(lambda: Version("1.2.x"), "Version: not a version: '1.2.x' (expected e.g. 1.12.0 or 1.12.0-alpha20240101)", id="version-text"),
        pytest.param(
            lambda: Version("1.9223372036854775808"),
            "Version: not a version: '1.9223372036854775808' (segment '9223372036854775808' is too large)",
            id="segment-beyond-int64",
        ),
        pytest.param(lambda: Version(b"1.2.0"), "Version: expected a version string such as '1.12.0', got bytes", id="version-bytes"),
        pytest.param(lambda: SkipBelow("1.0.0").CheckTerraformVersion("dev"), "CheckTerraformVersion(version): not a version: 'dev' (expected e.g. 1.12.0 or 1.12.0-alpha20240101)", id="check-bad-terraform-version"),
    ],
)
def test_bad_arguments_fail_with_a_typed_error(build: object, message: str) -> None:
    with pytest.raises(VersionError) as info:
        build()  # type: ignore[operator]
    assert str(info.value) == message
    assert isinstance(info.value, TfCheckError)
    assert isinstance(info.value, ValueError)
    assert str(pickle.loads(pickle.dumps(info.value))) == message


def test_bad_result_from_a_custom_check_names_it() -> None:
    class Bad:
        def check_terraform_version(self, version: object) -> object:
            return 42

    with pytest.raises(VersionError, match=r"^Any\(checks\[0\]\): expected a result with error and skip"):
        Any(Bad()).CheckTerraformVersion(V103)


# -- values -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param(SkipBelow("1.12.0"), "SkipBelow(Version('1.12.0'))", id="one"),
        pytest.param(SkipBetween(Version1_4_6, "1.5"), "SkipBetween(Version('1.4.6'), Version('1.5.0'))", id="range"),
        pytest.param(SkipIfNotAlpha(), "SkipIfNotAlpha()", id="none"),
        pytest.param(Any(SkipIf("1.0.3"), All(RequireNot("1.1.0"))), "Any(SkipIf(Version('1.0.3')), All(RequireNot(Version('1.1.0'))))", id="nested"),
        pytest.param(Result(error="e", skip=""), "Result(error='e')", id="result"),
    ],
)
def test_checks_are_frozen_values(value: object, text: str) -> None:
    assert repr(value) == text
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) is value
    assert hash(pickle.loads(pickle.dumps(value))) == hash(value)
    with pytest.raises(AttributeError, match="immutable"):
        value.version = "2.0.0"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "shown", "prerelease", "metadata", "core"),
    [
        pytest.param("1.12.0", "1.12.0", "", "", "1.12.0", id="release"),
        pytest.param("v1.2", "1.2.0", "", "", "1.2.0", id="v-prefix-padded"),
        pytest.param("1.12.0-alpha20240101", "1.12.0-alpha20240101", "alpha20240101", "", "1.12.0", id="alpha"),
        pytest.param("1.11.4-rc1+ent.2", "1.11.4-rc1+ent.2", "rc1", "ent.2", "1.11.4", id="rc-and-metadata"),
        pytest.param("1.0.0beta", "1.0.0-beta", "beta", "", "1.0.0", id="go-version-dashless-prerelease"),
        pytest.param("1.2.3.4", "1.2.3.4", "", "", "1.2.3", id="four-segments"),
    ],
)
def test_version_parts(text: str, shown: str, prerelease: str, metadata: str, core: str) -> None:
    v = Version.parse(text)
    assert (str(v), v.prerelease, v.metadata, str(v.core)) == (shown, prerelease, metadata, core)
    assert repr(v) == f"Version({shown!r})"


@pytest.mark.parametrize(
    ("smaller", "larger"),
    [
        pytest.param("1.12.0-alpha20240101", "1.12.0", id="prerelease-before-release"),
        pytest.param("1.12.0-alpha20240101", "1.12.0-beta1", id="alpha-before-beta"),
        pytest.param("1.11.4", "1.12.0-alpha20240101", id="older-release-before-prerelease"),
        pytest.param("1.9.0", "1.10.0", id="numeric-not-textual"),
        pytest.param("1.0.0-rc.2", "1.0.0-rc.10", id="numeric-prerelease-parts"),
        pytest.param("1.0.0-1", "1.0.0-a", id="numeric-part-before-text-part"),
        pytest.param("1.2.3", "1.2.3.1", id="extra-segment"),
    ],
)
def test_version_order(smaller: str, larger: str) -> None:
    assert Version(smaller) < Version(larger)
    assert Version(larger) > Version(smaller)
    assert Version(smaller) != Version(larger)


def test_huge_digit_runs_give_a_typed_error_or_a_value() -> None:
    with pytest.raises(VersionError, match="is too large"):
        Version("1." + "9" * 5000)
    assert Version("1." + "0" * 5000 + "1") == Version("1.1")
    assert Version("1.0.0-" + "1" * 5000) > Version("1.0.0-" + "9" * 4999)


def test_equality_pads_segments_and_ignores_metadata_and_foreign_types() -> None:
    assert Version("1.2") == Version("1.2.0.0")
    assert hash(Version("1.2")) == hash(Version("1.2.0.0"))
    assert Version("1.0.0+a") == Version("1.0.0+b")
    assert Version("1.2.0") != "1.2.0"
    assert Version("1.2.0").__eq__("1.2.0") is NotImplemented
    with pytest.raises(TypeError):
        _ = Version("1.2.0") < "1.3.0"  # type: ignore[operator]


_IDENT = st.from_regex(r"[0-9A-Za-z~-]{1,6}", fullmatch=True)
_PRERELEASE = st.one_of(
    st.just(""),
    st.builds(lambda first, rest: ".".join([first, *rest]), st.from_regex(r"[A-Za-z~][0-9A-Za-z~-]{0,5}", fullmatch=True), st.lists(_IDENT, max_size=2)),
    st.builds(str, st.integers(0, 30)),
)
VERSION_TEXTS = st.builds(
    lambda segments, pre, meta: ".".join(map(str, segments)) + (f"-{pre}" if pre else "") + (f"+{meta}" if meta else ""),
    st.lists(st.integers(0, 20), min_size=1, max_size=4),
    _PRERELEASE,
    st.one_of(st.just(""), _IDENT),
)


@settings(max_examples=150, deadline=None)
@given(VERSION_TEXTS, VERSION_TEXTS, VERSION_TEXTS)
def test_version_order_is_total_and_survives_a_round_trip(a: str, b: str, c: str) -> None:
    x, y, z = Version(a), Version(b), Version(c)
    # Round trip: str gives text that parses back to an equal value with the same text.
    assert Version(str(x)) == x
    assert str(Version(str(x))) == str(x)
    # Exactly one of <, ==, > (totality and asymmetry), consistent with <=, >= and hash.
    assert [x < y, x == y, x > y].count(True) == 1
    assert (x <= y) == (x < y or x == y)
    assert (x >= y) == (x > y or x == y)
    if x == y:
        assert hash(x) == hash(y)
    # Transitivity.
    if x <= y and y <= z:
        assert x <= z
    assert sorted([x, y, z]) == sorted([z, y, x])
