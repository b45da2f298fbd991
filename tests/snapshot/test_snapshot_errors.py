"""Every error of plancheck.snapshot, pinned: a file that is no snapshot, one edited badly, bad arguments."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from snapshot_support import change, plan_of

from plancheck import DocumentFormatError, Resources, TfCheckError, snapshot
from plancheck.snapshot import SnapshotFormatError, SnapshotMismatchError, SnapshotMissingError
from plancheck.snapshot._format import parse_snapshot
from plancheck.snapshot._render import parse_ignore_spec
from tfjsonpath import New

HEAD = "# tfplancheck plan snapshot 1\n"
BLOCK = "resource a.b\n  action: create\n"

PARSE_ERRORS = [
    pytest.param("", "f.snap:1: expected the header line '# tfplancheck plan snapshot 1', found an empty file",
                 id="empty"),
    pytest.param('{"format_version": "1.2", "resource_changes": []}',
                 "f.snap:1: expected the header line '# tfplancheck plan snapshot 1', found a JSON document "
                 "(a plan, not its snapshot?)", id="json-plan"),
    pytest.param('db_password = "hunter2"\n',
                 "f.snap:1: expected the header line '# tfplancheck plan snapshot 1', found a first line that is not "
                 "it (not a snapshot file?)", id="other-text-not-quoted"),
    pytest.param("# tfplancheck plan snapshot 2\n",
                 "f.snap:1: expected the header line '# tfplancheck plan snapshot 1', found "
                 "'# tfplancheck plan snapshot 2': format '2', and this tfplancheck reads format 1", id="newer-format"),
    pytest.param("# tfplancheck plan snapshot1\n",
                 "f.snap:1: expected the header line '# tfplancheck plan snapshot 1', found "
                 "'# tfplancheck plan snapshot1'", id="header-edited"),
    pytest.param(HEAD + "resource a.b\n  action: create\nstray\n",
                 "f.snap:4: expected a block header (resource ADDRESS, invocation ADDRESS (TRIGGER) or output NAME), "
                 "an indented line of a block, "
                 "a comment (#) or a blank line, found 'stray'", id="stray-line"),
    pytest.param(HEAD + "  id = 1\n",
                 "f.snap:2: expected a block header (resource ADDRESS or output NAME) before the lines of a block, "
                 "found '  id = 1'", id="line-before-block"),
    pytest.param(HEAD + "resource a.b\n  id = 1\n",
                 "f.snap:2: expected an 'action:' line in resource a.b, found none", id="no-action"),
    pytest.param(HEAD + BLOCK + "  id 1\n",
                 "f.snap:4: expected a line 'NAME: TEXT' (action, reason, moved from, deferred, identity, replace, after) or "
                 "'PATH = VALUE', found '  id 1'", id="no-equals"),
    pytest.param(HEAD + BLOCK + '  tags["a = 1\n',
                 "f.snap:4: expected a line 'NAME: TEXT' (action, reason, moved from, deferred, identity, replace, after) or "
                 "'PATH = VALUE', found '  tags[\"a = 1'", id="unclosed-key"),
    pytest.param(HEAD + BLOCK + "  id = hello\n",
                 "f.snap:4: expected a value: a JSON string, number, true, false or null, {}, [], (known after apply), "
                 "(sensitive) or (sensitive #<12 hex digits>), found 'hello'", id="bare-word-value"),
    pytest.param(HEAD + BLOCK + "  id = [1]\n",
                 "f.snap:4: expected a value: a JSON string, number, true, false or null, {}, [], (known after apply), "
                 "(sensitive) or (sensitive #<12 hex digits>) (one leaf a line: write [1] as PATH[0] = 1), found '[1]'",
                 id="container-value"),
    pytest.param(HEAD + BLOCK + "  id = (sensitive #abc)\n",
                 "f.snap:4: expected a value: a JSON string, number, true, false or null, {}, [], (known after apply), "
                 "(sensitive) or (sensitive #<12 hex digits>), found '(sensitive #abc)'", id="short-fingerprint"),
    pytest.param(HEAD + BLOCK + "  id = 1\n  id = 2\n",
                 "f.snap:5: expected each path once in a block, found id again (first on line 4)", id="path-twice"),
    pytest.param(HEAD + BLOCK + "  tags = {}\n  tags[\"a\"] = 1\n",
                 'f.snap:5: expected a value at a path or below it, not both, found tags["a"] below tags (line 4)',
                 id="value-and-below"),
    pytest.param(HEAD + BLOCK + "  after: null\n  id = 1\n",
                 "f.snap:5: expected a value at a path or below it, not both, found id below after (line 4)",
                 id="after-and-attributes"),
    pytest.param(HEAD + BLOCK + "  action: update\n",
                 "f.snap:4: expected one 'action:' line per block, found a second one (the first is on line 3)",
                 id="action-twice"),
    pytest.param(HEAD + BLOCK + "  reason:\n", "f.snap:4: expected a text after 'reason: ', found '  reason:'",
                 id="empty-reason"),
    pytest.param(HEAD + BLOCK + "  replace: a[\n",
                 "f.snap:4: expected a path (an index or a quoted key at offset 2), found 'a['", id="bad-replace-path"),
    pytest.param(HEAD + "output ip\n  action: create\n  reason: x\n",
                 "f.snap:4: expected only 'action:' and 'value' lines in an output, found '  reason: x'",
                 id="reason-in-output"),
    pytest.param(HEAD + "output ip\n  action: create\n  after: 1\n",
                 "f.snap:4: expected an output's value as 'value = VALUE', found '  after: 1'", id="after-in-output"),
    pytest.param(HEAD + "output ip\n  action: create\n  ip = 1\n",
                 "f.snap:4: expected an output's paths to start with value, found 'ip'", id="output-path"),
    pytest.param(HEAD + BLOCK + BLOCK, "f.snap:4: expected each block once, found 'resource a.b' again (first on line 2)",
                 id="block-twice"),
    pytest.param(HEAD + "resource  a.b\n  action: create\n",
                 "f.snap:2: expected a name after 'resource ' (and no space around it), found 'resource  a.b'",
                 id="space-in-header"),
    pytest.param(HEAD + "resource a.b (deposed 0)\n  action: delete\n",
                 "f.snap:2: expected a deposed object numbered from 1, found 'resource a.b (deposed 0)'",
                 id="deposed-zero"),
    pytest.param(HEAD + "# fingerprint key #xyz\n",
                 "f.snap:2: expected '# fingerprint key #' and 8 hex digits, found '# fingerprint key #xyz'",
                 id="bad-key-line"),
    pytest.param(HEAD + BLOCK + "  description = " + '"' + "x" * 100 + '\n',
                 "f.snap:4: expected a value: a JSON string, number, true, false or null, {}, [], (known after apply), "
                 "(sensitive) or (sensitive #<12 hex digits>), found '\"" + "x" * 58 + "…'", id="long-line-cut"),
]


@pytest.mark.parametrize(("text", "message"), PARSE_ERRORS)
def test_a_bad_snapshot_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(SnapshotFormatError) as info:
        parse_snapshot(text, "f.snap")
    assert str(info.value) == message
    assert info.value.file == "f.snap"
    assert isinstance(info.value.line, int)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, TfCheckError)
    assert isinstance(info.value, DocumentFormatError)
    assert str(pickle.loads(pickle.dumps(info.value))) == message


def _plan() -> Any:
    return plan_of(change("a.b", ["create"], {"id": "1"}))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00", "{f}:1: expected UTF-8 text, found binary data", id="binary"),
        pytest.param(HEAD.encode() + b"resource a.b\n  action: \xff\n", "{f}:3: expected UTF-8 text, found binary data",
                     id="bad-utf8-line-3"),
        pytest.param(b"x" * 65, "{f}: expected a snapshot of at most 64 bytes (raise the limit with PLANCHECK_MAX_BYTES), "
                                "found a larger file", id="too-large"),
        pytest.param(b'{"format_version": "1.2"}', "{f}:1: expected the header line '# tfplancheck plan snapshot 1', "
                                                   "found a JSON document (a plan, not its snapshot?)", id="json"),
    ],
)
def test_a_file_that_is_no_snapshot_is_refused_even_with_update(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, message: str
) -> None:
    monkeypatch.setenv("PLANCHECK_MAX_BYTES", "64")
    file = tmp_path / "plan.snap"
    file.write_bytes(content)
    for update in (False, True):
        with pytest.raises(SnapshotFormatError) as info:
            snapshot.assert_matches(_plan(), file, update=update)
        assert str(info.value) == message.format(f=file)
    assert file.read_bytes() == content  # never overwritten


def test_unreadable_and_directory_files_are_located_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    directory = tmp_path / "dir.snap"
    directory.mkdir()
    with pytest.raises(SnapshotFormatError, match=r"dir\.snap: expected a readable snapshot file, found Is a directory$"):
        snapshot.assert_matches(_plan(), directory)
    locked = tmp_path / "locked.snap"
    locked.write_text(snapshot.render(_plan(), key=None), encoding="utf-8")

    def refuse(*_args: object, **_kwargs: object) -> None:  # root reads a file whatever its mode: refuse by hand
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("plancheck.snapshot._api.open", refuse, raising=False)
    with pytest.raises(SnapshotFormatError, match=r"locked\.snap: expected a readable snapshot file, found Permission denied$"):
        snapshot.assert_matches(_plan(), locked)


def test_missing_and_mismatch_errors(tmp_path: Path) -> None:
    file = tmp_path / "plan.snap"
    with pytest.raises(SnapshotMissingError) as missing:
        snapshot.assert_matches(_plan(), file)
    assert str(missing.value) == (
        f"no snapshot at {file}: write it with update=True (pytest: --snapshot-update; command line: --update)"
    )
    assert isinstance(missing.value, AssertionError)
    assert missing.value.file == str(file)
    assert not file.exists()
    snapshot.assert_matches(_plan(), file, update=True)
    with pytest.raises(SnapshotMismatchError) as mismatch:
        snapshot.assert_matches(plan_of(change("a.b", ["create"], {"id": "2"}), change("a.c", ["create"], {})), file)
    assert str(mismatch.value) == (
        f"plan does not match the snapshot {file} (2 differences):\n"
        '  a.b: id: "1" -> "2"\n'
        "  + a.c (create)\n"
        "update it with update=True (pytest: --snapshot-update; command line: --update)"
    )
    assert mismatch.value.lines == ('a.b: id: "1" -> "2"', "+ a.c (create)")
    assert [f.message for f in mismatch.value.failures] == list(mismatch.value.lines)
    assert str(pickle.loads(pickle.dumps(mismatch.value))) == str(mismatch.value)
    assert str(pickle.loads(pickle.dumps(missing.value))) == str(missing.value)


ARGUMENT_ERRORS = [
    pytest.param(lambda: snapshot.render({"format_version": "1.2"}), TypeError,  # type: ignore[arg-type]
                 "render() plan must be a plancheck.Plan, got dict (load it with plancheck.load_plan)", id="render-dict"),
    pytest.param(lambda: snapshot.render(_plan(), [3]), TypeError,
                 "render() ignore[0]: expected a tfjsonpath.Path, its text form (str), a plancheck.Resources selector, "
                 "or a (Resources, path) pair, got int", id="ignore-entry-type"),
    pytest.param(lambda: snapshot.render(_plan(), 5), TypeError,
                 "render() ignore must be a list of paths, selectors and (selector, path) pairs, got int",
                 id="ignore-not-a-list"),
    pytest.param(lambda: snapshot.render(_plan(), ["a["]), ValueError,
                 "render() ignore[0]: invalid path 'a[' at offset 2: expected an index or a quoted key, found the end "
                 "of the text", id="ignore-bad-path"),
    pytest.param(lambda: snapshot.render(_plan(), [(Resources(type="x"), 1)]), TypeError,
                 "render() ignore[0]: expected a tfjsonpath.Path or its text form (str), got int", id="ignore-pair-path"),
    pytest.param(lambda: snapshot.render(_plan(), key=12), TypeError,
                 "plancheck.snapshot: key must be a str or bytes, got int", id="key-type"),
    pytest.param(lambda: snapshot.render(_plan(), key="short"), ValueError,
                 "plancheck.snapshot: a fingerprint key must be at least 16 bytes long, got 5 (use a random CI secret)",
                 id="key-short"),
    pytest.param(lambda: snapshot.diff(_plan(), 3), TypeError,
                 "diff() new must be a plancheck.Plan, a snapshot's text (str) or a snapshot file (a path object), got int",
                 id="diff-side"),
    pytest.param(lambda: snapshot.diff(Path("/nonexistent/x.snap"), _plan()), SnapshotFormatError,
                 "/nonexistent/x.snap: expected a snapshot file, found no such file", id="diff-missing-file"),
    pytest.param(lambda: snapshot.diff("not a snapshot", _plan()), SnapshotFormatError,
                 "<snapshot>:1: expected the header line '# tfplancheck plan snapshot 1', found a first line that is "
                 "not it (not a snapshot file?)", id="diff-bad-text"),
    pytest.param(lambda: snapshot.assert_matches(_plan(), 3), TypeError,  # type: ignore[arg-type]
                 "assert_matches() file must be a str or a path object, got int", id="assert-file"),
    pytest.param(lambda: snapshot.assert_matches(_plan(), "x.snap", update="yes"), TypeError,  # type: ignore[arg-type]
                 "assert_matches() update must be a bool, got str", id="assert-update"),
    pytest.param(lambda: snapshot.assert_matches([], "x.snap"), TypeError,  # type: ignore[arg-type]
                 "assert_matches() plan must be a plancheck.Plan, got list (load it with plancheck.load_plan)",
                 id="assert-plan"),
    # A name no system call takes was open()'s bare ValueError ("embedded null byte"), not the snapshot's error.
    pytest.param(lambda: snapshot.assert_matches(_plan(), "x\x00.snap"), SnapshotFormatError,
                 "x\x00.snap: expected a readable snapshot file, found a name the system cannot open (embedded null byte)",
                 id="assert-file-nul"),
    pytest.param(lambda: snapshot.diff(Path("x\x00.snap"), _plan()), SnapshotFormatError,
                 "x\x00.snap: expected a readable snapshot file, found a name the system cannot open (embedded null byte)",
                 id="diff-file-nul"),
    # check_file and build, the steps a front end of its own calls, said os.fspath's TypeError and
    # AttributeError ('secrets') of what they were given.
    pytest.param(lambda: snapshot.check_file("", _plan().secrets, None, update=False), TypeError,  # type: ignore[arg-type]
                 "check_file() file must be a str or a path object, got NoneType", id="check-file-file"),
    pytest.param(lambda: snapshot.check_file("", _plan().secrets, "x\x00.snap", update=False), SnapshotFormatError,
                 "x\x00.snap: expected a readable snapshot file, found a name the system cannot open (embedded null byte)",
                 id="check-file-nul"),
    pytest.param(lambda: snapshot.build(None, snapshot.IgnoreSpec([], "x"), None), TypeError,  # type: ignore[arg-type]
                 "build() plan must be a plancheck.Plan, got NoneType (load it with plancheck.load_plan)", id="build-plan"),
    # The red-team pass after: the other arguments of the two steps were AttributeErrors ('split', 'scrub', 'id')
    # or, for update="no", a file written: a str is truthy.
    pytest.param(lambda: snapshot.check_file(None, _plan().secrets, "/proc/x.snap", update=False), TypeError,  # type: ignore[arg-type]
                 "check_file() text must be a str, got NoneType", id="check-file-text"),
    pytest.param(lambda: snapshot.check_file("", None, "/proc/x.snap", update=False), TypeError,  # type: ignore[arg-type]
                 "check_file() secrets must be a plancheck.Secrets, got NoneType", id="check-file-secrets"),
    pytest.param(lambda: snapshot.check_file("", _plan().secrets, "/proc/x.snap", update="no"), TypeError,  # type: ignore[arg-type]
                 "check_file() update must be a bool, got str", id="check-file-update"),
    pytest.param(lambda: snapshot.build(_plan(), [], None), TypeError,  # type: ignore[arg-type]
                 "build() ignore must be a plancheck.snapshot.IgnoreSpec, got list", id="build-ignore"),
    pytest.param(lambda: snapshot.build(_plan(), snapshot.IgnoreSpec([], "x"), "0123456789abcdef"), TypeError,  # type: ignore[arg-type]
                 "build() key must be a plancheck.snapshot.FingerprintKey or None, got str (make it with resolve_key)",
                 id="build-key"),
    pytest.param(lambda: snapshot.FingerprintKey("0123456789abcdef"), TypeError,  # type: ignore[arg-type]
                 "FingerprintKey key must be bytes, got str (make it with resolve_key)", id="fingerprint-key-str"),
]


@pytest.mark.parametrize(("call", "kind", "message"), ARGUMENT_ERRORS)
def test_bad_arguments_fail_at_once_with_a_message_naming_them(call: Any, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message


IGNORE_SPEC_ERRORS = [
    pytest.param("typ=x", "'typ=x' is neither a path (expected '.', '[' or the end of the path at offset 3, found '=') "
                          "nor a selector FIELD=VALUE[,FIELD=VALUE...][,path=PATH] with fields type, module, address, "
                          "mode, provider, action", id="unknown-field"),
    pytest.param("type=x,path=a[", "'type=x,path=a[': path='a[' is not a path: expected an index or a quoted key at "
                                   "offset 2, found the end of the text", id="bad-path"),
    pytest.param("type=a,type=b", "'type=a,type=b': type= is given twice", id="field-twice"),
    pytest.param("mode=resource", "'mode=resource': mode must be 'managed' or 'data', got 'resource'", id="bad-mode"),
    pytest.param("action=creat", "'action=creat': action 'creat' is not a ResourceAction; did you mean Create? "
                                 "(one of NoOp, Create, Read, Update, Destroy, DestroyBeforeCreate, CreateBeforeDestroy, "
                                 "Replace, Forget, CreateThenForget, ForgetThenCreate)", id="bad-action"),
    pytest.param("address=a.b[", "'address=a.b[': address 'a.b[' is not a valid pattern: '[' at offset 3 is never closed",
                 id="bad-address-glob"),
]


@pytest.mark.parametrize(("spec", "message"), IGNORE_SPEC_ERRORS)
def test_bad_ignore_specs_say_why(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_ignore_spec(spec)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        pytest.param("id", New("id"), id="path"),
        pytest.param('tags["a,b=c"]', New("tags").AtMapKey("a,b=c"), id="path-with-comma-and-equals"),
        pytest.param("path=id", New("id"), id="path-field"),
        pytest.param("type=null_*", Resources(type="null_*"), id="selector"),
        pytest.param('address=a.b["x,y"],mode=managed', Resources(address='a.b["x,y"]', mode="managed"),
                     id="selector-value-with-comma"),
        pytest.param("module=,path=id", (Resources(module=""), New("id")), id="root-module-scoped-path"),
        pytest.param("provider=hashicorp/null,action=create,action=delete,path=triggers",
                     (Resources(provider="hashicorp/null", action=["create", "delete"]), New("triggers")),
                     id="everything"),
    ],
)
def test_ignore_specs_parse(spec: str, expected: object) -> None:
    assert parse_ignore_spec(spec) == expected


def test_errors_in_a_file_compared_block_by_block_name_the_file_line(tmp_path: Path) -> None:
    plan = plan_of(*(change(f"a.r{i}", ["create"], {"id": str(i)}) for i in range(3)))
    file = tmp_path / "plan.snap"
    snapshot.assert_matches(plan, file, update=True)
    lines = file.read_text(encoding="utf-8").split("\n")
    assert lines[13] == '  id = "2"'
    lines[13] = "  id = two"
    file.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(SnapshotFormatError, match=r"plan\.snap:14: expected a value: .*, found 'two'$"):
        snapshot.assert_matches(plan, file)
    lines[13] = '  id = "2"'
    file.write_text("\n".join(lines[:10] + lines[3:]), encoding="utf-8")  # a block twice: the whole file is read
    with pytest.raises(SnapshotFormatError, match=r"plan\.snap:11: expected each block once, found 'resource a\.r0' "
                                                  r"again \(first on line 4\)$"):
        snapshot.assert_matches(plan, file)
