"""The tree is the architecture (#34's house): layers only import downward, no module imports itself back,
and no module reaches into another package's private parts.

Every ``import``/``from ... import`` of every module of ``tfjsonpath``, ``plancheck`` and ``tools`` is
read from the source (function-level imports too: an import moved into a function to dodge a cycle is
still a cycle; and those under ``if TYPE_CHECKING:``: an annotation that needs the module back is a
cycle as well), resolved to the module it names, and checked against ``LAYERS`` below, lowest first:
paths (``tfjsonpath``), base, redaction, loading, documents, terraform, the matcher engine, matchers,
checking, checks, the public face (``plancheck/__init__``), acceptance, front ends, tools. Every module
is in a layer; docs/explanation/design.md lists the same layers in the same order, each with its
folders (tests/docs/test_docs_tree.py holds the page to it).

Privacy: a module or name whose own name starts with one underscore belongs to the package that holds
it. Modules of that package (and of its subpackages) may import it; no other module may. So
``plancheck._checking`` may be used anywhere in ``plancheck`` (it is ``plancheck``'s), but
``plancheck.knownvalue._scalars`` only inside ``plancheck.knownvalue``. A package shares with the rest
of the project only what it exports from its ``__init__`` (its public API, e.g. ``knownvalue.Check``);
machinery that several packages use lives in the layer below all of them, where the rule lets every
user reach it (``plancheck._checking.matcher``, the engine under the matchers and the checks). There
is no ``internal.py`` facade (``test_no_internal_facades``). The one exception is the foundation:
``tfjsonpath``, the lowest layer, shares its private modules with ``plancheck``, which ships with it and
is built on it (its JSON kinds, path text and error plumbing), as pytest's ``_pytest`` modules share
theirs; nothing else may reach into ``tfjsonpath``'s. ``tools/`` (maintenance scripts, not shipped) is
white-box like ``tests/`` and exempt from this rule, not from the others.

Also here: ``plancheck/`` has at most ``MAX_ROOMS`` top-level rooms; a plain pytest session imports no
heavy module of the plugin's; the one idiom for values (``@frozen`` on ``FrozenValue``), views
(``ReadOnly``) and public modules (``@public``, never ``__module__`` set by hand). The house's size rules
are tests/test_house.py's, computed by tools/house.py (``make bench`` prints them): no ``_x.py`` inside
a private package (inside ``_x/`` a module is ``x.py``, as pytest's ``_pytest/runner.py``), no module
over 600 code lines, no more modules than today, ruff's C901 allow-list only shrinking.
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
    # Terraform outside the process: the binary (_terraform/binary.py) and the providers it plugs in, served
    # here (providers/: gRPC server, reattach, protocol pieces; mock/: mock providers), below every user.
    ("terraform", ("plancheck._terraform",)),
    # The matcher engine (knownvalue.Check, the run, the JSON value model) and JSON equality with its
    # rendering: the part of _checking that the matchers, comparers and every check kind share.
    ("engine", ("plancheck._checking.matcher", "plancheck._checking.equality")),
    ("matchers", ("plancheck.knownvalue", "plancheck.compare", "plancheck.tfversion")),
    ("checking", ("plancheck._checking",)),
    ("checks", ("plancheck._planchecks", "plancheck.statecheck", "plancheck.querycheck", "plancheck.tfconfig",
                "plancheck.snapshot")),
    ("public face", ("plancheck.__init__",)),
    ("acceptance", ("plancheck.acceptance",)),
    ("front ends", ("plancheck.cli", "plancheck._plugin", "plancheck.plugin", "plancheck.__main__")),
    ("tools", ("tools",)),
]

#: plancheck/ holds at most this many rooms: top-level modules and packages, dunder modules aside (#13, #26).
MAX_ROOMS = 20


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in ("tfjsonpath", "plancheck", "tools"):
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


_PROJECT = ("tfjsonpath", "plancheck", "tools")


def imported_names(module: str) -> Iterator[tuple[int, str]]:
    """(line, dotted name) for every import in ``module`` of this project, ``if TYPE_CHECKING:`` ones included.

    ``import a.b`` gives ``a.b``; ``from a.b import c`` gives ``a.b.c`` (a module or a name of ``a.b``).
    """
    path = MODULES[module]
    package = _package_of(module, path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            names = [f"{stem}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in _PROJECT:
                yield node.lineno, name


def imports(module: str) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of ``module`` that names a module of this project."""
    for line, name in imported_names(module):
        target = _target(name)
        if target is not None and target != module:
            yield line, target


def private_owner(name: str) -> str | None:
    """The package a dotted name is private to: the one holding its first underscore part; None if public.

    >>> private_owner("plancheck.knownvalue._scalars.Bool"), private_owner("plancheck._checking.run")
    ('plancheck.knownvalue', 'plancheck')
    >>> private_owner("plancheck.acceptance._errors._StepFailure"), private_owner("plancheck.knownvalue.Check")
    ('plancheck.acceptance', None)
    >>> private_owner("plancheck._plugin.hooks._documents")
    'plancheck._plugin'
    """
    parts = name.split(".")
    owner = None
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            holder = ".".join(parts[:i])
            # A private name of a module belongs to the module's package, as a private module does;
            # the deepest private part decides (``_plugin.hooks._x`` is ``_plugin``'s, not ``plancheck``'s).
            owner = holder if holder not in MODULES or MODULES[holder].name == "__init__.py" else holder.rpartition(".")[0]
    return owner


#: The foundation: its private modules are shared with these packages, built on it and shipped with it.
FOUNDATION = ("tfjsonpath", ("plancheck",))


def private_imports(module: str) -> list[str]:
    """``file:line: name`` for every import in ``module`` of another package's private module or name."""
    path = MODULES[module]
    package = _package_of(module, path)
    found = []
    for line, name in imported_names(module):
        owner = private_owner(name)
        if owner == FOUNDATION[0] and package.split(".")[0] in FOUNDATION[1]:
            continue
        if owner is not None and not (package == owner or package.startswith(owner + ".")):
            found.append(f"{path.relative_to(ROOT)}:{line}: {name} (private to {owner})")
    return found


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


def test_no_module_imports_another_packages_private_parts() -> None:
    offenders = [hit for module in sorted(MODULES) if not module.startswith("tools") for hit in private_imports(module)]
    assert offenders == [], "\n".join(offenders)


@pytest.mark.parametrize(
    ("importer", "source", "offends"),
    [
        pytest.param("plancheck._checking.match", "from ..knownvalue._scalars import Bool", True, id="sibling-private-module"),
        pytest.param("plancheck._checking.match", "from ..knownvalue import Check", False, id="public-api"),
        pytest.param("plancheck.knownvalue._scalars", "from .._checking.matcher import Check", False, id="layer-below"),
        pytest.param("plancheck._redact", "from tfjsonpath._jsontypes import is_object", False, id="foundation"),
        pytest.param("plancheck._checking.match", "from .._redact import Secrets", False, id="own-top-package-private"),
        pytest.param("plancheck.snapshot._secrets", "from .._redact import _at_cut", False, id="top-package-private-name"),
        pytest.param("plancheck.cli._run", "from ..snapshot._api import build", True, id="private-module"),
        pytest.param("plancheck.acceptance._caserun", "from ._errors import _StepFailure", False, id="same-package-name"),
        pytest.param("plancheck.plugin", "from ._plugin.hooks import _plancheck_documents", True, id="private-name-below"),
        pytest.param("plancheck.acceptance._caserun", "import plancheck.knownvalue._base", True,
                     id="plain-import"),
        pytest.param("plancheck.cli._run", "if TYPE_CHECKING:\n    from ..compare._comparers import x", True,
                     id="type-checking-counts"),
    ],
)
def test_the_privacy_rule(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, importer: str, source: str, offends: bool
) -> None:
    fake = tmp_path / "fake.py"
    fake.write_text(source + "\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, importer, fake)
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert bool(private_imports(importer)) is offends


def rooms() -> list[str]:
    """plancheck's top-level modules and packages, dunder modules (``__init__``, ``__main__``) aside."""
    found = []
    for entry in sorted((ROOT / "plancheck").iterdir()):
        name = entry.stem if entry.suffix == ".py" else entry.name
        if name.startswith("__") or not (entry.suffix == ".py" or (entry / "__init__.py").is_file()):
            continue
        found.append(name)
    return found


def test_no_internal_facades() -> None:
    """What a package shares is its public API or lives in a layer below its users: no ``internal.py`` (#34)."""
    found = sorted(str(path.relative_to(ROOT)) for path in MODULES.values() if path.name == "internal.py")
    assert found == [], found


def test_plancheck_keeps_to_its_rooms() -> None:
    assert len(rooms()) <= MAX_ROOMS, rooms()


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
                          "plancheck._documents", "plancheck._planchecks", "plancheck.knownvalue", "plancheck.snapshot",
                          "plancheck._terraform.binary", "plancheck._errors", "plancheck._plugin.collectors",
                          "plancheck._frozen", "plancheck._plugin.sweep", "plancheck._plugin.snapshot",
                          # The session's documents and scrub come with the first document met (#34), the gate
                          # and its binary lookup with the header, a skip, or the gate turned off.
                          "plancheck._plugin.cache", "plancheck._plugin.scrub", "plancheck._plugin.gate",
                          "plancheck._terraform", "tfjsonpath")

#: What the plugin imports of those in every session: the list of listeners its scrub hears every document
#: on, made before any test can make one (a module-level load_plan); and the process lifecycle's delivery of a
#: caught signal, which it defers to the session's end (its ``_loading`` package imports nothing): not the
#: lifecycle itself, nor ``tfjsonpath``'s errors under its ``Terminated`` (#34: every module of the package costs a
#: session pytest's assertion rewriter's look at it). A few lines each.
LIGHT_IN_A_PLAIN_SESSION = ("plancheck._documents", "plancheck._documents.met", "plancheck._loading",
                            "plancheck._loading.delivery")


#: What the report header adds (``plancheck: acceptance tests use ...``): the gate and its binary lookup in
#: _terraform/locate.py, which runs nothing and imports nothing of the package (not binary.py, the runner).
HEADER_MODULES = ("plancheck._plugin.gate", "plancheck._terraform", "plancheck._terraform.locate")


@pytest.mark.parametrize("args", [("-q",), ()], ids=["quiet", "header"])
def test_a_plain_pytest_session_imports_no_heavy_module(pytester: pytest.Pytester, args: tuple[str, ...]) -> None:
    pytester.makepyfile(test_plain="def test_a():\n    assert 1\n")
    pytester.makeconftest(
        "import json, sys\n\n\n"
        "def pytest_sessionfinish(session):\n"
        "    names = sorted(m for m in sys.modules if m.startswith(('plancheck', 'tfjsonpath')))\n"
        "    open('modules.json', 'w').write(json.dumps(names))\n"
        "    hooks = session.config.pluginmanager.hook\n"
        "    per_test = (hooks.pytest_runtest_protocol, hooks.pytest_fixture_setup, hooks.pytest_runtest_logstart,\n"
        "                hooks.pytest_runtest_logfinish, hooks.pytest_runtest_logreport, hooks.pytest_pycollect_makeitem)\n"
        "    wrappers = [impl.plugin_name for hook in per_test for impl in hook.get_hookimpls()]\n"
        "    open('wrappers.json', 'w').write(json.dumps(wrappers))\n"
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)
    result.assert_outcomes(passed=1)
    import json

    names = json.loads((pytester.path / "modules.json").read_text())
    assert "plancheck.plugin" in names  # the plugin did load
    allowed = LIGHT_IN_A_PLAIN_SESSION + (() if args else HEADER_MODULES)
    heavy = [n for n in names if n.startswith(NOT_IN_A_PLAIN_SESSION) and n not in allowed]
    assert heavy == []
    # 5: the package, the entry point, the plugin's package, hooks and options (#34: the document cache and the
    # report scrub come with the first document met; the gate, with _terraform/locate.py's binary lookup, with the
    # header or a skip); the collectors come with their fixtures, sweeping with its options.
    assert len(names) <= 5 + len(allowed), names
    # Per test too: the --tf-show-sensitive wrapper is registered only with the option (the 500-test row of #26), the
    # report scrub with the first document met (#34): a plain session runs the plugin's makereport and pyfunc_call only.
    wrappers = json.loads((pytester.path / "wrappers.json").read_text())
    assert not {"plancheck", "plancheck-revealer", "plancheck-setup-show-scrubber", "plancheck-scrubber"} & set(wrappers), \
        wrappers


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if m.startswith(("plancheck._terraform.mock", "plancheck._terraform.providers")))
)
def test_providers_import_without_their_users(module: str) -> None:
    """The CLI's mock-plan imports the providers alone: none of their modules may need the runner imported first."""
    import subprocess
    import sys

    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.startswith(('plancheck.acceptance', 'plancheck.cli'))))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert (result.returncode, result.stderr, result.stdout.strip()) == (0, "", "[]")


#: The only classes that define __setattr__: the value base and the view base (one idiom each, #26),
#: and two exceptions. knownvalue.Check is the documented matcher base: a user-written matcher sets
#: its attributes in __init__ and seals them with super().__init__(), and its == matches JSON
#: values, not fields. tfjsonpath is the lowest layer and cannot import plancheck._frozen: its Path
#: and steps share _Immutable (#26: move the bases below it, then drop this entry).
SETATTR_ALLOWED = {
    "plancheck._frozen": {"FrozenValue", "ReadOnly"},
    "plancheck._checking.matcher": {"Check"},
    "tfjsonpath._text": {"_Immutable"},
}


def _classes_defining(module: str, method: str) -> list[str]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(item, ast.FunctionDef) and item.name == method for item in node.body)
    ]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith("tools")))
def test_only_the_two_bases_define_setattr(module: str) -> None:
    found = set(_classes_defining(module, "__setattr__")) - SETATTR_ALLOWED.get(module, set())
    assert not found, f"{module}: {sorted(found)} make themselves immutable by hand; use FrozenValue or ReadOnly"


def _module_assignments(module: str) -> list[int]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            if (isinstance(target, ast.Name) and target.id == "__module__") or (
                isinstance(target, ast.Attribute) and target.attr == "__module__"
            ):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if not m.startswith("tools") and m != "tfjsonpath._errors")
)
def test_no_module_sets_module_by_hand(module: str) -> None:
    lines = _module_assignments(module)
    assert not lines, f"{module} sets __module__ by hand at line(s) {lines}; decorate with @public"


#: The only modules that may call ``dataclass(frozen=True, ...)`` themselves: the value idiom is ``@frozen`` on a
#: FrozenValue (#26), and ``frozen`` is where that call lives. (Mutable ``@dataclass`` accumulators are not values.)
FROZEN_DATACLASS_ALLOWED = {"plancheck._frozen"}


def _frozen_dataclass_calls(module: str) -> list[int]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        frozen = any(
            k.arg == "frozen" and not (isinstance(k.value, ast.Constant) and k.value.value is False) for k in node.keywords
        )
        if name == "dataclass" and frozen:
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("plancheck")))
def test_values_are_frozen_values_not_hand_made_frozen_dataclasses(module: str) -> None:
    lines = [] if module in FROZEN_DATACLASS_ALLOWED else _frozen_dataclass_calls(module)
    assert not lines, f"{module} applies dataclass(frozen=True) at line(s) {lines}; use @frozen on a FrozenValue"


def test_the_frozen_dataclass_allow_list_is_still_needed() -> None:
    assert all(_frozen_dataclass_calls(module) for module in FROZEN_DATACLASS_ALLOWED)


# -- an end anchor is the end of the text ---------------------------------------------------------

#: The functions of re whose first argument is a pattern.
_RE_FUNCTIONS = {"compile", "match", "search", "fullmatch"}


def _module_strings(tree: ast.Module) -> dict[str, str]:
    """The module-level names bound to a string constant (a pattern kept in a ``Final`` and passed by name)."""
    strings = {}
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) else None
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            strings[target.id] = value.value
    return strings


def _dollar_anchors(source: Path) -> list[int]:
    """The lines of ``source`` whose regular expression ends in ``$`` without MULTILINE: Python's ``$`` also
    matches before a final newline, so ``"abc\\n"`` passes ``^[a-z]+$`` (``\\Z`` is the end of the text)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    named = _module_strings(tree)
    lines = []
    for node in ast.walk(tree):
        func = node.func if isinstance(node, ast.Call) else None
        if not (isinstance(node, ast.Call) and isinstance(func, ast.Attribute) and func.attr in _RE_FUNCTIONS
                and isinstance(func.value, ast.Name) and func.value.id == "re" and node.args):
            continue
        first = node.args[0]
        pattern = first.value if isinstance(first, ast.Constant) else named.get(first.id) if isinstance(first, ast.Name) else None
        multiline = "MULTILINE" in ast.dump(node)
        if isinstance(pattern, str) and pattern.endswith("$") and not pattern.endswith("\\$") and not multiline:
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith("tools")))
def test_no_pattern_ends_in_a_dollar_that_lets_a_final_newline_through(module: str) -> None:
    lines = _dollar_anchors(MODULES[module])
    assert not lines, f"{module} ends a pattern in $ at line(s) {lines}; end it in \\Z (the end of the text)"


def test_the_dollar_finder_finds_a_dollar(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text('import re\n_A = r"^[a-z]+$"\nre.compile(_A)\nre.match(r"x$", "x")\nre.compile(r"^x$", re.MULTILINE)\n'
                     're.compile(r"x\\$")\nre.fullmatch(r"x\\Z", "x")\n', encoding="utf-8")
    assert _dollar_anchors(probe) == [3, 4]
