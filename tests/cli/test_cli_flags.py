"""A check flag (``--unknown ADDRESS PATH``...) builds the check its checks-file entry builds, with the same errors.

The flags build their checks from their own table (``FLAG_CHECKS``), not through the checks file's registry:
this table holds every flag to the checks file, value for value and error for error.
"""

from __future__ import annotations

import argparse
import json
import re

import pytest

from plancheck.cli._checksfile import FLAG_CHECKS, ChecksFileError, parse_checks
from plancheck.cli._command import _FlagCheck, _load_specs, _main_parser
from plancheck.cli._registry import default_registry

# What each flag stands for, as --help tells it: the checks-file entry of that type with these keys.
FLAG_ENTRIES = {
    "--unknown": ("ExpectUnknownValue", ("address", "path")),
    "--sensitive": ("ExpectSensitiveValue", ("address", "path")),
    "--action": ("ExpectResourceAction", ("address", "action")),
    "--empty": ("ExpectEmptyPlan", ()),
    "--non-empty": ("ExpectNonEmptyPlan", ()),
    "--no-deferred": ("ExpectNoDeferredChanges", ()),
}

# Each flag with values it takes and values it rejects (in its path, its action, or its check's constructor).
FLAG_VALUES = [
    pytest.param("--unknown", ["null_resource.a", 'triggers["k"]'], id="unknown"),
    pytest.param("--unknown", ["module.m.null_resource.a[0]", "list[2].name"], id="unknown-indexed"),
    pytest.param("--unknown", ["null_resource.a", "x["], id="unknown-bad-path"),
    pytest.param("--unknown", ["null_resource.a", ""], id="unknown-empty-path"),
    pytest.param("--unknown", ["", "id"], id="unknown-empty-address"),
    pytest.param("--sensitive", ["null_resource.a", "id"], id="sensitive"),
    pytest.param("--sensitive", ["null_resource.a", '["unterminated'], id="sensitive-bad-path"),
    pytest.param("--sensitive", ["  ", "id"], id="sensitive-blank-address"),
    pytest.param("--action", ["null_resource.a", "create"], id="action"),
    pytest.param("--action", ["null_resource.a", "destroy-before-create"], id="action-spelled"),
    pytest.param("--action", ["null_resource.a", "explode"], id="action-unknown"),
    pytest.param("--action", ["null_resource.a", ""], id="action-empty"),
    pytest.param("--action", ["", "create"], id="action-empty-address"),
    pytest.param("--empty", [], id="empty"),
    pytest.param("--non-empty", [], id="non-empty"),
    pytest.param("--no-deferred", [], id="no-deferred"),
]


def _entry(flag: str, values: list[str]) -> tuple[object, str]:
    """The flag's check as a checks file's entry builds it: the spec, or its error's location and message."""
    check_type, keys = FLAG_ENTRIES[flag]
    entry = {"type": check_type, **dict(zip(keys, values, strict=True))}
    try:
        [spec] = parse_checks(json.dumps({"check": [entry]}), "c.json", default_registry())
    except ChecksFileError as exc:
        # The flag's error is told where the entry's is: the flag and its number stand for the entry's index.
        where = re.sub(r"^check\[0\]\.?", f"{flag} #1 ", exc.where).rstrip()
        return None, ("command line", where, exc.message)
    return (spec.type, spec.check, spec.address, spec.path, f"{flag} #1"), None


def _flag(flag: str, values: list[str]) -> tuple[object, str]:
    """The same, as the command line builds it from the flag."""
    args = argparse.Namespace(checks=[], flag_checks=[(flag, values)])
    try:
        [spec] = _load_specs(args, 1 << 20)
    except ChecksFileError as exc:
        return None, (exc.source, exc.where, exc.message)
    return (spec.type, spec.check, spec.address, spec.path, spec.origin), None


@pytest.mark.parametrize(("flag", "values"), FLAG_VALUES)
def test_a_flag_builds_what_its_checks_file_entry_builds(flag: str, values: list[str]) -> None:
    assert _flag(flag, values) == _entry(flag, values)


def test_every_check_flag_is_in_the_table_with_its_arity() -> None:
    flags = {option: action.nargs for action in _main_parser()._actions if isinstance(action, _FlagCheck)
             for option in action.option_strings}
    assert flags == {flag: len(keys) for flag, (_, keys) in FLAG_ENTRIES.items()}
    assert set(FLAG_CHECKS) == set(FLAG_ENTRIES) == {param.values[0] for param in FLAG_VALUES}


def test_flags_are_numbered_per_flag_in_command_line_order() -> None:
    args = argparse.Namespace(checks=[], flag_checks=[("--empty", []), ("--unknown", ["a.b", "x"]), ("--empty", [])])
    assert [spec.origin for spec in _load_specs(args, 1 << 20)] == ["--empty #1", "--unknown #1", "--empty #2"]
