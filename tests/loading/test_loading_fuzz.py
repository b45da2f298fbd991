"""Fuzzing real documents: whatever is broken, only the documented typed errors come out.

Real plans, states and configurations (the shared corpus, else the project's fixtures) are
broken at random: a value replaced by a number, a string, a number Decimal cannot hold, a
5000-digit integer, a 3000-level nesting or a value of another type; a key dropped; the
text cut short or given a bad byte. Then, with both parsers (and every loading route):

* loading gives a document or a ``DocumentFormatError`` (``PlanFormatError``,
  ``StateFormatError``, ``ConfigFormatError``), nothing else;
* every route gives the same verdict, and an accepted document is the same value for value;
* what reads a loaded document later (looking a resource change up, iterating changes and
  outputs, collecting secrets) raises nothing but those errors either.

(``test_loading_mutations`` checks, on structured mutations, that the validators agree and
that the first error is the same on every route; this test breaks anything, anywhere.)
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from loading_support import CORPUS, REPO, ROUTES, corpus_files, exactly_equal, load_fully, route, same_verdict

from plancheck._documents.plan import Plan
from plancheck._documents.sensitive import collect_plan_secrets, collect_state_secrets
from plancheck._documents.state import State
from plancheck._errors import PlanFormatError, StateFormatError
from plancheck.tfconfig import Config, ConfigFormatError, parse_config

FIXTURES = REPO / "tests" / "fixtures" / "plans"


def _documents(kind: str, fallback: list[Path]) -> list[bytes]:
    paths = corpus_files(kind) or fallback
    return [path.read_bytes() for path in paths]


PLANS = _documents("plans", sorted(FIXTURES.glob("*.json")))
STATES = _documents("states", []) or [
    json.dumps({"format_version": "1.0", "values": {
        "outputs": {"pw": {"value": "s3cret", "sensitive": True}},
        "root_module": {"resources": [{"address": "a.b", "values": {"k": "v", "n": [1, 2.5]},
                                       "sensitive_values": {"n": [False, True]}}],
                        "child_modules": [{"address": "module.m", "resources": [{"address": "module.m.a.b"}]}]},
    }}).encode()
]  # fmt: skip
CONFIGS = [p.read_bytes() for p in sorted((CORPUS / "configs").glob("*.json"))] if (CORPUS / "configs").is_dir() else [
    b'{"variable": {"pw": {"sensitive": true}}, "locals": {"n": [1, 2.5, {"a": null}]},'
    b' "resource": {"null_resource": {"a": {"triggers": {"k": "${var.pw}"}}}}}'
]  # fmt: skip

# Values Python cannot write as JSON (or writes slowly) go in as markers, replaced in the text.
_MARKERS = {
    "\x00huge-exponent\x00": "1e1000000000000000000",
    "\x00long-integer\x00": "9" * 5000,
    "\x00deep\x00": "[" * 3000 + "{}" + "]" * 3000,
    "\x00nan\x00": "NaN",
}
_REPLACEMENTS = st.sampled_from(
    [0, 1, -1, 1.5, 2**70, "true", "", "x", None, True, False, [], {}, [1, "a"], {"a": 1}, *_MARKERS]
)


def _paths(document: Any) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], Any]] = [((), document)]
    while stack:
        path, value = stack.pop()
        if path:
            out.append(path)
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in enumerate(value))
    return sorted(out, key=repr)


@st.composite
def broken(draw: st.DrawFn, sources: list[bytes]) -> bytes:
    """A real document broken in one to three places, then perhaps cut short or given a bad byte."""
    text = draw(st.sampled_from(sources))
    document = json.loads(text)  # floats: only the structure is broken here, and floats dump as JSON
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(draw(_REPLACEMENTS))  # never the strategy's own object
    data = json.dumps(document)
    for marker, literal in _MARKERS.items():
        data = data.replace(json.dumps(marker), literal)
    raw = data.encode()
    how = draw(st.sampled_from(["keep", "keep", "truncate", "insert"]))
    if how == "truncate" and raw:
        raw = raw[: draw(st.integers(0, len(raw) - 1))]
    elif how == "insert":
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.sampled_from([b"\xff", b"\x00", b"}", b",", b"NaN", b'"', b"\xc3"])) + raw[at:]
    return raw


_FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _read_plan(plan: Plan) -> None:
    """Everything that reads a plan after loading; only format errors may come out of it."""
    for address in list(plan.addresses()):
        plan.resource_change(address).change.after  # noqa: B018
    for rc in plan.resource_changes:
        rc.change.after_sensitive  # noqa: B018
        rc.change.replace_paths  # noqa: B018
    for name in plan.output_changes:
        plan.output_change(name).change.after_unknown  # noqa: B018
    plan.variables  # noqa: B018
    secrets = collect_plan_secrets(plan.raw)
    secrets.scrub("nothing secret here")
    prior = plan.raw.get("prior_state")
    if isinstance(prior, dict) and "format_version" in prior:
        # A prior state may break the state schema's own rules (its format_version): a typed error.
        with contextlib.suppress(StateFormatError):
            State.from_dict(prior)


@_FUZZ
@given(broken(PLANS))
def test_a_broken_plan_gives_a_plan_or_a_plan_format_error(data: bytes) -> None:
    outcomes = {name: load_fully(name, data) for name in ROUTES}
    reference = outcomes["stdlib"]
    for name, got in outcomes.items():
        assert isinstance(got, (Plan, PlanFormatError)), (name, got)
        assert same_verdict(name, got, reference), (name, got, reference)
        if isinstance(got, Plan):
            with route(name):
                try:
                    _read_plan(got)
                except PlanFormatError:
                    assert name == "fast-lazy", name  # everything else was validated at load


@_FUZZ
@given(broken(STATES))
def test_a_broken_state_gives_a_state_or_a_state_format_error(data: bytes) -> None:
    outcomes: dict[str, Any] = {}
    for parser in ("stdlib", "fast"):
        with route(parser) as name:
            try:
                outcomes[parser] = State.from_json(data, source="state.json", parser=name)
            except StateFormatError as exc:
                outcomes[parser] = exc
    stdlib, fast = outcomes["stdlib"], outcomes["fast"]
    if isinstance(stdlib, StateFormatError):
        assert isinstance(fast, StateFormatError)
        assert str(fast) == str(stdlib)
        return
    assert isinstance(fast, State)
    assert exactly_equal(fast.raw, stdlib.raw)
    for state in (stdlib, fast):
        for resource in state.resources:
            assert state.resource(resource.address, deposed=resource.deposed).raw is not None
            resource.values  # noqa: B018
        for name in state.outputs:
            state.output(name).sensitive  # noqa: B018
        collect_state_secrets(state.raw).scrub("text")


def _parse_config(data: bytes) -> Config | ConfigFormatError:
    try:
        return parse_config(data, filename="main.tf.json")
    except ConfigFormatError as exc:
        return exc


@_FUZZ
@given(broken(CONFIGS))
def test_a_broken_config_gives_a_config_or_a_config_format_error(data: bytes) -> None:
    config = _parse_config(data)
    if isinstance(config, ConfigFormatError):
        assert config.file == "main.tf.json"
        return
    for block in config.blocks:
        assert block.file == "main.tf.json"
    assert isinstance(config.locals, dict)
    assert isinstance(config.variables, dict)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(broken(PLANS))
def test_a_broken_plan_read_from_a_file_gives_only_typed_errors(tmp_path_factory: Any, data: bytes) -> None:
    from plancheck._documents.plan import load_plan

    path = Path(tmp_path_factory.mktemp("fuzz")) / "plan.json"
    path.write_bytes(data)
    for parser in ("stdlib", "fast"):
        with contextlib.suppress(PlanFormatError, OSError):
            load_plan(path, parser=parser)
