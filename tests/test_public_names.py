"""Public classes show their public module (as users import them), and old names warn, then work."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import pickle
import warnings
from pathlib import Path
from typing import Any

import pytest

import plancheck
import tfjsonpath
from plancheck import acceptance, querycheck, snapshot, statecheck, tfconfig, tfversion

ROOT = Path(__file__).resolve().parents[1]

PUBLIC_ERRORS = [
    (plancheck, "TfCheckError"),
    (plancheck, "ArgumentError"),
    (plancheck, "DocumentFormatError"),
    (plancheck, "PlanFormatError"),
    (plancheck, "StateFormatError"),
    (plancheck, "CheckFailedError"),
    (plancheck, "PlanCheckError"),
    (plancheck, "StateCheckError"),
    (plancheck, "ConfigCheckError"),
    (plancheck, "ValueMismatchError"),
    (plancheck, "ResourceNotFoundError"),
    (plancheck, "CheckFailure"),
    (tfconfig, "ConfigFormatError"),
    (querycheck, "QueryFormatError"),
    (querycheck, "QueryCheckError"),
    (acceptance, "AcceptanceError"),
    (acceptance, "TestDefinitionError"),
    (acceptance, "TerraformNotFoundError"),
    (acceptance, "ProviderServerError"),
    (acceptance, "ProvidersNotInstalledError"),
    (acceptance, "TestCheckFuncError"),
    (acceptance, "ComposedCheckError"),
    (acceptance, "MockSchemaError"),
    (tfversion, "VersionError"),
    (snapshot, "SnapshotFormatError"),
    (snapshot, "SnapshotMismatchError"),
    (snapshot, "SnapshotMissingError"),
    (tfjsonpath, "TfJsonPathError"),
    (tfjsonpath, "PathNotFoundError"),
    (tfjsonpath, "PathSyntaxError"),
    (tfjsonpath, "PathArgumentError"),
    (plancheck, "PlanCheckWarning"),
]


@pytest.mark.parametrize(("module", "name"), PUBLIC_ERRORS, ids=[f"{m.__name__}.{n}" for m, n in PUBLIC_ERRORS])
def test_errors_name_their_public_module(module: object, name: str) -> None:
    cls = getattr(module, name)
    assert cls.__module__ == module.__name__  # type: ignore[attr-defined]
    # The name a traceback shows resolves to the class itself (and so pickling finds it).
    assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls


@pytest.mark.parametrize(("module", "name"), PUBLIC_ERRORS[:10], ids=[n for _, n in PUBLIC_ERRORS[:10]])
def test_everything_plancheck_raises_derives_from_its_base(module: object, name: str) -> None:
    assert issubclass(getattr(module, name), plancheck.TfCheckError) or name == "CheckFailure"


def test_resource_not_found_error_is_a_lookup_error_and_pickles() -> None:
    plan = plancheck.Plan.from_dict({"format_version": "1.2", "resource_changes": []})
    with pytest.raises(plancheck.ResourceNotFoundError) as info:
        plan.resource_change("null_resource.a")
    assert isinstance(info.value, LookupError)
    assert str(pickle.loads(pickle.dumps(info.value))) == str(info.value)
    assert str(info.value).startswith("resource 'null_resource.a' is not in the plan")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        pytest.param("ResourceNotFound", plancheck.ResourceNotFoundError,
                     "plancheck.ResourceNotFound is deprecated; use plancheck.ResourceNotFoundError", id="ResourceNotFound"),
        pytest.param("StateCheck", statecheck.StateCheck,
                     "plancheck.StateCheck is deprecated; use plancheck.statecheck.StateCheck", id="StateCheck"),
        pytest.param("assert_state", statecheck.assert_state,
                     "plancheck.assert_state is deprecated; use plancheck.statecheck.assert_state", id="assert_state"),
    ],
)
def test_old_names_warn_and_work(old: str, new: object, message: str) -> None:
    with pytest.warns(DeprecationWarning, match="is deprecated") as record:
        value = getattr(plancheck, old)
    assert value is new
    assert [str(w.message) for w in record] == [message]
    assert old not in plancheck.__all__


def test_public_names_need_no_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in plancheck.__all__:
            assert getattr(plancheck, name) is not None


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match=r"^module 'plancheck' has no attribute 'Nope'$"):
        plancheck.Nope  # noqa: B018


@pytest.mark.parametrize("package", [plancheck, tfjsonpath], ids=["plancheck", "tfjsonpath"])
def test_the_lazy_table_is_the_type_imports_and_all_names_each_once(package: Any) -> None:
    # The imports under TYPE_CHECKING are the one table: the lazy map is read from them, so every name
    # in __all__ has exactly one home there, and each home is the object `<package>.<name>` gives. (A name in
    # __all__ without its import was a KeyError from __getattr__, which even hasattr() lets through.)
    tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    typed = [
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for imported in node.body
        if isinstance(imported, ast.ImportFrom) and imported.level == 1
        for alias in imported.names
    ]
    homes = package._homes()
    assert sorted(typed) == sorted(homes) == package.__all__
    for name, (module, attribute) in homes.items():
        home = importlib.import_module(module)
        assert getattr(package, name) is (home if attribute is None else getattr(home, attribute)), name


@pytest.mark.parametrize(("package", "statement"), [
    pytest.param("tfjsonpath", "from tfjsonpath import New; print(New('a').AtMapKey('b'))", id="tfjsonpath"),
    pytest.param("plancheck", "from plancheck import Plan; print(Plan.__name__)", id="plancheck"),
])
def test_the_lazy_table_reads_a_package_imported_from_a_zip_archive(tmp_path: Path, package: str, statement: str) -> None:
    # zipimport (a zipapp, a zipped site): the table was read through a file loader, which opened
    # "archive.zip/tfjsonpath/__init__.py" as a file: NotADirectoryError at the first public name.
    import subprocess
    import sys
    import zipfile

    archive = tmp_path / "site.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for part in ("plancheck", "tfjsonpath"):
            for file in sorted((ROOT / part).rglob("*.py")):
                zipped.write(file, file.relative_to(ROOT).as_posix())
    done = subprocess.run([sys.executable, "-c", f"import {package}; {statement}; print({package}.__file__)"],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(archive)}, capture_output=True, text=True,
                          timeout=120)
    shown = "a.b" if package == "tfjsonpath" else "Plan"
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{shown}\n{archive / package / '__init__.py'}\n", "")


def test_the_lazy_table_needs_no_source(tmp_path: Path) -> None:
    # An install may ship only compiled files: plancheck/__init__ loaded from a .pyc alone (its
    # source elsewhere) gives the same homes, under the name it is loaded as.
    import importlib.machinery
    import py_compile

    compiled = tmp_path / "compiled_plancheck.pyc"
    py_compile.compile(plancheck.__file__, cfile=str(compiled), doraise=True)
    loader = importlib.machinery.SourcelessFileLoader("compiled_plancheck", str(compiled))
    spec = importlib.util.spec_from_loader("compiled_plancheck", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    expected = {
        name: ("compiled_plancheck" + home[len("plancheck"):], attribute)
        for name, (home, attribute) in plancheck._homes().items()  # type: ignore[attr-defined]
    }
    assert module._homes() == expected
    assert len(expected) == len(plancheck.__all__)


def _private_package_inits() -> list[Path]:
    """Every private package's ``__init__.py``: its name starts with ``_``, or it sits under one that does."""
    inits = (init for package in ("plancheck", "tfjsonpath") for init in (ROOT / package).rglob("__init__.py"))
    return sorted(
        init
        for init in inits
        if "__pycache__" not in init.parts and any(part.startswith("_") for part in init.parent.relative_to(ROOT).parts)
    )


def _held(node: ast.stmt) -> str:
    if isinstance(node, ast.Import):
        return "imports " + ", ".join(alias.name for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        return f"imports {', '.join(alias.name for alias in node.names)} from {'.' * node.level}{node.module or ''}"
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
        return "defines __all__"
    name = getattr(node, "name", None)
    return f"defines {name}" if name else f"holds code ({type(node).__name__})"


def _besides_the_docstring(source: str) -> list[str]:
    """What an ``__init__.py`` holds besides its docstring, a line each; a missing docstring is one too."""
    body = ast.parse(source).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        return [f"line {node.lineno}: {_held(node)}" for node in body[1:]]
    return ["no docstring saying what the package is"] + [f"line {node.lineno}: {_held(node)}" for node in body]


@pytest.mark.parametrize(
    ("source", "held"),
    [
        pytest.param('"""What the package is."""\n', [], id="docstring-only"),
        pytest.param('"""Doc."""\n\nfrom .provider import MockProvider\n', ["line 3: imports MockProvider from .provider"],
                     id="re-export"),
        pytest.param('"""Doc."""\nimport os\n', ["line 2: imports os"], id="plain-import"),
        pytest.param('"""Doc."""\nfrom __future__ import annotations\n', ["line 2: imports annotations from __future__"],
                     id="future-import"),
        pytest.param('"""Doc."""\n__all__ = ["A"]\n', ["line 2: defines __all__"], id="all"),
        pytest.param('"""Doc."""\n__all__: list[str] = []\n', ["line 2: defines __all__"], id="annotated-all"),
        pytest.param('"""Doc."""\nclass A:\n    pass\n', ["line 2: defines A"], id="code"),
        pytest.param('"""Doc."""\nLIMIT = 8\n', ["line 2: holds code (Assign)"], id="constant"),
        pytest.param("from . import a\n", ["no docstring saying what the package is", "line 1: imports a from ."],
                     id="no-docstring"),
    ],
)
def test_what_a_package_init_holds_besides_its_docstring(source: str, held: list[str]) -> None:
    assert _besides_the_docstring(source) == held


def test_a_private_package_re_exports_nothing() -> None:
    # A public name is written where it is defined and once in its package's __all__; every importer takes
    # it from the defining module. So a private package's __init__ says what the package is, and that is all:
    # no import (a second home for a name), no __all__ (a second list of them), no code of its own.
    inits = _private_package_inits()
    assert ROOT / "plancheck" / "_planchecks" / "__init__.py" in inits
    assert ROOT / "plancheck" / "acceptance" / "_testcheck" / "__init__.py" in inits  # private, under a public one
    assert ROOT / "plancheck" / "_terraform" / "mock" / "__init__.py" in inits  # public name, under a private one
    held = {
        init.relative_to(ROOT).as_posix(): found
        for init in inits
        if (found := _besides_the_docstring(init.read_text(encoding="utf-8")))
    }
    assert held == {}, "\n".join(f"{path}: {'; '.join(found)}" for path, found in held.items())
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (the test extra has it)")
def test_a_users_type_checker_sees_the_lazy_names_types(tmp_path: Path) -> None:
    # The names come from __getattr__ at run time; mypy --strict must still see each one's own type, not Any.
    import subprocess
    import sys

    user = tmp_path / "user_test.py"
    user.write_text(
        "from typing import assert_type\n"
        "from plancheck import ExpectKnownValue, PlanCheck, Plan, ResourceNotFoundError, assert_plan, knownvalue\n"
        "from tfjsonpath import New\n"
        "check = ExpectKnownValue('null_resource.a', New('id'), knownvalue.NotNull())\n"
        "assert_type(check, ExpectKnownValue)\n"
        "base: PlanCheck = check\n"
        "assert_type(Plan.from_dict({'format_version': '1.2'}), Plan)\n"
        "ExpectKnownValue(1, 2, 3)\n"
        "from plancheck import ExpectKnwnValue\n"
        "from tfjsonpath import Nwe\n"
        "from plancheck import ResourceNotFound, StateCheck, assert_state\n"
        "assert_type(ResourceNotFound, type[ResourceNotFoundError])\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         "--no-error-summary", "--hide-error-context", "--no-pretty", str(user)],
        cwd=tmp_path, env={**os.environ, "MYPYPATH": str(ROOT)}, capture_output=True, text=True, timeout=600,
    )
    # assert_type would fail on an Any, and only the deliberate mistakes are reported: line 8's arguments,
    # and the misspelt names of lines 9 and 10 (a module __getattr__ seen by mypy would take any name);
    # the deprecated names of line 11 keep their types (line 12).
    assert done.stdout.splitlines() == [
        *(
            f'user_test.py:8: error: Argument {n} to "ExpectKnownValue" has incompatible type "int"; expected "{t}"'
            "  [arg-type]"
            for n, t in ((1, "str"), (2, "Path"), (3, "Check"))
        ),
        'user_test.py:9: error: Module "plancheck" has no attribute "ExpectKnwnValue"; maybe "ExpectKnownValue"?'
        "  [attr-defined]",
        'user_test.py:10: error: Module "tfjsonpath" has no attribute "Nwe"  [attr-defined]',
    ], done.stdout + done.stderr
