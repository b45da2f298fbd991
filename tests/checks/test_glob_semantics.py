"""What a glob means, pinned before and after its matcher changed (#33): selectors' ``type``, ``provider``,
``address`` and ``module``, ``except_``, and mock-provider keys all match through the one glob compiler.

The matcher runs in time linear in the address (no backtracking): a Hypothesis property compares it
with the regular expressions the globs used to compile to, on small inputs where those are quick.
"""

from __future__ import annotations

import re
from typing import Any, Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck import ResourceChange, Resources
from plancheck._documents.select import address_pattern

# -- the old compilers, kept as the oracle ---------------------------------------------------------

_ANY_KEY: Final = r'\[(?:[0-9]+|"(?:[^"\\]|\\.)*")\]'


def _old_plain(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern), re.DOTALL)


def _old_bracket_end(pattern: str, start: int) -> int:
    i, quoted = start + 1, False
    while i < len(pattern):
        c = pattern[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "]":
            return i
        i += 1
    return -1


def _old_quoted(inner: str) -> str | None:
    out = [re.escape('"')]
    body = inner[1:-1]
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body):
                return None
            out.append(re.escape(body[i : i + 2]))
            i += 2
            continue
        if c == '"':
            return None
        out.append('(?:[^"\\\\]|\\\\.)*' if c == "*" else '(?:[^"\\\\]|\\\\.)' if c == "?" else re.escape(c))
        i += 1
    out.append(re.escape('"'))
    return "".join(out)


def _old_address(pattern: str) -> re.Pattern[str] | None:
    """The address regex as compiled before #33, or None where it raised."""
    parts: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            parts.append(".*")
        elif c == "?":
            parts.append(".")
        elif c == "[":
            close = _old_bracket_end(pattern, i)
            if close < 0:
                return None
            inner = pattern[i + 1 : close]
            if inner == "*":
                parts.append(_ANY_KEY)
            elif inner.isdigit() and inner.isascii():
                parts.append(re.escape(pattern[i : close + 1]))
            elif len(inner) >= 2 and inner[0] == '"' and inner[-1] == '"':
                quoted = _old_quoted(inner)
                if quoted is None:
                    return None
                parts.append(r"\[" + quoted + r"\]")
            else:
                return None
            i = close
        elif c == "]":
            return None
        else:
            parts.append(re.escape(c))
        i += 1
    body = "".join(parts)
    if pattern and not pattern.endswith(("]", "*")):
        body += f"(?:{_ANY_KEY})?"
    return re.compile(body, re.DOTALL)


# -- the table ----------------------------------------------------------------------------------------


_NO_OP: Final = {"actions": ["no-op"]}


def _type_matches(pattern: str, text: str) -> bool:
    return Resources(type=pattern).matches(ResourceChange({"address": "x.y", "type": text, "change": _NO_OP}))


def _provider_matches(pattern: str, text: str) -> bool:
    return Resources(provider=pattern).matches(ResourceChange({"address": "x.y", "provider_name": text, "change": _NO_OP}))


def _address_matches(pattern: str, text: str) -> bool:
    return Resources(address=pattern).matches(ResourceChange({"address": text, "change": _NO_OP}))


def _module_matches(pattern: str, text: str) -> bool:
    return Resources(module=pattern).matches(ResourceChange({"address": f"{text}.x.y", "module_address": text, "change": _NO_OP}))


PLAIN: list[Any] = [
    # (pattern, text, matches)
    pytest.param("aws_*", "aws_s3_bucket", True, id="star-tail"),
    pytest.param("aws_*", "aws_", True, id="star-empty"),
    pytest.param("*", "", True, id="star-alone-empty"),
    pytest.param("aws_*", "xaws_s3", False, id="anchored-start"),
    pytest.param("*bucket", "aws_s3_bucket_policy", False, id="anchored-end"),
    pytest.param("a?c", "abc", True, id="question-one"),
    pytest.param("a?c", "ac", False, id="question-not-zero"),
    pytest.param("a?c", "abbc", False, id="question-not-two"),
    pytest.param("a.c", "abc", False, id="dot-literal"),
    pytest.param("a[b]", "a[b]", True, id="bracket-literal"),
    pytest.param("a[b]", "ab", False, id="bracket-no-class"),
    pytest.param("a\\*", "a\\xyz", True, id="backslash-literal-star-still-glob"),
    pytest.param("a\\*", "a*", False, id="backslash-escapes-nothing"),
    pytest.param("*a*a*b", "xaxayb", True, id="stars-in-order"),
    pytest.param("*a*a*b", "xayb", False, id="stars-need-each-a"),
    pytest.param("*\n*", "x\ny", True, id="star-crosses-newline"),
    pytest.param("AWS_*", "aws_x", False, id="case-sensitive"),
    pytest.param("a*b*c", "abc", True, id="stars-empty-between"),
    pytest.param("a*b*c", "acb", False, id="stars-order"),
    pytest.param("*ab", "aab", True, id="star-then-overlap"),
    pytest.param("ab*ab", "ab", False, id="ends-overlap-not-shared"),
    pytest.param("ab*ab", "abab", True, id="ends-touching"),
]


@pytest.mark.parametrize(("pattern", "text", "expected"), PLAIN)
def test_type_globs(pattern: str, text: str, expected: bool) -> None:
    assert _type_matches(pattern, text) is expected


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        pytest.param("hashicorp/aws", "registry.terraform.io/hashicorp/aws", True, id="end"),
        pytest.param("aws", "registry.terraform.io/hashicorp/aws", True, id="last-part"),
        pytest.param("*/aws", "registry.terraform.io/hashicorp/aws", True, id="star-part"),
        pytest.param("corp/aws", "registry.terraform.io/hashicorp/aws", False, id="not-mid-part"),
        pytest.param("registry.*", "registry.terraform.io/hashicorp/aws", True, id="whole"),
        pytest.param("a?s", "registry.terraform.io/hashicorp/aws", True, id="question"),
    ],
)
def test_provider_globs(pattern: str, text: str, expected: bool) -> None:
    assert _provider_matches(pattern, text) is expected


ADDRESS: list[Any] = [
    pytest.param("null_resource.a", "null_resource.a", True, id="literal"),
    pytest.param("null_resource.a", "null_resource.a[0]", True, id="any-instance-index"),
    pytest.param("null_resource.a", 'null_resource.a["k"]', True, id="any-instance-key"),
    pytest.param("null_resource.a", "null_resource.a[0][1]", False, id="one-instance-key-only"),
    pytest.param("null_resource.a", "null_resource.ab", False, id="no-prefix-match"),
    pytest.param("null_resource.a", "null_resource.a[x]", False, id="bad-key-is-no-instance"),
    pytest.param("null_resource.a", "null_resource.a[]", False, id="empty-key"),
    pytest.param("null_resource.?", "null_resource.b", True, id="question"),
    pytest.param("null_resource.?", "null_resource.b[2]", True, id="question-then-instance"),
    pytest.param("null_resource.a.", "null_resourcexa", False, id="dot-literal"),
    pytest.param("module.net.*", "module.net.aws_vpc.main[0]", True, id="star-crosses-dots-and-keys"),
    pytest.param("*.main", "module.net.aws_vpc.main", True, id="leading-star"),
    pytest.param("*.main", 'aws_vpc.main["a"]', True, id="leading-star-instance"),
    pytest.param("aws_subnet.private[*]", "aws_subnet.private[0]", True, id="any-key-index"),
    pytest.param("aws_subnet.private[*]", 'aws_subnet.private["a"]', True, id="any-key-string"),
    pytest.param("aws_subnet.private[*]", 'aws_subnet.private["a\\"]"]', True, id="any-key-escaped-quote"),
    pytest.param("aws_subnet.private[*]", "aws_subnet.private", False, id="any-key-needs-a-key"),
    pytest.param("aws_subnet.private[*]", "aws_subnet.private[0][1]", False, id="any-key-is-one-key"),
    pytest.param("aws_subnet.private[*]", 'aws_subnet.private["a"', False, id="any-key-unclosed"),
    pytest.param("aws_subnet.private[*]", "aws_subnet.private[a]", False, id="any-key-bare-word"),
    pytest.param("x.y[3]", "x.y[3]", True, id="index-literal"),
    pytest.param("x.y[3]", "x.y[3][0]", False, id="closing-bracket-no-instance"),
    pytest.param("x.y[3]", "x.y[4]", False, id="index-other"),
    pytest.param('x.y["a.b"]', 'x.y["a.b"]', True, id="key-literal-dot"),
    pytest.param('x.y["a.b"]', 'x.y["axb"]', False, id="key-dot-not-any"),
    pytest.param('x.y["a*"]', 'x.y["abc"]', True, id="key-star"),
    pytest.param('x.y["a*"]', 'x.y["a"]', True, id="key-star-empty"),
    pytest.param('x.y["a*"]', 'x.y["a\\"b"]', True, id="key-star-over-escape"),
    pytest.param('x.y["a*"]', 'x.y["a"]["b"]', False, id="key-star-stops-at-quote"),
    pytest.param('x.y["a?"]', 'x.y["ab"]', True, id="key-question"),
    pytest.param('x.y["a?"]', 'x.y["a\\n"]', True, id="key-question-escape-pair"),
    pytest.param('x.y["a?"]', 'x.y["a"]', False, id="key-question-not-zero"),
    pytest.param('x.y["a\\"b"]', 'x.y["a\\"b"]', True, id="key-escape-literal"),
    pytest.param('x.y["a\\*"]', 'x.y["a*"]', False, id="key-escape-not-star"),
    pytest.param('x.y["a\\*"]', 'x.y["a\\*"]', True, id="key-escape-pair-literal"),
    pytest.param("*a*a*a*a*a*a*a*a*b", "x" + "a" * 80, False, id="many-stars-no-match"),
    pytest.param("*a*a*a*a*a*a*a*a*b", "a" * 80 + "b", True, id="many-stars-match"),
    pytest.param("*[*]", 'x.y["k"]', True, id="star-then-any-key"),
    pytest.param("*[*]", "x.y", False, id="star-then-any-key-needs-key"),
    pytest.param('*["*"]', 'a["b"]["c"]', True, id="star-then-quoted-star"),
]


@pytest.mark.parametrize(("pattern", "text", "expected"), ADDRESS)
def test_address_globs(pattern: str, text: str, expected: bool) -> None:
    assert _address_matches(pattern, text) is expected


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        pytest.param("module.net", "module.net", True, id="literal"),
        pytest.param("module.net", "module.net[0]", True, id="instances"),
        pytest.param("module.net", "module.net.module.sub", False, id="not-nested"),
        pytest.param("module.net.*", "module.net.module.sub", True, id="nested-star"),
        pytest.param("module.*", "module.net[\"a\"]", True, id="star"),
    ],
)
def test_module_globs(pattern: str, text: str, expected: bool) -> None:
    assert _module_matches(pattern, text) is expected


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        pytest.param("null_resource.a[", "'[' at offset 15 is never closed", id="unclosed"),
        pytest.param("null_resource.a]", "']' at offset 15 closes nothing", id="stray-close"),
        pytest.param("x[a]", "[a] at offset 1 is neither [N], [\"key\"] nor [*]", id="bare-word"),
        pytest.param('x["a\\"]', "'[' at offset 1 is never closed", id="escaped-close-quote"),
        pytest.param('x["a"b"]', "'[' at offset 1 is never closed", id="quote-reopened"),
        pytest.param('x["a"b""]', "a key holds an unescaped '\"'", id="inner-quote"),
        pytest.param('x["a\\', "'[' at offset 1 is never closed", id="lone-backslash-unclosed"),
    ],
)
def test_bad_address_patterns_are_refused(pattern: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        address_pattern(pattern, "address")
    assert str(caught.value) == f"Resources: address {pattern!r} is not a valid pattern: {message}"


# -- the property: the same verdicts as the old regular expressions ----------------------------

_ALPHABET: Final = 'ab.*?[]"\\0'
_TEXT: Final = 'ab.[]"\\0'


@settings(max_examples=600, deadline=None)
@given(pattern=st.text(_ALPHABET, max_size=9), text=st.text(_TEXT, max_size=10))
def test_address_globs_agree_with_the_old_regex(pattern: str, text: str) -> None:
    old = _old_address(pattern) if pattern else None
    try:
        new = address_pattern(pattern, "address")
    except ValueError:
        assert old is None or not pattern
        return
    assert old is not None
    assert new.matches(text) is (old.fullmatch(text) is not None), (pattern, text)


@settings(max_examples=400, deadline=None)
@given(pattern=st.text("ab.*?[\\", min_size=1, max_size=8), text=st.text("ab.[\\\n", max_size=10))
def test_plain_globs_agree_with_the_old_regex(pattern: str, text: str) -> None:
    assert _type_matches(pattern, text) is (_old_plain(pattern).fullmatch(text) is not None), (pattern, text)


@settings(max_examples=300, deadline=None)
@given(pattern=st.text('ab*?["0]', max_size=8), text=st.text('ab["0]\\', max_size=10))
def test_address_globs_agree_on_bracketed_text(pattern: str, text: str) -> None:
    test_address_globs_agree_with_the_old_regex.hypothesis.inner_test(pattern, text)  # type: ignore[attr-defined]
