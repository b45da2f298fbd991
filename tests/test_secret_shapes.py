"""The leak detector every leak suite relies on recognises each planted secret in the renderings a tool makes."""

from __future__ import annotations

import json

import pytest
from secret_shapes import ALL_SECRETS, leaks


@pytest.mark.parametrize("name", sorted(ALL_SECRETS))
@pytest.mark.parametrize(
    "render",
    [
        pytest.param(lambda s: f"E   assert {s!r} == 'x'", id="repr"),
        pytest.param(lambda s: json.dumps({"v": s}), id="json"),
        pytest.param(lambda s: f"+ {s.splitlines()[-1]}", id="last-line"),
        pytest.param(lambda s: f"'{s[:12]}...'", id="truncated-head"),
        pytest.param(lambda s: f"...{s[-9:]}'", id="truncated-tail"),
    ],
)
def test_the_leak_detector_sees_each_secret(name: str, render: object) -> None:
    secret = ALL_SECRETS[name]
    assert callable(render)
    assert leaks(render(secret)) == [name]


def test_the_leak_detector_passes_clean_text() -> None:
    assert leaks("E   assert '(sensitive)' == 'x'\n+ (sensitive)\ntriggers[\"secret\"]") == []
