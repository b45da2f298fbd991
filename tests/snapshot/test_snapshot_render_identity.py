"""The fast render makes the very text the walk before it made: a snapshot file of any earlier version still compares equal.

The walk as it was before it was made faster (it walked every value with its marks by an explicit
stack, and sorted a block's lines whenever a key was hidden) is kept here, unchanged, as the
reference: the snapshot of every corpus plan, of the test fixtures and of a generated plan full of
secrets, and the lines of any value with any marks (Hypothesis), are the same by both, with and
without a fingerprint key. Addresses are the one exception: with a key, an instance key hiding a
secret is fingerprinted since #33 (:func:`_reference_shown` does so too); a file written before
still compares equal (tests/snapshot/test_snapshot_hidden_keys.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plancheck import Plan, load_plan
from plancheck._documents.sensitive import address_parses, shown_address
from plancheck._redact import NO_VALUE, SENSITIVE, Marks, Secrets, contains_sensitive, fit_marks
from plancheck.snapshot import _render
from plancheck.snapshot._api import build
from plancheck.snapshot._format import ROOT_LABEL, UNKNOWN, json_scalar, json_string, line_key
from plancheck.snapshot._render import IgnoreSpec
from plancheck.snapshot._secrets import FingerprintKey, ValueSecrets
from plancheck.snapshot._values import IGNORED, flatten
from tfjsonpath._text import quote_key

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "plans"
GEN_PLAN = ROOT.parent / "shared" / "bench" / "gen_plan.py"
FIXTURES = ROOT / "tests" / "fixtures" / "plans"
KEY = FingerprintKey(b"identity-test-key-0123456789abcdef")
SECRET = "hunter2-secret"

_IDENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_EMPTY_OBJECT: Final = "{}"
_EMPTY_ARRAY: Final = "[]"
_ROOT_LINE: Final = "   = "
_PLAIN_DEPTH: Final = 64


def reference_flatten(
    value: Any, unknown: Marks, sensitive: Marks, root: str, *, secrets: ValueSecrets, key: FingerprintKey | None,
    where: str, ignore: Any = None,
) -> tuple[list[str], bool]:
    """The lines as the walk before made them, and whether a key was hidden (then the caller sorted them)."""
    walker = _ReferenceWalker(secrets, key, where)
    walker.marked(value, unknown, sensitive, root, ignore or {})
    out = walker.out
    if not root and out and out[0].startswith(_ROOT_LINE):
        out[0] = f"  {ROOT_LABEL}: {out[0][len(_ROOT_LINE):]}"
    return out, walker.hidden_key


def _block(result: tuple[list[str], bool]) -> list[str]:
    """The lines as a block holds them: sorted when the walk says they may be out of order."""
    lines, unsorted = result
    return sorted(lines, key=line_key) if unsorted else lines


def _reference_text(plan: Plan, key: FingerprintKey | None, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patched:
        patched.setattr(_render, "flatten", reference_flatten)
        patched.setattr(_render, "_shown", _reference_shown)
        return build(plan, IgnoreSpec((), "test"), key)


_REFERENCE_KEY: Final = re.compile(r'\["((?:[^"\\]|\\.)*)"\]')


def _reference_shown(address: str, secrets: ValueSecrets, key: FingerprintKey | None = None) -> str:
    """An address as shown: :func:`shown_address`; with a key, the last ``(sensitive)`` of each hidden key fingerprinted."""
    if key is None or not len(secrets.secrets):
        return shown_address(address, secrets.secrets)
    out: list[str] = []
    at = 0
    for match in _REFERENCE_KEY.finditer(address):
        text = match.group(1)
        shown = secrets.secrets.scrub(text)
        if shown != text and SENSITIVE in shown:
            cut = shown.rindex(SENSITIVE)
            mark = key.fingerprint("instance key\x00" + address[: match.start()], text, None)
            shown = f"{shown[:cut]}(sensitive #{mark}){shown[cut + len(SENSITIVE):]}"
        out.append(f'{address[at : match.start()]}["{shown}"]')
        at = match.end()
    return "".join(out) + address[at:]


def _plans() -> list[Any]:
    files = sorted(FIXTURES.glob("*.json"))
    if CORPUS.is_dir():
        files.extend(sorted(CORPUS.glob("*.json")))
    return [pytest.param(f, id=f"{f.parent.name}/{f.stem}") for f in files]


@pytest.mark.parametrize("key", [None, KEY], ids=["no-key", "key"])
@pytest.mark.parametrize("plan_file", _plans())
def test_the_snapshot_of_each_plan_is_the_reference_walks(plan_file: Path, key: FingerprintKey | None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        plan = load_plan(plan_file, allow_errored=True)  # an errored plan has a snapshot too
    except Exception as exc:  # a corpus file that is no plan this library loads has no snapshot to compare
        pytest.skip(f"{plan_file.name} does not load: {type(exc).__name__}")
    assert build(plan, IgnoreSpec((), "test"), key) == _reference_text(plan, key, monkeypatch)


def test_the_corpus_is_compared_when_present() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")
    assert len(list(CORPUS.glob("*.json"))) >= 50


@pytest.fixture(scope="module")
def generated_plan(tmp_path_factory: pytest.TempPathFactory) -> Plan:
    """A plan of the benchmark's generator: thousands of marks, secrets and hidden keys in 60 resources."""
    if not GEN_PLAN.is_file():
        pytest.skip(f"no plan generator at {GEN_PLAN}")
    path = tmp_path_factory.mktemp("generated") / "plan.json"
    subprocess.run([sys.executable, str(GEN_PLAN), "--resources", "60", "--seed", "7", "-o", str(path)],
                   check=True, capture_output=True)
    return load_plan(path)


@pytest.mark.parametrize("key", [None, KEY], ids=["no-key", "key"])
def test_the_snapshot_of_a_generated_plan_is_the_reference_walks(generated_plan: Plan, key: FingerprintKey | None,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    text = build(generated_plan, IgnoreSpec((), "test"), key)
    assert '["(sensitive)"] = (sensitive' in text  # hidden keys, the case whose lines the walk now places itself
    assert text == _reference_text(generated_plan, key, monkeypatch)


KEYS = st.sampled_from(["a", "b", "z", "_x", "A", " sp", "!", "(", "(sensitive)", "(sensitive) ", "é", SECRET,
                        f"k-{SECRET}", "[0]"]) | st.text(max_size=4)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.text(max_size=8),
    st.decimals(allow_nan=False, allow_infinity=False, places=2), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([SECRET, f"x {SECRET} y", "(sensitive)", "{}", "hunter"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(KEYS, inner, max_size=5)), max_leaves=20)


@st.composite
def marks_for(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """A marks tree for ``value``: mostly fitting it, sometimes not (malformed, the wrong kind, past its end)."""
    choice = draw(st.integers(0, 11))
    if choice == 0:
        return True
    if choice == 1 or depth > 5:
        return draw(st.sampled_from([False, None]))
    if choice == 2:
        return draw(st.sampled_from([1, "true", [True], {"a": True}, [False], {}, []]))
    if isinstance(value, dict):
        marks = {k: draw(marks_for(v, depth + 1)) for k, v in value.items() if draw(st.booleans())}
        if draw(st.integers(0, 4)) == 0:
            marks[draw(KEYS)] = draw(st.sampled_from([True, False, {}, {"q": True}, [True]]))
        return marks
    if isinstance(value, list):
        marks_list = [draw(marks_for(v, depth + 1)) for v in value]
        if draw(st.integers(0, 4)) == 0:
            marks_list.extend(draw(st.lists(st.sampled_from([True, False, None, [False]]), max_size=2)))
        return marks_list
    return draw(st.sampled_from([False, {}, []]))


def _trie(value: Any, draw: st.DrawFn) -> Any:
    """An ignore trie over some of the value's paths."""
    if isinstance(value, dict) and value:
        return {("k", k): IGNORED if draw(st.integers(0, 3)) == 0 else _trie(v, draw)
                for k, v in value.items() if draw(st.booleans())}
    if isinstance(value, list) and value:
        return {("i", i): IGNORED if draw(st.integers(0, 3)) == 0 else _trie(v, draw)
                for i, v in enumerate(value) if draw(st.booleans())}
    return {}


@st.composite
def walks(draw: st.DrawFn) -> tuple[Any, Any, Any, str, Any, bool]:
    value = draw(st.dictionaries(KEYS, VALUES, max_size=6) | VALUES)
    trie = _trie(value, draw) if draw(st.booleans()) else {}
    return (value, draw(marks_for(value)), draw(marks_for(value)), draw(st.sampled_from(["", "value"])), trie,
            draw(st.booleans()))


SECRETS = Secrets([SECRET, "(sensitive) "])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walks())
def test_the_lines_of_any_value_are_the_reference_walks(walk: tuple[Any, Any, Any, str, Any, bool]) -> None:
    value, unknown, sensitive, root, trie, keyed = walk
    key = KEY if keyed else None
    new = flatten(value, unknown, sensitive, root, secrets=ValueSecrets(SECRETS), key=key, where="w", ignore=trie)
    old = reference_flatten(value, unknown, sensitive, root, secrets=ValueSecrets(SECRETS), key=key, where="w",
                            ignore=trie)
    assert _block(new) == _block(old)
    assert SECRET not in "\n".join(new[0])


def _nested(depth: int, leaf: Any) -> Any:
    for i in range(depth):
        leaf = {"n": leaf, "s": f"level-{i}"} if i % 2 else [leaf, i]
    return leaf


@pytest.mark.parametrize(
    ("value", "sensitive"),
    [
        pytest.param({"(sensitive)": "v", SECRET: "w", "b": 1}, {"m": {}}, id="a-key-named-(sensitive)-beside-a-hidden-one"),
        pytest.param({"(sensitive)": "v", SECRET: "w"}, None, id="the-same-without-marks"),
        pytest.param({"!": 1, SECRET: {"x": 2}, "a": [SECRET]}, {"a": [False]}, id="a-key-before-the-hidden-line"),
        pytest.param({1: "one", SECRET: 2, "b": 3}, {}, id="keys-that-are-not-strings"),
        pytest.param([{"k": {SECRET: 1}}] * 3, [{"k": {"z": True}}], id="marks-naming-absent-keys"),
        pytest.param(_nested(70, {"(sensitive)": 1, SECRET: 2, "c": [3]}), _nested(70, {"c": [True]}),
                     id="deeper-than-the-recursion"),
    ],
)
@pytest.mark.parametrize("key", [None, KEY], ids=["no-key", "key"])
def test_the_rare_orders_are_the_reference_walks(value: Any, sensitive: Any, key: FingerprintKey | None) -> None:
    new = flatten(value, None, sensitive, "", secrets=ValueSecrets(SECRETS), key=key, where="w")
    old = reference_flatten(value, None, sensitive, "", secrets=ValueSecrets(SECRETS), key=key, where="w")
    assert _block(new) == _block(old)


ADDRESS_PARTS = st.sampled_from(["aws_instance.web", "module.m", SECRET, f"x{SECRET}", "hunter2-", "secret",
                                  '"', "\\", "[0]", "(sensitive)"]) | st.text(max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(ADDRESS_PARTS, st.lists(ADDRESS_PARTS, max_size=3)), min_size=1, max_size=3))
def test_an_address_is_shown_as_shown_address_shows_it(parts: list[tuple[str, list[str]]]) -> None:
    address = ".".join(name + "".join(f'["{"".join(key)}"]' for key in [keys]) for name, keys in parts)
    if not address_parses(address):  # a key left open (a hand-made plan's): no part is known to be a name
        assert _render._shown(address, ValueSecrets(SECRETS)) == SECRETS.scrub(address)
        assert _render._shown(address, ValueSecrets(SECRETS), KEY) == SECRETS.scrub(address)
        return
    assert _render._shown(address, ValueSecrets(SECRETS)) == shown_address(address, SECRETS)
    assert _render._shown(address, ValueSecrets(SECRETS), KEY) == _reference_shown(address, ValueSecrets(SECRETS), KEY)


# The walk before, unchanged but for its name (helpers first).


def _is_object(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _is_array(value: Any) -> bool:
    return type(value) is list or (isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray)))


def _child_path(text: str, key: str) -> str:
    if not text and _IDENT.match(key):
        return key
    return f"{text}[{quote_key(key)}]"


def _marked_keys(marks: Any, value: Any) -> list[str]:
    """The keys of a marks object that are not in ``value`` but hold a mark: a value there, unknown or hidden."""
    if not _is_object(marks):
        return []
    return [k for k, m in marks.items() if isinstance(k, str) and k not in value and m is not None and m is not False
            and (m is True or contains_sensitive(m))]


class _ReferenceWalker:
    """The walk before the fast one, as it was: the reference."""

    __slots__ = ("checking", "hidden_key", "key", "out", "touches", "where")

    def __init__(self, secrets: ValueSecrets, key: FingerprintKey | None, where: str) -> None:
        self.out: list[str] = []
        self.hidden_key = False
        self.checking = secrets.active
        self.touches = secrets.touches
        self.key = key
        self.where = where

    def scalar(self, val: Any, text: str) -> str:
        """The token of a scalar that is neither a str nor None."""
        shown = json_scalar(val)
        if self.checking and type(val) is not bool and self.touches(shown):
            return _sensitive(self.key, self.where, text, val, None)
        return shown

    def plain(self, val: Any, text: str, trie: Any, depth: int) -> None:
        """A dict or list without a mark anywhere in it: the common case, walked without looking for marks."""
        emit = self.out.append
        checking, touches = self.checking, self.touches
        if type(val) is dict:
            if not val:
                emit(f"  {text} = {_EMPTY_OBJECT}")
                return
            items: Any = sorted(val.items()) if all(type(k) is str for k in val) else sorted(val.items(), key=_str_key)
        else:
            if not val:
                emit(f"  {text} = {_EMPTY_ARRAY}")
                return
            items = enumerate(val)
        is_dict = type(val) is dict
        hidden: dict[str, Any] = {}
        for k, child in items:
            sub = None
            if is_dict:
                name = k if type(k) is str else str(k)
                if trie:
                    sub = trie.get(("k", name))
                    if sub is IGNORED:
                        continue
                if checking and touches(name):
                    hidden[name] = child
                    continue
                path = f"{text}[{quote_key(name)}]" if text else _child_path(text, name)
            else:
                if trie:
                    sub = trie.get(("i", k))
                    if sub is IGNORED:
                        continue
                path = f"{text}[{k}]"
            kind = type(child)
            if kind is str:
                shown = (_sensitive(self.key, self.where, path, child, None) if checking and touches(child)
                         else json_string(child))
                emit(f"  {path} = {shown}")
            elif child is None:
                emit(f"  {path} = null")
            elif kind is dict or kind is list:
                if depth < _PLAIN_DEPTH:
                    self.plain(child, path, sub, depth + 1)
                else:
                    self.marked(child, None, None, path, sub)
            elif _is_object(child) or _is_array(child):
                self.marked(child, None, None, path, sub)
            else:
                emit(f"  {path} = {self.scalar(child, path)}")
        if hidden:
            self.hide(text, hidden, None)

    def hide(self, text: str, entries: dict[str, Any], unknown: dict[str, Any] | None) -> None:
        """One line for every entry of an object whose key touches a secret: ``["(sensitive)"] = (sensitive)``.

        The keys cannot be told apart once hidden, so their values are one value (fingerprinted together).
        """
        self.hidden_key = True
        shown = _child_path(text, SENSITIVE)
        self.out.append(f"  {shown} = {_sensitive(self.key, self.where, shown, entries, unknown)}")

    def marked(self, value: Any, unknown: Marks, sensitive: Marks, root: str, ignore: Any) -> None:
        """Any value with its marks, walked with an explicit stack (any depth)."""
        emit = self.out.append
        checking, touches = self.checking, self.touches
        stack: list[tuple[Any, Marks, Marks, str, Any]] = [(value, unknown, sensitive, root, ignore)]
        pop, push = stack.pop, stack.append
        while stack:
            val, um, sm, text, trie = pop()
            kind = type(val)
            if sm is not None and sm is not False:
                if sm is not True:
                    mark_kind = type(sm)
                    if not ((mark_kind is dict or mark_kind is list) and (kind is mark_kind or val is None or val is NO_VALUE)):
                        sm = fit_marks(sm, val)
                if sm is True:
                    emit(f"  {text} = {_sensitive(self.key, self.where, text, val, um)}")
                    continue
            if um is not None and um is not False:
                if um is not True:
                    mark_kind = type(um)
                    if not ((mark_kind is dict or mark_kind is list) and (kind is mark_kind or val is None or val is NO_VALUE)):
                        um = fit_marks(um, val)
                if um is True:
                    emit(f"  {text} = {UNKNOWN}")
                    continue
            if kind is str:
                shown = (_sensitive(self.key, self.where, text, val, None) if checking and touches(val)
                         else json_string(val))
                emit(f"  {text} = {shown}")
                continue
            if val is None:
                emit(f"  {text} = null")
                continue
            if not um and not sm and (kind is dict or kind is list):
                self.plain(val, text, trie, 0)  # nothing marked in it: the fast walk
                continue
            if val is NO_VALUE:  # absent, but marks below it say something is there
                val = {} if _is_object(um) or _is_object(sm) else []
                kind = type(val)
            if kind is dict:
                is_object = True
            elif kind is list:
                is_object = False
            elif kind is bool or kind is int or kind is Decimal or not (_is_object(val) or _is_array(val)):
                emit(f"  {text} = {self.scalar(val, text)}")
                continue
            else:
                is_object = _is_object(val)
            if is_object:
                keys = list(val)
                if um:
                    keys.extend(_marked_keys(um, val))
                if sm:
                    keys.extend(k for k in _marked_keys(sm, val) if k not in keys)
                if not keys:
                    emit(f"  {text} = {_EMPTY_OBJECT}")
                    continue
                keys.sort(key=str)
                um_obj = um is not None and um is not False and (type(um) is dict or _is_object(um))
                sm_obj = sm is not None and sm is not False and (type(sm) is dict or _is_object(sm))
                hidden: dict[str, Any] = {}
                hidden_unknown: dict[str, Any] = {}
                for k in reversed(keys):
                    name = k if type(k) is str else str(k)
                    sub = None
                    if trie:
                        sub = trie.get(("k", name))
                        if sub is IGNORED:
                            continue
                    child = val.get(k, NO_VALUE)
                    child_um = um.get(k) if um_obj else None
                    child_sm = sm.get(k) if sm_obj else None
                    if checking and touches(name):
                        hidden[name] = None if child is NO_VALUE else child
                        hidden_unknown[name] = child_um
                        continue
                    push((child, child_um, child_sm, f"{text}[{quote_key(name)}]" if text else _child_path(text, name), sub))
                if hidden:
                    self.hide(text, hidden, hidden_unknown)
                continue
            size = len(val)
            um_list = um is not None and um is not False and (type(um) is list or _is_array(um))
            sm_list = sm is not None and sm is not False and (type(sm) is list or _is_array(sm))
            count = size
            for marks, is_list in ((um, um_list), (sm, sm_list)):
                if is_list and len(marks) > count:
                    # Marks past the end of the value: elements unknown (or hidden) it has no room for.
                    for i in range(len(marks) - 1, count - 1, -1):
                        m = marks[i]
                        if m is True or (m is not None and m is not False and contains_sensitive(m)):
                            count = i + 1
                            break
            if not count:
                emit(f"  {text} = {_EMPTY_ARRAY}")
                continue
            for i in range(count - 1, -1, -1):
                sub = None
                if trie:
                    sub = trie.get(("i", i))
                    if sub is IGNORED:
                        continue
                push((
                    val[i] if i < size else NO_VALUE,
                    um[i] if um_list and i < len(um) else None,
                    sm[i] if sm_list and i < len(sm) else None,
                    f"{text}[{i}]",
                    sub,
                ))


def _str_key(item: tuple[Any, Any]) -> str:
    return str(item[0])


def _sensitive(key: FingerprintKey | None, where: str, path: str, value: Any, unknown: Marks) -> str:
    if key is None:
        return SENSITIVE
    place = where + "\x00" + path
    return f"(sensitive #{key.fingerprint(place, None if value is NO_VALUE else value, unknown)})"
