"""The catalogue of checks and matchers: built from the public classes of the public modules only.

``list_checks.golden.txt`` is the ``--list-checks`` text from before the catalogue was rebuilt on
``issubclass``; a check or matcher added to the library (or a changed first docstring line) changes it:
regenerate it with ``python -m plancheck --list-checks > tests/cli/list_checks.golden.txt`` and review the diff.
"""

from __future__ import annotations

import abc
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from clirun import cli

import plancheck
from plancheck import CheckFailure, Plan, PlanCheck, knownvalue
from plancheck.cli._registry import PUBLIC_MODULES, discover, parse_kind

GOLDEN = Path(__file__).with_name("list_checks.golden.txt")


def test_list_checks_text_is_unchanged() -> None:
    assert cli("--list-checks", stdin=None, environ={}) == (0, GOLDEN.read_text("utf-8"), "")


def test_list_checks_json_names_the_same_checks_and_matchers_as_the_text() -> None:
    code, out, err = cli("--list-checks", "--format", "json", stdin=None, environ={})
    assert (code, err) == (0, "")
    doc = json.loads(out)
    text = GOLDEN.read_text("utf-8")
    listed = {line.split("(")[0].strip() for line in text.splitlines() if line.startswith("  ") and "(" in line
              and not line.startswith("      ")}
    assert {c["name"] for c in doc["checks"]} | {m["name"] for m in doc["matchers"]} == listed


def test_public_modules_are_public() -> None:
    assert all(not part.startswith("_") for name in PUBLIC_MODULES for part in name.split("."))


def test_catalogue_is_every_exported_concrete_check_and_matcher() -> None:
    registry = discover()
    exported = {getattr(plancheck, n) for n in plancheck.__all__}
    assert set(registry.check_names()) == {
        c.__name__ for c in exported if isinstance(c, type) and issubclass(c, PlanCheck) and c is not PlanCheck
    }
    matchers = {getattr(knownvalue, n) for n in knownvalue.__all__}
    assert set(registry.matcher_names()) == {
        m.__name__ for m in matchers if isinstance(m, type) and issubclass(m, knownvalue.Check) and m is not knownvalue.Check
    }


class _Abstract(PlanCheck, abc.ABC):
    @abc.abstractmethod
    def extra(self) -> None: ...


class Exported(PlanCheck):
    """A plan check a module exports."""

    def failures(self, plan: Plan) -> list[CheckFailure]:
        return []


class Unexported(Exported):
    """Not in ``__all__``."""


class _Private(Exported):
    """A private name."""


class DuckTyped:
    """Has the methods of a check but is no PlanCheck."""

    def failures(self, plan: object) -> list[object]:
        return []

    def CheckPlan(self, plan: object) -> None:
        return None


class Matcher(knownvalue.Check):
    """A matcher a module exports."""


@pytest.fixture
def fake_module() -> Iterator[str]:
    module = types.ModuleType("fake_public")
    for cls in (_Abstract, Exported, Unexported, _Private, DuckTyped, Matcher, PlanCheck, knownvalue.Check):
        setattr(module, cls.__name__, cls)
    module.__all__ = ["Exported", "_Private", "DuckTyped", "Matcher", "PlanCheck", "Check", "_Abstract"]  # type: ignore[attr-defined]
    sys.modules["fake_public"] = module
    yield "fake_public"
    del sys.modules["fake_public"]


def test_only_exported_concrete_subclasses_of_the_public_bases_count(fake_module: str) -> None:
    registry = discover([fake_module])
    assert registry.check_names() == ["Exported"]
    assert registry.matcher_names() == ["Matcher"]


@pytest.mark.parametrize(
    ("hint", "tag"),
    [
        pytest.param(knownvalue.Check, "matcher", id="public-base"),
        pytest.param(knownvalue.StringExact, "matcher", id="matcher-class"),
        pytest.param(DuckTyped, "unsupported", id="not-a-matcher"),
    ],
)
def test_a_matcher_argument_is_known_by_its_base_class_not_its_module(hint: type, tag: str) -> None:
    assert parse_kind(hint).tag == tag


# -- the keys a checks file may give: resolved once per signature ------------------------------------------------


class _Output:
    def __init__(self, output_address: str) -> None: ...


class _TwoNames:
    def __init__(self, output_address: str, output_name: str) -> None: ...


class _AddressAndResource:
    def __init__(self, address: str, resource_address: str) -> None: ...


class _Matched:
    def __init__(self, resource_address: str, attribute_path: str, known_value: knownvalue.Check) -> None: ...


#: (constructor, key a file gives) -> the argument it fills, or None when it names none (or more than one).
SIGNATURE_KEYS = [
    pytest.param(_Output, "output_address", "output_address", id="own-name"),
    pytest.param(_Output, "address", "output_address", id="alias"),
    pytest.param(_Output, "name", "output_address", id="another-alias"),
    pytest.param(_Output, "path", None, id="alias-of-no-argument"),
    pytest.param(_TwoNames, "address", None, id="alias-of-two-arguments-is-none"),
    pytest.param(_TwoNames, "output_name", "output_name", id="own-name-beside-an-ambiguous-alias"),
    pytest.param(_AddressAndResource, "address", "address", id="own-name-beats-an-alias"),
    pytest.param(_Matched, "matcher", "known_value", id="matcher-is-the-one-matcher-argument"),
    pytest.param(_Matched, "path", "attribute_path", id="path-alias"),
    pytest.param(_Matched, "value", None, id="unknown"),
]


@pytest.mark.parametrize(("cls", "key", "argument"), SIGNATURE_KEYS)
def test_a_signature_maps_each_key_a_file_may_give_to_its_argument(cls: type, key: str, argument: str | None) -> None:
    from plancheck.cli._registry import Signature

    param = Signature.of(cls, [knownvalue.StringExact]).keys.get(key)
    assert (param.name if param is not None else None) == argument
