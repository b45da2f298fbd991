"""The tree is the architecture: layers only import downward, and no module imports itself back.

Every ``import``/``from ... import`` of every module of ``tfjsonpath`` and ``plancheck`` is read from
the source (function-level imports too: an import moved into a function to dodge a cycle is still a
cycle), resolved to the module it names, and checked against the layer order below.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Lowest first. A module may import from its own layer and from every layer before it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("paths", ("tfjsonpath",)),
    ("base", ("plancheck._errors", "plancheck._frozen", "plancheck._text")),
    ("redaction", ("plancheck._redact",)),
    ("loading", ("plancheck._loading",)),
    ("documents", ("plancheck._documents",)),
    # Terraform outside the process: the binary (_terraform/__init__) and the providers it plugs in, served
    # here (providers/: gRPC server, reattach, protocol pieces; mock/: mock providers), below every user.
    ("terraform", ("plancheck._terraform",)),
    ("matchers", ("plancheck.knownvalue", "plancheck.compare", "plancheck.tfversion")),
    ("checking", ("plancheck._checking",)),
    ("checks", ("plancheck._checks", "plancheck.statecheck", "plancheck.querycheck", "plancheck.tfconfig",
                "plancheck.snapshot")),
    ("public face", ("plancheck.__init__",)),
    ("acceptance", ("plancheck.acceptance",)),
    ("front ends", ("plancheck.cli", "plancheck._plugin", "plancheck.plugin", "plancheck.__main__")),
]


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in ("tfjsonpath", "plancheck"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__" and len(parts) > 1 and parts[:-1] != ["plancheck"]:
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _layer(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), i
    if rank < 0:
        raise AssertionError(f"{module} is in no layer of tests/test_architecture.py")
    return rank


def _package_of(module: str, path: Path) -> str:
    if path.name == "__init__.py":
        return module.removesuffix(".__init__")
    return module.rsplit(".", 1)[0]


def _target(name: str) -> str | None:
    """The module ``name`` denotes: itself if it is one, else its package (``from pkg import obj``)."""
    if name == "plancheck":
        return "plancheck.__init__"
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, except those under ``if TYPE_CHECKING:`` (annotations only: they never run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports(module: str) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of ``module`` that names a module of this project."""
    path = MODULES[module]
    package = _package_of(module, path)
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _target(alias.name)
                if target is not None:
                    yield node.lineno, target
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            for alias in node.names:
                target = _target(f"{stem}.{alias.name}") if f"{stem}.{alias.name}" in MODULES else _target(stem)
                if target is not None and target != module:
                    yield node.lineno, target


GRAPH = {module: sorted({target for _, target in imports(module)}) for module in MODULES}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module: str) -> None:
    here = _layer(module)
    upward = [
        f"line {line}: {target} ({LAYERS[_layer(target)][0]})"
        for line, target in imports(module)
        if _layer(target) > here
    ]
    assert upward == [], f"{module} ({LAYERS[here][0]}) imports from a higher layer: {upward}"


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(GRAPH):
        if root in index:
            continue
        work = [(root, iter(GRAPH[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        item = stack.pop()
                        on_stack.discard(item)
                        component.append(item)
                        if item == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(GRAPH.get(child, ()))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(found)


def test_no_import_cycles() -> None:
    assert _cycles() == []


def test_every_module_has_a_layer() -> None:
    assert sorted(m for m in MODULES if _layer(m) < 0) == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        pytest.param({"a": ["b"], "b": ["a"], "c": ["a"]}, [["a", "b"]], id="two-module-cycle"),
        pytest.param({"a": ["b"], "b": ["c"], "c": []}, [], id="chain"),
        pytest.param({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["d"]}, [["a", "b", "c"]], id="three-and-self"),
    ],
)
def test_the_cycle_finder_finds_cycles(
    monkeypatch: pytest.MonkeyPatch, graph: dict[str, list[str]], expected: list[list[str]]
) -> None:
    monkeypatch.setattr(f"{__name__}.GRAPH", graph)
    assert _cycles() == expected


# -- what a session pays for ----------------------------------------------------------------------

#: A session that uses no fixture or option of the plugin imports none of these (#26: the plugin must
#: not tax every pytest session of a project that merely has the package installed).
NOT_IN_A_PLAIN_SESSION = ("plancheck.acceptance", "plancheck.cli", "plancheck.tfconfig", "plancheck._loading",
                          "plancheck._documents", "plancheck._checks", "plancheck.knownvalue", "plancheck.snapshot")


def test_a_plain_pytest_session_imports_no_heavy_module(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_a():\n    assert 1\n")
    pytester.makeconftest(
        "import json, sys\n\n\n"
        "def pytest_sessionfinish(session):\n"
        "    names = sorted(m for m in sys.modules if m.startswith('plancheck'))\n"
        "    open('modules.json', 'w').write(json.dumps(names))\n"
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    import json

    names = json.loads((pytester.path / "modules.json").read_text())
    assert "plancheck.plugin" in names  # the plugin did load
    heavy = [n for n in names if n.startswith(NOT_IN_A_PLAIN_SESSION)]
    assert heavy == []
    assert len(names) <= 15, names
