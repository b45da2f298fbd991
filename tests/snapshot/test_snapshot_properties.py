"""Laws of snapshots: one text per plan whatever its order, text and structure round-trip, diff(x, x) is empty,
and the fast secret detector answers exactly what Secrets.touches answers."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from plancheck import Plan, snapshot
from plancheck._redact import Secrets
from plancheck.snapshot._compare import differences
from plancheck.snapshot._format import parse_snapshot
from plancheck.snapshot._secrets import ValueSecrets

KEY = "property-test-key-0123456789"

keys = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=6)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.text(max_size=12),
    st.sampled_from(["", "hunter2-secret", "x hunter2-secret y", "(sensitive)", "(known after apply)", "{}", "null"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(keys, inner, max_size=4)), max_leaves=12)


@st.composite
def marks_for(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """A marks tree that fits ``value``: true here, or the same shape with marks below, or nothing."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return True
    if choice == 1 or depth > 4:
        return False
    if isinstance(value, dict):
        return {k: draw(marks_for(v, depth + 1)) for k, v in value.items() if draw(st.booleans())}
    if isinstance(value, list):
        return [draw(marks_for(v, depth + 1)) for v in value]
    return False


@st.composite
def plans(draw: st.DrawFn) -> dict[str, Any]:
    changes = []
    addresses = draw(st.lists(st.sampled_from(["a.b", "a.c", 'a.d["x"]', "a.e[2]", "a.e[10]", "module.m.a.b",
                                               "data.x.y"]), unique=True, max_size=5))
    for address in addresses:
        after = draw(st.dictionaries(keys, values, max_size=5))
        changes.append({
            "address": address,
            "mode": "data" if address.startswith("data.") else "managed",
            "change": {"actions": draw(st.sampled_from([["create"], ["update"], ["delete", "create"], ["read"]])),
                       "before": None, "after": after, "after_unknown": draw(marks_for(after)) or {},
                       "after_sensitive": draw(marks_for(after)) or {}},
        })
        if draw(st.booleans()):
            changes.append({"address": address, "deposed": draw(st.sampled_from(["00000001", "ffffffff"])),
                            "change": {"actions": ["delete"], "before": None, "after": draw(values)}})
    outputs = {name: {"actions": ["create"], "after": (v := draw(values)), "after_unknown": draw(marks_for(v)) or False,
                      "after_sensitive": draw(marks_for(v)) or False}
               for name in draw(st.lists(st.sampled_from(["o1", "o2", "o3"]), unique=True, max_size=3))}
    return {
        "format_version": "1.2",
        "variables": {"pw": {"value": "hunter2-secret"}},
        "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
        "resource_changes": changes,
        "output_changes": outputs,
    }


def _shuffled(document: Any, rng: random.Random) -> Any:
    """The same document with every object's keys, and resource_changes, in another order."""
    if isinstance(document, dict):
        items = list(document.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    if isinstance(document, list):
        return [_shuffled(v, rng) for v in document]
    return document


PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(plans(), st.integers(0, 2**32))
def test_the_same_plan_always_renders_the_same_bytes(document: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    shuffled = _shuffled(copy.deepcopy(document), rng)
    rng.shuffle(shuffled["resource_changes"])
    # Two deposed objects of one address with the same key would be the same object: keep keys apart.
    deposed = [(rc["address"], rc.get("deposed")) for rc in shuffled["resource_changes"] if rc.get("deposed")]
    assume(len(deposed) == len(set(deposed)))
    for key in (None, KEY):
        first = snapshot.render(Plan.from_dict(document), key=key)
        assert snapshot.render(Plan.from_dict(shuffled), key=key) == first
        assert "hunter2-secret" not in first


@PROPERTY_SETTINGS
@given(plans())
def test_text_and_structure_round_trip_and_a_snapshot_has_no_difference_from_itself(document: dict[str, Any]) -> None:
    for key in (None, KEY):
        text = snapshot.render(Plan.from_dict(document), key=key)
        parsed = parse_snapshot(text)
        assert parsed.text() == text
        assert differences(parsed, parsed) == []
        assert snapshot.diff(text, Plan.from_dict(document), key=key) == []


@PROPERTY_SETTINGS
@given(plans(), plans())
def test_diff_is_empty_exactly_when_the_texts_say_the_same(a: dict[str, Any], b: dict[str, Any]) -> None:
    text_a = snapshot.render(Plan.from_dict(a), key=KEY)
    text_b = snapshot.render(Plan.from_dict(b), key=KEY)
    lines = snapshot.diff(text_a, text_b)
    assert (lines == []) == (text_a == text_b)
    assert lines == sorted(lines, key=lines.index)  # deterministic: the same call gives the same list
    assert snapshot.diff(text_a, text_b) == lines


pieces = st.sampled_from(["arn:aws:s3:::", "hunter2", "correct horse", "pw", "x", " ", '"', "\\", "…", "...", "\n",
                          "&", "é", "0123456789", "secret-value-1", "abc"])
texts = st.lists(st.one_of(pieces, st.text(max_size=4)), max_size=8).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(texts, min_size=1, max_size=6), st.lists(texts, max_size=12), st.data())
def test_the_fast_detector_answers_what_secrets_touches_answers(
    secret_values: list[str], probes: list[str], data: st.DataObject
) -> None:
    secrets = Secrets(secret_values)
    fast = ValueSecrets(secrets)
    # Pieces of the secrets, cut anywhere and set among other text: fragments at cuts and away from them.
    for secret in secret_values:
        if secret:
            start = data.draw(st.integers(0, len(secret) - 1))
            end = data.draw(st.integers(start, len(secret)))
            probes.append(data.draw(texts) + secret[start:end] + data.draw(texts))
    for text in probes + [s[1:-1] for s in secret_values] + [f"x{s}y" for s in secret_values]:
        assert fast.touches(text) == secrets.touches(text), (secret_values, text)


@settings(max_examples=150, deadline=None)
@given(st.lists(texts, min_size=1, max_size=6), st.lists(texts, max_size=12))
def test_a_remembered_scrub_gives_what_secrets_scrub_gives(secret_values: list[str], probes: list[str]) -> None:
    secrets = Secrets(secret_values)
    fast = ValueSecrets(secrets)
    for text in probes + secret_values + [f"x{s}y" for s in secret_values]:
        assert fast.scrub(text) == secrets.scrub(text), (secret_values, text)
        assert fast.scrub(text) == secrets.scrub(text)  # the second answer is the remembered one


# -- issue #33: keys spelled as the renderer's own words ----------------------------------------------------------

#: Keys a snapshot line could confuse with its own spellings: the hidden keys' step, the value words, a secret
#: (a key touching one is hidden), the separators of a line and of a block.
RESERVED_KEYS = ["(sensitive)", "(known after apply)", "(sensitive #0123456789ab)", "hunter2-secret", "x hunter2-secret",
                 "{}", "[]", "null", "after:", "action", "value", " = ", "a = b", "#", "resource a.b", "output o1", "\n",
                 '"]', "[0]", ""]
reserved_keys = st.one_of(st.sampled_from(RESERVED_KEYS), keys)
reserved_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                                st.dictionaries(reserved_keys, inner, max_size=4)),
                               max_leaves=10)


@st.composite
def reserved_plans(draw: st.DrawFn) -> dict[str, Any]:
    after = draw(st.dictionaries(reserved_keys, reserved_values, max_size=4))
    return {
        "format_version": "1.2",
        "variables": {"pw": {"value": "hunter2-secret"}},
        "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
        "resource_changes": [{"address": "a.b", "mode": "managed", "change": {
            "actions": ["create"], "before": None, "after": after, "after_unknown": draw(marks_for(after)) or {},
            "after_sensitive": draw(marks_for(after)) or {}}}],
    }


def _one_leaf_changed(document: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["resource_changes"][0]["change"]["after"]["zz changed"] = 1
    return changed


@PROPERTY_SETTINGS
@given(reserved_plans())
def test_any_plan_with_reserved_keys_round_trips_and_diffs_without_raising(document: dict[str, Any]) -> None:
    plan = Plan.from_dict(document)
    other = Plan.from_dict(_one_leaf_changed(document))
    assert snapshot.diff(plan, plan) == []
    assert all(isinstance(line, str) for line in snapshot.diff(plan, other))  # two valid plans: never a raise
    for key in (None, KEY):
        text = snapshot.render(plan, key=key)
        assert parse_snapshot(text).text() == text
        assert snapshot.diff(text, plan, key=key) == []
        assert "hunter2-secret" not in text


def test_a_key_spelled_sensitive_beside_a_hidden_key_is_hidden_with_it() -> None:
    """Red team (#33): the two lines had one path, triggers["(sensitive)"]: diff() of two valid plans raised."""
    def plan(value: str) -> Plan:
        return Plan.from_dict({
            "format_version": "1.2",
            "variables": {"pw": {"value": "hunter2-secret"}},
            "configuration": {"root_module": {"variables": {"pw": {"sensitive": True}}}},
            "resource_changes": [{"address": "a.b", "mode": "managed", "change": {
                "actions": ["create"], "after": {"triggers": {"(sensitive)": value, "hunter2-secret": "y", "z": 1}}}}],
        })

    assert snapshot.render(plan("x")).splitlines()[-2:] == ['  triggers["(sensitive)"] = (sensitive)', '  triggers["z"] = 1']
    assert snapshot.diff(plan("x"), plan("x2")) == ['a.b: triggers["(sensitive)"]: (sensitive) -> (sensitive, changed)']
