"""Every real state of the shared corpus flattens, and every attribute checks against itself (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_cases import corpus_cases

from plancheck import load_state
from plancheck.acceptance import (
    FlatState,
    TestCheckModuleResourceAttr,
    TestCheckOutput,
    TestCheckResourceAttr,
    TestCheckResourceAttrSet,
)

CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "states"
STATE_FILES = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []


def test_corpus_is_present() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    assert len(STATE_FILES) >= 5


@pytest.mark.parametrize("path", corpus_cases(STATE_FILES, CORPUS, lambda p: p.name))
def test_every_corpus_state_flattens_and_checks(path: Path) -> None:
    state = load_state(path)
    flat = FlatState.of(state)
    checked = 0
    for module in flat.modules():
        for name in flat.names(module):
            attrs = flat.attributes(name, module)
            assert attrs is not None
            assert attrs["%"].isdigit()
            for key, value in attrs.items():
                if module:
                    TestCheckModuleResourceAttr(module, name, key, value)(state)
                else:
                    TestCheckResourceAttr(name, key, value)(state)
                checked += 1
            if attrs.get("id") and not module:
                TestCheckResourceAttrSet(name, "id")(state)
    for name, output in flat.outputs.items():
        if isinstance(output.value, str):
            TestCheckOutput(name, output.value)(state)
            checked += 1
    assert checked > 0 or not (state.resources or state.outputs)
