"""Parametrize over files of the shared corpus, saying so when there are none.

An empty list of cases makes pytest skip with "got empty parameter set for (name)", which does not
say why: the corpus lives beside the repository (../shared/corpus) and a clone on its own has none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def corpus_cases(values: Sequence[Any], where: Path, label: Callable[[Any], str] | None = None) -> list[Any]:
    """``values`` as cases (each named by ``label``); when there are none, one skipped case that says where it looked."""
    import pytest

    if values:
        return [pytest.param(value, id=None if label is None else label(value)) for value in values]
    reason = f"no corpus files at {where} (the shared corpus is absent, or holds none of these)"
    return [pytest.param(None, id="no-corpus", marks=pytest.mark.skip(reason=reason))]
