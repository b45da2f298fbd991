"""What the docs say of the tree exists: the design page and the README cannot go stale again (#34).

The tree was restructured in one day (#34) and the pages that describe it were edited piecemeal; these
tests read every module and folder path that the README and every docs page name in code spans, and
every dotted ``plancheck.``/``tfjsonpath.`` name, and fail on one that no longer exists. The design
page's list of layers is the one in ``tests/test_architecture.py`` (``LAYERS``), in its order, each
item naming the folders and modules of its layer.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
from test_architecture import LAYERS

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "explanation" / "design.md"
README = ROOT / "README.md"

#: The folders of the repository a full path starts with; ``plancheck/x.py`` is read from the checkout's root.
TOP = ("plancheck", "tfjsonpath", "tools", "tests", "benchmarks", "examples", "docs")

#: Paths a page names that are not (or no longer) this tree's, on purpose: each says why.
NOT_OURS = {
    "_pytest/runner.py": "pytest's module, the model of a private package's module names",
    "_x.py": "the pattern a private package's modules no longer follow",
    "_x/": "the private package of that pattern",
    "internal.py": "the facade that is gone, named as gone",
    "site/": "what `make docs` builds",
    "dist/": "what `make dist` builds",
}

#: Beside the checkout, not in it: the shared data corpus and benchmark inputs.
BESIDE = ("../shared/", "shared/")

#: Dotted names of Go's packages that a porting page maps to ours (Go's ``plancheck`` is not this one).
GO_NAMES = {
    "plancheck.ResourceActionReplace", "plancheck.DeferredReasonAbsentPrereq", "plancheck.ResourceActionNoop",
    # Go names the differences page lists as not here
    "plancheck.CheckPlanRequest", "plancheck.ResourceActionType",
}

_CODE = re.compile(r"`([^`\s]+)`")
_PATH = re.compile(r"[\w.-]*\w[\w.-]*(?:/[\w.-]*)*")
_DOTTED = re.compile(r"`((?:plancheck|tfjsonpath)(?:\.\w+)+)`")


def _files() -> set[str]:
    """Every file and folder of the checkout's own parts, as ``a/b.py`` and ``a/``."""
    found = {f"{top}/" for top in TOP}
    for top in TOP:
        for path in (ROOT / top).rglob("*"):
            if "__pycache__" in path.parts:
                continue
            found.add(path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else ""))
    return found


FILES = _files()


def named_paths(text: str) -> list[str]:
    """The paths a page names in code spans: ``x.py`` modules and ``x/`` folders, with or without their folder.

    >>> named_paths("`plancheck/_loading/` reads (`source.py`), `--tf-plan`, `a.b`, `hashicorp/null` and `tools/`")
    ['plancheck/_loading/', 'source.py', 'tools/']
    """
    return [
        span
        for span in _CODE.findall(text)
        if _PATH.fullmatch(span) and (span.endswith((".py", "/")) or ("/" in span and span.split("/")[0] in TOP))
    ]


def stale_paths(text: str) -> list[str]:
    """The paths of :func:`named_paths` that name nothing in the tree.

    A full path (from a top folder) must exist as written; a shorter one (``_checking/run.py``,
    ``run.py``, ``providers/``) must be the end of an existing path of the tree.
    """
    stale = []
    for path in named_paths(text):
        if path in NOT_OURS or path.startswith(BESIDE):
            continue
        if path.split("/")[0] in TOP:
            exists = path in FILES or path + "/" in FILES  # a folder named without its slash
        else:
            exists = any(name == path or name.endswith("/" + path) for name in FILES)
        if not exists:
            stale.append(path)
    return stale


def stale_names(text: str) -> list[str]:
    """The dotted ``plancheck.``/``tfjsonpath.`` names of a page that import or resolve to nothing."""
    stale = []
    for name in _DOTTED.findall(text):
        if name in GO_NAMES:
            continue
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attribute in parts[cut:]:
                found = getattr(found, attribute, None)
            break
        else:
            found = None
        if found is None:
            stale.append(name)
    return stale


def layer_items(text: str) -> list[tuple[str, str]]:
    """(name, text) of each item of the design page's numbered list of layers, in its order."""
    items = re.findall(r"^\d+\. \*\*([^*]+)\*\*:(.*?)(?=^\d+\. |^\s*$)", text, re.M | re.S)
    return [(name, " ".join(body.split())) for name, body in items]


def _layer_path(module: str) -> str:
    """``plancheck._checking`` as the page names it: ``plancheck/_checking/`` (a folder) or ``....py``."""
    path = module.replace(".", "/")
    return f"{path}/" if (ROOT / path).is_dir() else f"{path}.py"


PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_path_and_dotted_name_a_page_names_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert (stale_paths(text), stale_names(text)) == ([], [])


def layer_faults(text: str) -> list[str]:
    """How the page's list of layers departs from ``LAYERS``: a name out of place, a folder or module not named."""
    items = layer_items(text)
    names = [name for name, _ in items]
    if names != [name for name, _ in LAYERS]:
        return [f"layers {names}, not {[name for name, _ in LAYERS]}"]
    return [
        f"{name}: {_layer_path(module)}"
        for (name, body), (_, modules) in zip(items, LAYERS, strict=True)
        for module in modules
        if f"`{_layer_path(module)}`" not in body
    ]


def test_the_design_page_lists_the_layers_of_test_architecture() -> None:
    assert layer_faults(DESIGN.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("text", "stale"),
    [
        pytest.param("`plancheck/_checking/run.py`, `plancheck/_loading/`", [], id="full-paths"),
        pytest.param("`_checking/run.py`, `run.py`, `providers/`, `knownvalue/_scalars.py`", [], id="short-paths"),
        pytest.param("`_pytest/runner.py`, `internal.py`", [], id="named-on-purpose"),
        pytest.param("`plancheck/_planchecks/_changes.py`", ["plancheck/_planchecks/_changes.py"], id="old-private-module"),
        pytest.param("`plancheck/_checking/internal.py`", ["plancheck/_checking/internal.py"], id="gone-facade"),
        pytest.param("`plancheck/_loading/source/`", ["plancheck/_loading/source/"], id="module-as-folder"),
        pytest.param("`plancheck/_loading.py`", ["plancheck/_loading.py"], id="folder-as-module"),
        pytest.param("`_terraform/mock/_schema.py`", ["_terraform/mock/_schema.py"], id="short-old-name"),
        pytest.param("`tests/docs/chromium_cdp.py`", ["tests/docs/chromium_cdp.py"], id="removed-test-helper"),
    ],
)
def test_a_stale_path_is_found(text: str, stale: list[str]) -> None:
    assert stale_paths(text) == stale


@pytest.mark.parametrize(
    ("text", "stale"),
    [
        pytest.param("`plancheck.knownvalue`, `tfjsonpath.Path`, `plancheck.acceptance.Terminated`", [], id="live"),
        pytest.param("`plancheck.check_plan`", ["plancheck.check_plan"], id="removed-alias"),
        pytest.param("`tfjsonpath.Path.at_map_key`", ["tfjsonpath.Path.at_map_key"], id="removed-method"),
        pytest.param("`plancheck._planchecks.internal`", ["plancheck._planchecks.internal"], id="removed-module"),
    ],
)
def test_a_stale_dotted_name_is_found(text: str, stale: list[str]) -> None:
    assert stale_names(text) == stale


@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        pytest.param("1. **paths**", "1. **the paths**", "layers ['the paths', 'base',", id="renamed"),
        pytest.param("2. **base**", "2. **redaction**", "layers ['paths', 'redaction', 'redaction',", id="out-of-order"),
        pytest.param("`plancheck/_redact.py`:", "the redaction module:", "redaction: plancheck/_redact.py",
                     id="folder-not-named"),
        pytest.param("`plancheck/_checking/equality.py`", "`equality.py`", "engine: plancheck/_checking/equality.py",
                     id="module-named-short"),
    ],
)
def test_a_layer_out_of_order_or_without_its_folder_is_found(old: str, new: str, fault: str) -> None:
    text = DESIGN.read_text(encoding="utf-8")
    assert old in text
    assert [f for f in layer_faults(text.replace(old, new, 1)) if f.startswith(fault)] != []
