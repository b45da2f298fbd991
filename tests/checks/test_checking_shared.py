"""What plan, state and config checks share lives in plancheck._checking, once (#13, item 2).

The helpers' behaviour is pinned in tables; the "once" is pinned by reading the sources:
the check families do not reach into each other's private modules and do not carry
their own copies of quoting, closest-name suggestions or failure building.
"""

from __future__ import annotations

import ast
import difflib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._checking import matcher as knownvalue_base
from plancheck._checking import messages
from plancheck._checking.fields import checked_address, checked_deposed, checked_path, require_document
from plancheck._errors import CheckFailure
from plancheck._redact import Secrets
from tfjsonpath import New
from tfjsonpath import Path as JsonPath

ROOT = Path(__file__).resolve().parents[2] / "plancheck"
# The check families and what they share: (package or module, files).
FAMILIES = {
    "_planchecks": sorted((ROOT / "_planchecks").glob("*.py")),
    "statecheck": sorted((ROOT / "statecheck").glob("*.py")),
    "tfconfig": [ROOT / "tfconfig" / "_checks.py", ROOT / "tfconfig" / "_base.py"],
}
SHARED = sorted((ROOT / "_checking").glob("*.py"))


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module named, at top level?) for every import of a file; relative names resolved under plancheck."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["plancheck", *path.relative_to(ROOT).parent.parts]
    top = {id(n) for n in tree.body}
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            found.append((".".join([*base, *([node.module] if node.module else [])]), id(node) in top))
        elif isinstance(node, ast.Import):
            found.extend((a.name, id(node) in top) for a in node.names)
    return found


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize(
    "path", [p for p in FAMILIES["statecheck"] + FAMILIES["tfconfig"]], ids=_id
)
def test_state_and_config_checks_do_not_reach_into_plan_checks(path: Path) -> None:
    assert [m for m, _ in _imports(path) if m.startswith("plancheck._planchecks")] == []


@pytest.mark.parametrize("path", SHARED, ids=_id)
def test_what_is_shared_depends_on_no_check_family(path: Path) -> None:
    families = ("plancheck._planchecks", "plancheck.statecheck", "plancheck.tfconfig")
    assert [m for m, _ in _imports(path) if m.startswith(families)] == []


@pytest.mark.parametrize("path", [p for files in FAMILIES.values() for p in files] + SHARED, ids=_id)
def test_no_function_local_imports_of_plancheck(path: Path) -> None:
    # An import moved into a function to dodge a cycle is still a cycle.
    assert [m for m, top in _imports(path) if not top and m.startswith("plancheck")] == []


@pytest.mark.parametrize("path", [p for files in FAMILIES.values() for p in files] + SHARED, ids=_id)
def test_one_closest_and_one_quote(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert not defined & {"quote", "quoted", "_quoted", "_closest_text"}
    assert not any(m == "difflib" for m, _ in _imports(path))


def test_one_module_suggests_closest_names() -> None:
    users = sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if "import difflib" in p.read_text(encoding="utf-8"))
    assert users == ["_text.py"]


def test_quote_is_the_matchers_quote() -> None:
    assert messages.quote is knownvalue_base.quote


QUOTES = [
    ("plain", "abc", '"abc"'),
    ("escaped", 'say "hi"\\', '"say \\"hi\\"\\\\"'),
    ("non-ascii-kept", "ключ", '"ключ"'),
    ("control", "a\nb", '"a\\nb"'),
]


@pytest.mark.parametrize(("text", "expected"), [q[1:] for q in QUOTES], ids=[q[0] for q in QUOTES])
def test_quote(text: str, expected: str) -> None:
    assert messages.quote(text) == expected


CLOSEST = [
    ("one-off", "null_resource.b", ["null_resource.a", "aws_instance.x"], 3, ["null_resource.a"]),
    ("none-alike", "zzz", ["null_resource.a"], 3, []),
    ("best-first", "regoin", ["regions", "region", "zone"], 3, ["region", "regions"]),
    ("at-most-n-ties-as-difflib-orders-them", "abc", ["abd", "abe", "abf", "abg"], 2, ["abg", "abf"]),
    ("no-candidates", "a", [], 3, []),
    (
        "shortlist-keeps-the-likely-one",
        "module.m.null_resource.x",
        [f"aws_thing.n{i}" for i in range(1000)] + ["module.m.null_resource.y"],
        3,
        ["module.m.null_resource.y"],
    ),
]


@pytest.mark.parametrize(
    ("target", "candidates", "n", "expected"), [c[1:] for c in CLOSEST], ids=[c[0] for c in CLOSEST]
)
def test_closest(target: str, candidates: list[str], n: int, expected: list[str]) -> None:
    assert messages.closest(target, candidates, n=n) == expected


@settings(max_examples=60, deadline=None)
@given(st.text("abc.", max_size=8), st.lists(st.text("abc.", max_size=8), max_size=40), st.integers(1, 4))
def test_closest_is_difflib_below_the_shortlist(target: str, candidates: list[str], n: int) -> None:
    found = messages.closest(target, candidates, n=n)
    assert found == difflib.get_close_matches(target, candidates, n=n, cutoff=0.6)
    assert len(found) <= n
    assert set(found) <= set(candidates)


CLOSEST_TEXT = [
    ("some", ["a.b", "a.c"], "address", "plan", "; closest: a.b, a.c"),
    ("none-plan", [], "address", "plan", "; the plan has no similar address"),
    ("none-state", [], "output name", "state", "; the state has no similar output name"),
]


@pytest.mark.parametrize(
    ("found", "what", "where", "expected"), [c[1:] for c in CLOSEST_TEXT], ids=[c[0] for c in CLOSEST_TEXT]
)
def test_closest_text(found: list[str], what: str, where: str, expected: str) -> None:
    assert messages.closest_text(found, what, where) == expected


FAILURES = [
    ("address-and-message", 'a.b["pw-1"]', "got pw-1", 'a.b["(sensitive)"]', "got (sensitive)"),
    ("no-address", None, "pw-1 and pw-2", None, "(sensitive) and (sensitive)"),
    ("nothing-secret", "a.b", "fine", "a.b", "fine"),
]


@pytest.mark.parametrize(
    ("address", "message", "shown_address", "shown_message"),
    [f[1:] for f in FAILURES],
    ids=[f[0] for f in FAILURES],
)
def test_scrubbed_failure(address: str | None, message: str, shown_address: str | None, shown_message: str) -> None:
    path = New("x")
    got = messages.scrubbed_failure(Secrets(["pw-1", "pw-2"]), "ExpectX", address, path, message)
    assert got == CheckFailure("ExpectX", shown_address, path, shown_message)


TEXTS = [
    ("actions", messages.actions_text(["delete", "create"]), "[delete create]"),
    ("no-actions", messages.actions_text([]), "[]"),
    ("deposed", messages.deposed_prefix('k"1'), 'deposed object "k\\"1": '),
    ("not-deposed", messages.deposed_prefix(None), ""),
    ("output", messages.output_address("ip"), "output.ip"),
    ("located-key", messages.located("t.one", New("list").AtSliceIndex(0)), "t.one.list[0]"),
    ("located-index-first", messages.located("t.one", New(0).AtMapKey("k")), 't.one[0]["k"]'),
    ("located-root", messages.located("t.one", JsonPath()), "t.one"),
]


@pytest.mark.parametrize(("got", "expected"), [t[1:] for t in TEXTS], ids=[t[0] for t in TEXTS])
def test_message_pieces(got: str, expected: str) -> None:
    assert got == expected


ARGUMENT_ERRORS = [
    ("address-not-str", lambda: checked_address(1, "ExpectX"), TypeError, "ExpectX: address must be a str, got int"),
    ("name-empty", lambda: checked_address("", "ExpectX", "name"), ValueError, "ExpectX: name must not be empty"),
    ("deposed-empty", lambda: checked_deposed("", "ExpectX"), ValueError, "ExpectX: deposed must not be empty"),
    (
        "path-as-text",
        lambda: checked_path("a.b", "ExpectX"),
        TypeError,
        "ExpectX: path must be a tfjsonpath.Path, got str (to use text, parse it: tfjsonpath.Path.parse('a.b'))",
    ),
    ("path-other", lambda: checked_path(3, "ExpectX"), TypeError, "ExpectX: path must be a tfjsonpath.Path, got int"),
    (
        "document",
        lambda: require_document([], dict, "assert_x", "a dict (use dict())"),
        TypeError,
        "assert_x expects a dict (use dict()), got list",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "message"), [a[1:] for a in ARGUMENT_ERRORS], ids=[a[0] for a in ARGUMENT_ERRORS]
)
def test_argument_errors(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call()  # type: ignore[operator]
    assert str(info.value) == message


class _Text(str):
    pass


def test_checked_address_gives_an_exact_str() -> None:
    got = checked_address(_Text("a.b"), "ExpectX")
    assert type(got) is str
    assert got == "a.b"
