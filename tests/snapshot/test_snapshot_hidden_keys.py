"""Resource objects whose instance keys hide secrets: told apart by their key's fingerprint where both sides have one.

Without a key, the objects of one resource whose ``for_each`` keys are secrets all show as
``["(sensitive)"]``, and are numbered by what they hold: a value that moved from one to another is no
difference. With a key, each hidden key is a fingerprint, and two snapshots made with the same key
match the objects by it. Where that cannot be (a side without the key, or with another, or written
before keys were fingerprinted), both sides are numbered again as without a key, so they compare
as they always did. No secret shows, in any of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from secret_shapes import KEY_SECRET, SHAPES, leaks
from snapshot_support import KEY, change, plan_of
from test_snapshot_cli import cli

from plancheck import Plan, snapshot
from plancheck.snapshot import _render
from plancheck.snapshot._compare import KEY_CHANGED

OTHER_KEY = "another-snapshot-key-fedcba9876543210"
ONE, TWO, THREE = "zzhid-key-one-4g7h", "zzhid-key-two-9k2m", "zzhid-key-three-3p5q"
HIDDEN_KEYS = {"one": ONE, "two": TWO, "three": THREE}


def keyed(*sizes: int, keys: tuple[str, ...] = (ONE, TWO, THREE), template: str = 'null_resource.a["{}"]') -> Plan:
    """A plan of one object per size, each keyed by a secret (a sensitive variable's value) in that order."""
    return plan_of(
        *(change(template.format(key), ["create"], {"size": size}, index=key) for key, size in zip(keys, sizes, strict=False)),
        variables={name: {"value": value} for name, value in HIDDEN_KEYS.items()},
        configuration={"root_module": {"variables": {name: {"sensitive": True} for name in HIDDEN_KEYS}}},
    )


def marked(*sizes: int) -> Plan:
    """As :func:`keyed`, each object also holding a sensitive ``a_pw`` (first in its block): equal unless fingerprinted."""
    plan = json.loads(json.dumps(keyed(*sizes).raw))  # a copy: the first plan stays as it was read
    for entry in plan["resource_changes"]:
        entry["change"]["after"]["a_pw"] = "same-password"
        entry["change"]["after_sensitive"] = {"a_pw": True}
    return Plan.from_dict(plan)


def deposed(first: str, second: str) -> Plan:
    """Two deposed objects of one address: the sensitive ``a_pw`` (first in a block) and ``n``, which tells them apart."""
    return plan_of(*(change("null_resource.d", ["delete"], {"a_pw": pw, "n": n}, None, {"a_pw": True}, deposed=tag)
                     for n, pw, tag in (("y", first, "00000001"), ("z", second, "00000002"))))


def legacy(plan: Plan, key: str) -> str:
    """The snapshot ``plan`` had with ``key`` before hidden instance keys were fingerprinted."""
    shown = _render._shown
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(_render, "_shown", lambda address, secrets, key=None: shown(address, secrets))
        return snapshot.render(plan, key=key)


def text(build: Callable[[], Plan], key: str | None) -> Callable[[], str]:
    return lambda: snapshot.render(build(), key=key)


A = 'null_resource.a["(sensitive {})"]'
#: With a key on both sides, the objects are labelled in the order of their fingerprints (under KEY: three, two, one).
CASES = [
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(2, 1), KEY),
                 [f"{A.format(1)}: size: 2 -> 1", f"{A.format(2)}: size: 1 -> 2"], id="key-both-moved-is-a-difference"),
    pytest.param(text(lambda: keyed(1, 2, 3), KEY), text(lambda: keyed(3, 1, 2), KEY),
                 [f"{A.format(1)}: size: 3 -> 2", f"{A.format(2)}: size: 2 -> 1", f"{A.format(3)}: size: 1 -> 3"],
                 id="key-both-rotated-three"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(1, 2), KEY), [], id="key-both-same"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(1, 2, 3), KEY),
                 [f"+ {A.format(1)} (create)"], id="key-both-added"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(1), KEY),
                 [f"- {A.format(1)}"], id="key-both-removed"),
    pytest.param(text(lambda: keyed(1), KEY), text(lambda: keyed(2), KEY),
                 ['null_resource.a["(sensitive)"]: size: 1 -> 2'], id="key-both-one-object-unnumbered"),
    pytest.param(text(lambda: keyed(1, 2), None), text(lambda: keyed(2, 1), None), [],
                 id="no-key-moved-is-unseen"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(2, 1), None), [],
                 id="key-file-no-key-plan-moved-is-unseen"),
    pytest.param(text(lambda: keyed(1, 2), None), text(lambda: keyed(2, 1), KEY), [],
                 id="no-key-file-key-plan-moved-is-unseen"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(1, 2), None), [],
                 id="key-file-no-key-plan-same"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(1, 3), None),
                 [f"{A.format(2)}: size: 2 -> 3"], id="key-file-no-key-plan-changed-as-without-key"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(1, 2, 3), None),
                 [f"+ {A.format(3)} (create)"],
                 id="key-file-no-key-plan-added-as-without-key"),
    pytest.param(text(lambda: marked(1, 2, 3), KEY), text(lambda: marked(1, 2, 3), None), [],  # fingerprints order them unlike sizes
                 id="key-file-no-key-plan-sensitive-values-same"),
    pytest.param(text(lambda: marked(1, 2, 3), KEY), text(lambda: marked(1, 2, 3), OTHER_KEY), [KEY_CHANGED],
                 id="other-key-sensitive-values-same"),
    pytest.param(text(lambda: marked(1, 2, 3), KEY), text(lambda: marked(1, 2, 4), None),
                 [f"{A.format(3)}: size: 3 -> 4"], id="key-file-no-key-plan-sensitive-values-changed"),
    pytest.param(text(lambda: keyed(1, 2), KEY), text(lambda: keyed(2, 1), OTHER_KEY), [KEY_CHANGED],
                 id="other-key-moved-is-unseen"),
    pytest.param(lambda: legacy(keyed(1, 2), KEY), text(lambda: keyed(1, 2), KEY), [],
                 id="file-written-before-fingerprinted-keys-same"),
    pytest.param(lambda: legacy(keyed(1), KEY), text(lambda: keyed(1), KEY), [],
                 id="file-written-before-fingerprinted-keys-one-object"),
    pytest.param(lambda: legacy(marked(1, 2, 3), KEY), text(lambda: marked(1, 2, 3), KEY), [],
                 id="file-written-before-fingerprinted-keys-sensitive-values-same"),
    pytest.param(lambda: legacy(keyed(1, 2), KEY), text(lambda: keyed(1, 3), KEY),
                 [f"{A.format(2)}: size: 2 -> 3"], id="file-written-before-fingerprinted-keys-changed"),
    pytest.param(text(lambda: keyed(1, 2, keys=(f"x-{ONE}", f"x-{TWO}")), KEY),
                 text(lambda: keyed(2, 1, keys=(f"x-{ONE}", f"x-{TWO}")), KEY),
                 ['null_resource.a["x-(sensitive)"] (1): size: 2 -> 1', 'null_resource.a["x-(sensitive)"] (2): size: 1 -> 2'],
                 id="key-both-partly-hidden-keys-moved"),
    pytest.param(text(lambda: keyed(1, 2, keys=(f"x-{ONE}", f"x-{TWO}")), KEY),
                 text(lambda: keyed(1, 2, keys=(f"x-{ONE}", f"x-{TWO}")), None), [],
                 id="key-file-no-key-plan-partly-hidden-keys-same"),
    pytest.param(text(lambda: keyed(1, 2, template='module.m["{}"].null_resource.a'), KEY),
                 text(lambda: keyed(2, 1, template='module.m["{}"].null_resource.a'), KEY),
                 ['module.m["(sensitive 1)"].null_resource.a: size: 1 -> 2',
                  'module.m["(sensitive 2)"].null_resource.a: size: 2 -> 1'], id="key-both-module-keys-moved"),
    pytest.param(text(lambda: deposed(TWO, ONE), KEY), text(lambda: deposed(TWO, ONE), None), [],  # under KEY: z, y
                 id="key-file-no-key-plan-deposed-numbered-as-without-key"),
]


@pytest.mark.parametrize(("old", "new", "expected"), CASES)
def test_moved_values_between_hidden_keys(old: Callable[[], str], new: Callable[[], str], expected: list[str]) -> None:
    lines = snapshot.diff(old(), new())
    assert lines == expected
    assert leaks("\n".join(lines), HIDDEN_KEYS) == []


def test_with_a_key_each_hidden_instance_key_is_a_fingerprint_of_it_and_of_the_address_before_it() -> None:
    """One module instance's key shows alike in each of its resources; equal keys of two resources do not."""
    plan = plan_of(
        change(f'module.m["{ONE}"].null_resource.a', ["create"], {}),
        change(f'module.m["{ONE}"].null_resource.b', ["create"], {}),
        change(f'null_resource.c["{ONE}"]', ["create"], {}, index=ONE),
        change(f'null_resource.d["{ONE}"]', ["create"], {}, index=ONE),
        change(f'null_resource.e["x-{TWO}-y"]', ["create"], {}, index=f"x-{TWO}-y"),
        variables={name: {"value": value} for name, value in HIDDEN_KEYS.items()},
        configuration={"root_module": {"variables": {name: {"sensitive": True} for name in HIDDEN_KEYS}}},
    )
    headers = [line for line in snapshot.render(plan, key=KEY).split("\n") if line.startswith("resource ")]
    assert headers == [
        'resource module.m["(sensitive #053c47099990)"].null_resource.a',
        'resource module.m["(sensitive #053c47099990)"].null_resource.b',
        'resource null_resource.c["(sensitive #b7f001679af6)"]',
        'resource null_resource.d["(sensitive #5fcd8938fbb2)"]',
        'resource null_resource.e["x-(sensitive #93fa01d4fca1)-y"]',
    ]
    unkeyed = [line for line in snapshot.render(plan, key=None).split("\n") if line.startswith("resource ")]
    assert [re.sub(r" #[0-9a-f]{12}\)", ")", line) for line in headers] == unkeyed


def test_the_command_line_sees_a_moved_value_only_with_the_key(tmp_path: Path) -> None:
    """The file written in CI with the key; a developer without it sees the plan match, CI sees the move."""
    plan, snap = tmp_path / "plan.json", tmp_path / "plan.snap"
    plan.write_text(json.dumps(keyed(1, 2).raw), encoding="utf-8")
    assert cli("snapshot", str(plan), str(snap), "--update", TFPLANCHECK_SNAPSHOT_KEY=KEY)[0] == 0
    plan.write_text(json.dumps(keyed(2, 1).raw), encoding="utf-8")
    assert cli("snapshot", str(plan), str(snap)) == (0, f"{snap}: the plan matches its snapshot\n", "")
    status, out, err = cli("snapshot", str(plan), str(snap), TFPLANCHECK_SNAPSHOT_KEY=KEY)
    assert (status, out.splitlines()[:-1], err) == (1, [f"{A.format(1)}: size: 2 -> 1", f"{A.format(2)}: size: 1 -> 2"], "")
    assert leaks(out + err + snap.read_text(encoding="utf-8"), HIDDEN_KEYS) == []


def _shaped(sizes: list[int]) -> Plan:
    """A plan with one object per secret shape, keyed by it (a sensitive variable's value), and one keyed by KEY_SECRET."""
    secrets = {**SHAPES, "key": KEY_SECRET}
    return plan_of(
        *(change(f"null_resource.s[{json.dumps(secret, ensure_ascii=False)}]", ["create"], {"size": size}, index=secret)
          for secret, size in zip(secrets.values(), sizes, strict=True)),
        variables={name: {"value": secret} for name, secret in secrets.items()},
        configuration={"root_module": {"variables": {name: {"sensitive": True} for name in secrets}}},
    )


def test_no_hidden_key_of_any_shape_shows_in_a_snapshot_or_a_difference() -> None:
    sizes = list(range(len(SHAPES) + 1))
    old, new = _shaped(sizes), _shaped(sizes[1:] + sizes[:1])
    moved = snapshot.diff(old, new)
    assert len(moved) == len(sizes)  # every value moved, every move shown
    shown = [snapshot.render(old, key=None), snapshot.render(old, key=KEY), *moved,
             *snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=KEY)),
             *snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=None)),
             *snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=OTHER_KEY))]
    assert leaks("\n".join(shown), {**SHAPES, "key": KEY_SECRET}) == []


ADDRESSES = [f'null_resource.r["{ONE}"]', f'null_resource.r["{TWO}"]', f'null_resource.r["{THREE}"]',
             f'null_resource.r["x-{ONE}"]', f'null_resource.r["x-{TWO}"]', f'module.m["{ONE}"].null_resource.r',
             f'module.m["{TWO}"].null_resource.r', f'module.m["{TWO}"].null_resource.q["{THREE}"]',
             'null_resource.r["plain"]', "null_resource.q"]


@st.composite
def hidden_key_plans(draw: st.DrawFn) -> tuple[Plan, Plan]:
    """Two plans of objects keyed by secrets (and not), with sensitive values and deposed objects: the second moved."""
    addresses = draw(st.lists(st.sampled_from(ADDRESSES), unique=True, min_size=1, max_size=6))
    objects = [(address, tag, draw(st.integers(0, 2)), draw(st.sampled_from(["p1", "p2", None])))
               for address in addresses for tag in ([None] + (["00000001", "00000002"] if draw(st.booleans()) else []))]
    sizes = [size for _, _, size, _ in objects]
    moved = draw(st.permutations(sizes))

    def plan(chosen: list[int]) -> Plan:
        changes = []
        for (address, tag, _, pw), size in zip(objects, chosen, strict=True):
            after: dict[str, Any] = {"size": size} if pw is None else {"pw": pw, "size": size}
            extra = {"deposed": tag} if tag else {}
            changes.append(change(address, ["delete"] if tag else ["create"], after, None, {"pw": True}, **extra))
        return plan_of(*changes, variables={name: {"value": value} for name, value in HIDDEN_KEYS.items()},
                       configuration={"root_module": {"variables": {name: {"sensitive": True} for name in HIDDEN_KEYS}}})

    return plan(sizes), plan(list(moved))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hidden_key_plans())
def test_without_comparable_fingerprints_a_snapshot_compares_as_one_made_without_a_key(plans: tuple[Plan, Plan]) -> None:
    old, new = plans
    unkeyed = snapshot.diff(snapshot.render(old, key=None), snapshot.render(new, key=None))
    assert snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=None)) == unkeyed
    assert snapshot.diff(snapshot.render(old, key=None), snapshot.render(new, key=KEY)) == unkeyed
    assert snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=OTHER_KEY)) == [KEY_CHANGED, *unkeyed]
    assert snapshot.diff(legacy(old, KEY), snapshot.render(old, key=KEY)) == []  # a file written before: the same
    keyed = snapshot.diff(snapshot.render(old, key=KEY), snapshot.render(new, key=KEY))
    assert (keyed == []) == (snapshot.render(old, key=KEY) == snapshot.render(new, key=KEY))
    since = snapshot.diff(legacy(old, KEY), snapshot.render(new, key=KEY))
    assert leaks("\n".join([*unkeyed, *keyed, *since]), HIDDEN_KEYS) == []
