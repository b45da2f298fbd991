"""A long text scrubbed against many secrets and trusted texts (a warning naming thousands of addresses) takes
shortcuts; each one must give exactly the spans and the text the plain rule gives, whatever the secrets.

The plain rules are written out here as they stood before the shortcuts, and compared on random secrets
(short and long, unicode, quotes and backslashes that make JSON- and repr-escaped spellings), texts made of
their pieces, fragments and trusted names, and trusted texts that overlap them.
"""

from __future__ import annotations

from unittest.mock import patch

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from plancheck import _redact as redact
from plancheck._redact import (
    SUBSTRING_WINDOW,
    Secrets,
    _outside_markers,
    _replaced,
    _Scanner,
)
from plancheck._text import at_cut, bounded_by_spans, outside_cover, whole_token

# Few characters, so pieces of secrets, of trusted names and of the text overlap often; a quote, a backslash, an
# ampersand and a non-ASCII letter give every escaped spelling; "." and "_" make names; spaces and line ends cut.
_ALPHABET = "abct_.-\"'\\&é \n"
_SECRET = st.text(alphabet=_ALPHABET, min_size=1, max_size=20)
_NAME = st.text(alphabet="abct_.-", min_size=1, max_size=16)


def _all_occurrences(text: str, trusted: frozenset[str]) -> list[tuple[int, int]]:
    """Every occurrence of every trusted text in ``text``: what trust was asked of before the shortcut."""
    cover: list[tuple[int, int]] = []
    for form in trusted:
        at = text.find(form)
        while at >= 0:
            cover.append((at, at + len(form)))
            at = text.find(form, at + 1)
    return cover


def _plain_scrub(secrets: Secrets, text: str) -> str:
    """:meth:`Secrets.scrub` by the plain rule: every span the scanner finds, less those in a marker and the short
    ones a proper part of any occurrence of a trusted text."""
    spans = secrets._scanner.spans(text)
    if spans:
        spans = _outside_markers(text, spans)
        if spans and secrets.trusted:
            spans = outside_cover(spans, _all_occurrences(text, secrets.trusted), SUBSTRING_WINDOW)
    return _replaced(text, spans)


def _plain_hits(
    scanner: _Scanner, text: str
) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
    """What the scan meets at each position of ``text``, every short search tried everywhere (no index of first
    characters): the whole pieces found, the windows of longer pieces, and the short pieces inside a word."""
    found: list[tuple[int, int]] = []
    windows: list[tuple[int, int]] = []
    inside: list[tuple[int, int]] = []
    for i in range(len(text)):
        for n, forms in scanner.searches:
            if text[i : i + n] in forms:
                (found if whole_token(text, i, i + n) else inside).append((i, i + n))
        window = text[i : i + SUBSTRING_WINDOW]
        if window in scanner.every_window():
            # The longest whole piece standing there (the pieces of a window are sorted longest first).
            piece = next((p for p in scanner.long.get(window, ()) if text.startswith(p, i)), None)
            if piece is not None:
                found.append((i, i + len(piece)))
            windows.append((i, i + SUBSTRING_WINDOW))
    return found, windows, inside


def _plain_spans(scanner: _Scanner, text: str) -> list[tuple[int, int]]:
    """:meth:`_Scanner.spans` by the plain rule: the runs of windows standing at a cut, and the short pieces inside
    a word that what is found bounds."""
    found, windows, inside = _plain_hits(scanner, text)
    runs: list[list[int]] = []
    for s, e in windows:
        if runs and s <= runs[-1][1]:
            runs[-1][1] = max(runs[-1][1], e)
        else:
            runs.append([s, e])
    found += [(s, e) for s, e in runs if at_cut(text, s, e)]
    if inside and found:
        found += bounded_by_spans(text, inside, found)
    return sorted(found)


@st.composite
def _case(draw: st.DrawFn) -> tuple[list[str], list[str], str]:
    secrets = draw(st.lists(_SECRET, min_size=1, max_size=8))
    trusted = draw(st.lists(_NAME, max_size=6))
    # Trusted names that hold a secret, as "terraform_data.tags" holds the secret "tags".
    trusted += [draw(_NAME) + s + draw(_NAME) for s in draw(st.lists(st.sampled_from(secrets), max_size=3))]
    parts = st.one_of(
        st.sampled_from(secrets),
        st.sampled_from(secrets).flatmap(lambda s: st.integers(0, len(s)).map(lambda i: s[i:])),
        st.sampled_from(secrets).map(lambda s: s.encode("unicode_escape").decode("ascii")),
        st.sampled_from(trusted) if trusted else st.just("t.x"),
        st.text(alphabet=_ALPHABET, max_size=6),
        st.just("(sensitive)"),
    )
    text = "".join(draw(st.lists(parts, min_size=1, max_size=30)))
    return secrets, trusted, text


@settings(max_examples=400, deadline=None)
@given(case=_case())
def test_a_scrub_trusting_names_is_the_plain_rule(case: tuple[list[str], list[str], str]) -> None:
    values, trusted, text = case
    secrets = Secrets(values).trusting(trusted)
    assert secrets.scrub(text) == _plain_scrub(secrets, text)


@settings(max_examples=400, deadline=None)
@given(case=_case())
def test_the_scanner_finds_what_the_plain_scan_finds(case: tuple[list[str], list[str], str]) -> None:
    """The scan looks short pieces up by their first characters only: the same spans as trying every one everywhere."""
    values, _, text = case
    scanner = Secrets(values)._scanner
    plain = _plain_spans(scanner, text)
    assert scanner.spans(text) == plain
    first = scanner.spans(text, first_only=True)
    assert first[0] in plain if first else not plain


@settings(max_examples=400, deadline=None)
@given(case=_case())
@example(case=(["abcdefghijkl"], [], '"bcdefghi" "cdefghij"'))  # windows that only every third gram reaches
@example(case=(["abcdefghi", "abcdefghij"], [], "'bcdefghi'"))
def test_a_first_long_text_finds_with_its_own_windows_what_the_plain_scan_finds(
    case: tuple[list[str], list[str], str],
) -> None:
    """The first long text scanned looks up only the windows of the pieces it shares a gram with: the same spans
    as the plain scan with every window indexed, the first time and the second (the same text again)."""
    values, _, text = case
    # As for a large plan: no window indexed at once, and every text long enough to look up only its own.
    with patch.object(redact, "_INDEXED_NOW", 0), patch.object(redact, "_LONG_TEXT", 0):
        scanner = redact._Scanner(Secrets(values)._values)  # built here, patched (no secret kept: the shared one is not)
        first, again = scanner.spans(text), scanner.spans(text, first_only=True)
        assert scanner._windows is None
    plain = _plain_spans(scanner, text)
    assert first == plain
    assert again[0] in plain if again else not plain


def test_only_the_first_long_text_is_scanned_without_every_window_indexed() -> None:
    with patch.object(redact, "_INDEXED_NOW", 0):  # as for a large plan's secrets
        scanner = Secrets(["hunter2-planted-key", "tags"])._scanner
    long_text = "tags: hunter2-planted-k... " + "x" * redact._LONG_TEXT
    assert scanner.spans(long_text) == [(0, 4), (6, 23)]
    assert scanner._windows is None  # its own windows, kept for this text
    assert scanner.spans(long_text, first_only=True) == [(0, 4)]
    assert scanner.spans("id") == []  # shorter than a window: none needed
    assert scanner._windows is None
    # Another text: every window indexed, once.
    assert scanner.spans("pw=hunter2-planted-key") == [(3, 22), (3, 22)]
    assert scanner._windows is not None
    assert scanner.spans(long_text) == [(0, 4), (6, 23)]


def test_a_few_secrets_have_their_windows_indexed_at_once() -> None:
    assert Secrets(["hunter2-planted-key"])._scanner._windows == {
        "hunter2-", "unter2-p", "nter2-pl", "ter2-pla", "er2-plan", "r2-plant", "2-plante", "-planted",
        "planted-", "lanted-k", "anted-ke", "nted-key",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("values", "trusted", "text"),
    [
        pytest.param(["tags"], ["terraform_data.tags"], "terraform_data.tags: tags", id="name-holds-a-short-secret"),
        pytest.param(["tags"], ["t.tags", "tags_x"], "t.tags tags_x tags t.tagsx", id="two-names-hold-it"),
        pytest.param(["web"], ["aws_instance.web"], 'aws_instance.web["web"], aws_instance.web', id="key-and-name"),
        pytest.param(["tags"], ["tags"], "tags", id="the-whole-occurrence"),
        pytest.param(["aaa"], ["aaaa"], "aaaaaa aaa", id="overlapping-occurrences"),
        pytest.param(["tag"], ["tag_x.tag"], "tag_x.tag: tag", id="a-name-holds-it-twice"),
    ],
)
def test_a_scrub_trusting_names_keeps_what_the_plain_rule_keeps(values: list[str], trusted: list[str], text: str) -> None:
    secrets = Secrets(values).trusting(trusted)
    assert secrets.scrub(text) == _plain_scrub(secrets, text)


@pytest.mark.parametrize(
    "message",
    [
        pytest.param("1 of 2 unknown until apply: a.b (id), hunter2-key", id="shows-a-secret"),
        pytest.param("1 of 2 unknown until apply: a.b (id)", id="shows-none"),
    ],
)
def test_a_failure_is_scrubbed_with_the_collector_off_and_it_is_on_again_after(
    monkeypatch: pytest.MonkeyPatch, message: str
) -> None:
    # Building a large plan's scanner and scrubbing a long text make many objects and no cycle: a full
    # collection they made due visited the whole parsed plan for nothing (2.6 s of bench_select's warning).
    import gc

    from plancheck._checking.messages import scrubbed_failure
    from plancheck._redact import _Scanner

    seen: list[bool] = []
    real = _Scanner.spans

    def spy(self: _Scanner, text: str, first_only: bool = False) -> list[tuple[int, int]]:
        seen.append(gc.isenabled())
        return real(self, text, first_only)

    monkeypatch.setattr(_Scanner, "spans", spy)
    enabled = gc.isenabled()
    gc.enable()
    try:
        failure = scrubbed_failure(Secrets(["hunter2-key"]), "ExpectX", "a.b", None, message)
        assert gc.isenabled()
    finally:
        gc.enable() if enabled else gc.disable()
    assert seen
    assert not any(seen)  # every scan ran with the collector off
    assert "hunter2" not in str(failure)
