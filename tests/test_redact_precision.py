"""Redaction is precise the other way too: a short secret is scrubbed where it stands as a value or a whole
token, never inside another word; text that shows no secret is left as it is."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from plancheck._redact import MIN_SECRET_LENGTH, SENSITIVE, SUBSTRING_WINDOW, Secrets
from plancheck._text import whole_token


@pytest.mark.parametrize(
    ("secrets", "text", "shown"),
    [
        pytest.param(["tags"], "terraform_data.tags_null", "terraform_data.tags_null", id="inside-an-identifier"),
        pytest.param(["env"], "environment = staging", "environment = staging", id="prefix-of-a-word"),
        pytest.param(["prod"], "reproduce", "reproduce", id="inside-a-word"),
        pytest.param(["prod"], 'env = "prod"', 'env = "(sensitive)"', id="quoted-value"),
        pytest.param(["prod"], "stage prod now", "stage (sensitive) now", id="between-spaces"),
        pytest.param(["prod"], "a=prod,b", "a=(sensitive),b", id="between-punctuation"),
        pytest.param(["prod"], "prod", SENSITIVE, id="the-whole-text"),
        pytest.param(["prod"], "prod-db", "(sensitive)-db", id="joined-by-a-dash"),
        pytest.param(["env"], "tags.env", "tags.(sensitive)", id="flatmap-step"),
        pytest.param(["abc"], "'x\\nabc'", "'x\\n(sensitive)'", id="after-an-escape"),
        pytest.param(["abc", "hunter2-long-secret"], "hunter2-long-secretabc", "(sensitive)",
                     id="bounded-by-a-scrubbed-span"),
        pytest.param(["abc", "hunter2-long-secret"], "xhunter2-long-secretabcd", "x(sensitive)abcd",
                     id="still-inside-a-word-after-the-scrub"),
        pytest.param(["horse", "correct horse battery staple"], "horsepower horse", "horsepower (sensitive)",
                     id="a-word-of-a-passphrase"),
        pytest.param(["1234"], "port 1234, pid 12345", "port (sensitive), pid 12345", id="number-token"),
    ],
)
def test_a_short_secret_is_scrubbed_only_as_a_whole_token(secrets: list[str], text: str, shown: str) -> None:
    assert Secrets(secrets).scrub(text) == shown
    assert Secrets(secrets).touches(text) is (shown != text)


_ALPHABET = "abcdefgh_0123-. ,=\"'[]:\n"
_short = st.text(alphabet="abcdefgh_0123-.", min_size=MIN_SECRET_LENGTH, max_size=SUBSTRING_WINDOW - 1)


def _whole_token_occurrences(text: str, secret: str) -> list[int]:
    found = []
    start = text.find(secret)
    while start >= 0:
        if whole_token(text, start, start + len(secret)):
            found.append(start)
        start = text.find(secret, start + 1)
    return found


@settings(max_examples=400, deadline=None)
@given(secrets=st.lists(_short, min_size=1, max_size=3), parts=st.lists(st.text(alphabet=_ALPHABET, max_size=12), max_size=6),
       data=st.data())
def test_property_no_whole_token_occurrence_survives(secrets: list[str], parts: list[str], data: st.DataObject) -> None:
    assume(not any(s in SENSITIVE for s in secrets))
    # Plant the secrets between random text, so that some stand alone and some inside words.
    pieces = [p for part in parts for p in (part, data.draw(st.sampled_from(secrets)))]
    text = "".join(pieces)
    shown = Secrets(secrets).scrub(text)
    for secret in secrets:
        assert not _whole_token_occurrences(shown, secret), (text, shown)


@settings(max_examples=400, deadline=None)
@given(secrets=st.lists(_short, min_size=1, max_size=3), text=st.text(alphabet=_ALPHABET, max_size=60))
def test_property_text_without_a_whole_token_secret_is_unchanged(secrets: list[str], text: str) -> None:
    assume(not any(_whole_token_occurrences(text, s) for s in secrets))
    assert Secrets(secrets).scrub(text) == text
    assert not Secrets(secrets).touches(text)


_SPAN = st.tuples(st.integers(0, 40), st.integers(0, 16)).map(lambda p: (p[0], p[0] + p[1]))


@settings(max_examples=500, deadline=None)
@given(spans=st.lists(_SPAN, max_size=8).map(sorted), cover=st.lists(_SPAN, min_size=1, max_size=8))
def test_trust_spares_a_short_span_exactly_when_an_occurrence_holds_it_properly(
    spans: list[tuple[int, int]], cover: list[tuple[int, int]]
) -> None:
    # The spans a trusted text spares are looked up by bisection (each span asked of every occurrence made a
    # message naming thousands of addresses quadratic); they must be those the rule itself names.
    from plancheck._text import outside_cover

    rule = [
        (s, e) for s, e in spans
        if e - s >= SUBSTRING_WINDOW or not any(a <= s and e <= b and e - s < b - a for a, b in cover)
    ]
    assert outside_cover(spans, list(cover), SUBSTRING_WINDOW) == rule


_TEXT = st.text(alphabet="ab_ (\\)n", min_size=1, max_size=30)


@settings(max_examples=500, deadline=None)
@given(text=_TEXT, data=st.data())
def test_a_short_secret_bounded_by_scrubbed_spans_is_the_rule_along_a_chain(text: str, data: st.DataObject) -> None:
    # Which short secrets inside a word stand alone once their neighbours are scrubbed is answered from the set of
    # scrubbed characters (asking every scrubbed span for every one made a long message quadratic); it must be the
    # chain the rule names: bounded on each side by a token edge or by a span already scrubbed.
    from plancheck._text import _left_bounded, _right_bounded
    from plancheck._text import bounded_by_spans as _bounded_by_spans

    span = st.integers(0, len(text) - 1).flatmap(lambda a: st.tuples(st.just(a), st.integers(a + 1, min(len(text), a + 6))))
    inside, found = sorted(data.draw(st.lists(span, max_size=6))), sorted(data.draw(st.lists(span, min_size=1, max_size=4)))
    accepted, rule, pending = list(found), [], list(inside)
    while pending:
        ready = [
            (s, e) for s, e in pending
            if (_left_bounded(text, s) or any(a < s <= b for a, b in accepted))
            and (_right_bounded(text, e) or any(a <= e < b for a, b in accepted))
        ]
        if not ready:
            break
        first = ready[0]  # one at a time, in order: each scrubbed span bounds the next
        accepted.append(first)
        rule.append(first)
        pending.remove(first)
    assert sorted(_bounded_by_spans(text, inside, found)) == sorted(rule)
