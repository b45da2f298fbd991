"""What a snapshot says for each shape of plan, pinned: unknown, sensitive, null/empty/absent, replace, deposed..."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from snapshot_support import KEY, change, output, plan_of

from plancheck import Plan, Resources, snapshot
from plancheck.snapshot._format import HEADER
from tfjsonpath import New

PRIOR_DATA = {"format_version": "1.0", "values": {"root_module": {
    "resources": [
        {"address": "data.null_data_source.now", "mode": "data", "type": "null_data_source", "name": "now",
         "values": {"id": "static", "outputs": {"x": "y"}}, "sensitive_values": {"outputs": {}}},
        {"address": "null_resource.managed", "mode": "managed", "type": "null_resource", "name": "managed",
         "values": {"id": "1"}},
    ],
    "child_modules": [{"address": "module.m", "resources": [
        {"address": "module.m.data.null_data_source.d", "mode": "data", "type": "null_data_source", "name": "d",
         "values": {"id": "m"}}]}],
}}}

CASES = [
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["create"],
                               {"triggers": {"k": "v"}, "list": ["x", None], "tags": {"a": "1"}},
                               {"id": True, "triggers": {"later": True}, "list": [False, True], "tags": True})),
        """\
resource null_resource.a
  action: create
  id = (known after apply)
  list[0] = "x"
  list[1] = (known after apply)
  tags = (known after apply)
  triggers["k"] = "v"
  triggers["later"] = (known after apply)
""",
        id="unknown-attribute-element-and-parent",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["create"],
                               {"pw": "hunter2", "cfg": {"token": "t0ken", "user": "u"}, "keys": ["k1", "k2"],
                                "map": {"a": "s3cret-a"}},
                               {"pending": True, "keys": [False, True]},
                               {"pw": True, "cfg": {"token": True}, "keys": [False, True], "pending": True,
                                "map": True})),
        """\
resource null_resource.a
  action: create
  cfg["token"] = (sensitive)
  cfg["user"] = "u"
  keys[0] = "k1"
  keys[1] = (sensitive)
  map = (sensitive)
  pending = (sensitive)
  pw = (sensitive)
""",
        id="sensitive-attribute-element-parent-and-unknown",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["create"],
                               {"null": None, "obj": {}, "list": [], "str": "", "zero": 0, "false": False,
                                "nested": {"inner": None, "e": []}})),
        """\
resource null_resource.a
  action: create
  false = false
  list = []
  nested["e"] = []
  nested["inner"] = null
  null = null
  obj = {}
  str = ""
  zero = 0
""",
        id="null-empty-and-absent",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.created", ["create"], {}), change("null_resource.gone", ["delete"], None),
                        change("null_resource.later", ["create"], None, True),
                        change("null_resource.hidden", ["create"], {"a": 1}, None, True)),
        """\
resource null_resource.created
  action: create
  after: {}

resource null_resource.gone
  action: delete
  after: null

resource null_resource.hidden
  action: create
  after: (sensitive)

resource null_resource.later
  action: create
  after: (known after apply)
""",
        id="whole-planned-values",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["delete", "create"], {"triggers": {"b": "2", "a": "1"}, "tags": ["x"]},
                               action_reason="replace_because_cannot_update",
                               replace_paths=[["triggers", "b"], ["triggers", "a"], ["tags", {"k": "v"}, "x"],
                                              ["triggers", "a"]])),
        """\
resource null_resource.a
  action: delete, create
  reason: replace_because_cannot_update
  replace: tags
  replace: triggers["a"]
  replace: triggers["b"]
  tags[0] = "x"
  triggers["a"] = "1"
  triggers["b"] = "2"
""",
        id="replace-paths-sorted-deduplicated-set-steps-cut",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["delete", "create"], {"tags": ["x"]},
                               replace_paths=[["tags", 10**30], ["tags", 0, -1]])),
        """\
resource null_resource.a
  action: delete, create
  replace: tags
  replace: tags[0]
  tags[0] = "x"
""",
        id="replace-paths-cut-at-a-number-no-index-is",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["create"], {"v": "new"}),
                        change("null_resource.a", ["delete"], None, deposed="ffff0002"),
                        change("null_resource.a", ["delete"], {"v": "b"}, deposed="00000001"),
                        change("null_resource.a", ["delete"], {"v": "a"}, deposed="99999999")),
        """\
resource null_resource.a
  action: create
  v = "new"

resource null_resource.a (deposed 1)
  action: delete
  after: null

resource null_resource.a (deposed 2)
  action: delete
  v = "a"

resource null_resource.a (deposed 3)
  action: delete
  v = "b"
""",
        id="deposed-numbered-by-content-not-key",
    ),
    pytest.param(
        lambda: plan_of(change("data.null_data_source.later", ["read"], {"inputs": {}}, {"id": True, "outputs": True},
                               action_reason="read_because_config_unknown"),
                        prior_state=PRIOR_DATA),
        """\
resource data.null_data_source.later
  action: read
  reason: read_because_config_unknown
  id = (known after apply)
  inputs = {}
  outputs = (known after apply)

resource data.null_data_source.now
  action: read (during plan)
  id = "static"
  outputs["x"] = "y"

resource module.m.data.null_data_source.d
  action: read (during plan)
  id = "m"
""",
        id="data-sources-read-during-plan-and-deferred",
    ),
    pytest.param(
        lambda: plan_of(outputs={
            "known": output("10.0.0.1"), "unknown": output(None, unknown=True),
            "secret": output("hunter2", sensitive=True), "null": output(None),
            "nested": output({"a": [1, 2], "b": {}}, unknown={"c": True}), "gone": output(None, actions=("delete",)),
            "part": output({"pw": "x", "ok": "y"}, sensitive={"pw": True})}),
        """\
output gone
  action: delete
  value = null

output known
  action: create
  value = "10.0.0.1"

output nested
  action: create
  value["a"][0] = 1
  value["a"][1] = 2
  value["b"] = {}
  value["c"] = (known after apply)

output null
  action: create
  value = null

output part
  action: create
  value["ok"] = "y"
  value["pw"] = (sensitive)

output secret
  action: create
  value = (sensitive)

output unknown
  action: create
  value = (known after apply)
""",
        id="outputs",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.b", ["update"], {"v": 1}, previous_address="null_resource.a"),
                        deferred_changes=[{"reason": "provider_config_unknown",
                                           "resource_change": change("aws_instance.web", ["create"], {}, {"id": True})}]),
        """\
resource aws_instance.web
  action: create
  deferred: provider_config_unknown
  id = (known after apply)

resource null_resource.b
  action: update
  moved from: null_resource.a
  v = 1
""",
        id="deferred-and-moved",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["create"],
                               {"s": 'say "hi"\nnext\u2028line \u202e', "u": "ключ 🔑", "big": 10**30,
                                "dec": Decimal("1.50"), "neg": -3, "keys": {"a.b": 1, "with space": 2, "": 3, "é": 4},
                                "weird-name": True})),
        """\
resource null_resource.a
  action: create
  big = 1000000000000000000000000000000
  dec = 1.50
  keys[""] = 3
  keys["a.b"] = 1
  keys["with space"] = 2
  keys["é"] = 4
  neg = -3
  s = "say \\"hi\\"\\nnext\\u2028line \\u202e"
  u = "ключ 🔑"
  ["weird-name"] = true
""",
        id="strings-numbers-and-keys-escaped",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a[10]", ["create"], {}), change("null_resource.a[2]", ["create"], {}),
                        change("module.z.null_resource.a", ["create"], {}), change("aws_b.x", ["create"], {}),
                        change('null_resource.e["b"]', ["create"], {}), change('null_resource.e["a"]', ["create"], {}),
                        outputs={"b": output(1), "a": output(2)}),
        """\
resource aws_b.x
  action: create
  after: {}

resource module.z.null_resource.a
  action: create
  after: {}

resource null_resource.a[2]
  action: create
  after: {}

resource null_resource.a[10]
  action: create
  after: {}

resource null_resource.e["a"]
  action: create
  after: {}

resource null_resource.e["b"]
  action: create
  after: {}

output a
  action: create
  value = 2

output b
  action: create
  value = 1
""",
        id="blocks-in-address-order-counts-by-value",
    ),
    pytest.param(
        lambda: plan_of(change("null_resource.a", ["create"], {"p": "hunter2", "q": "x", "r": ["a"], "s": {"k": "v"}},
                               {"r": {"x": True}}, {"p": [True], "q": {"z": True}, "s": [True]})),
        """\
resource null_resource.a
  action: create
  p = (sensitive)
  q = (sensitive)
  r = (known after apply)
  s = (sensitive)
""",
        id="malformed-marks-fail-closed",
    ),
    pytest.param(
        lambda: plan_of(change('null_resource.fe["secret-one"]', ["create"],
                               {"tags": {"secret-one": "x", "secret-two": "y", "ok": "z"}}),
                        change('null_resource.fe["secret-two"]', ["create"], {"v": 2}),
                        change('null_resource.fe["plain"]', ["create"], {"v": 3}),
                        variables={"a": {"value": "secret-one"}, "b": {"value": "secret-two"}},
                        configuration={"root_module": {"variables": {"a": {"sensitive": True},
                                                                     "b": {"sensitive": True}}}}),
        """\
resource null_resource.fe["(sensitive 1)"]
  action: create
  tags["(sensitive)"] = (sensitive)
  tags["ok"] = "z"

resource null_resource.fe["(sensitive 2)"]
  action: create
  v = 2

resource null_resource.fe["plain"]
  action: create
  v = 3
""",
        id="hidden-keys-one-line-hidden-addresses-numbered-by-content",
    ),
    pytest.param(lambda: plan_of(), "", id="empty-plan"),
]


def body(text: str) -> str:
    """The snapshot without its header and comment lines."""
    lines = text.split("\n")
    assert lines[0] == HEADER
    assert lines[1].startswith("# ")
    return "\n".join(lines[3:])


@pytest.mark.parametrize(("build", "expected"), CASES)
def test_render_is_pinned(build: Callable[[], Plan], expected: str) -> None:
    assert body(snapshot.render(build(), key=None)) == expected


def test_header_and_comment_open_every_snapshot() -> None:
    text = snapshot.render(plan_of(), key=None)
    assert text == (
        "# tfplancheck plan snapshot 1\n"
        "# One planned value per line: (known after apply) is unknown, (sensitive) hidden, no line absent.\n"
    )


def test_with_a_key_sensitive_values_are_fingerprints_and_the_key_is_named_by_its_id() -> None:
    plan = plan_of(change("null_resource.a", ["create"], {"pw": "hunter2", "other": "hunter2"}, None,
                          {"pw": True, "other": True}))
    lines = snapshot.render(plan, key=KEY).split("\n")
    assert lines[1] == "# fingerprint key #8d3cd59c"
    assert lines[5:] == [
        "  action: create",
        "  other = (sensitive #edad334b13e8)",  # the same secret at two places: two fingerprints
        "  pw = (sensitive #01224d134e95)",
        "",
    ]


def test_the_environment_key_is_used_and_a_short_key_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = plan_of(change("null_resource.a", ["create"], {"pw": "hunter2"}, None, {"pw": True}))
    monkeypatch.setenv("TFPLANCHECK_SNAPSHOT_KEY", KEY)
    assert snapshot.render(plan) == snapshot.render(plan, key=KEY)
    monkeypatch.setenv("TFPLANCHECK_SNAPSHOT_KEY", "")
    assert "#" not in body(snapshot.render(plan))
    monkeypatch.setenv("TFPLANCHECK_SNAPSHOT_KEY", "too-short")
    with pytest.raises(ValueError, match=r"^plancheck.snapshot: a fingerprint key \(\$TFPLANCHECK_SNAPSHOT_KEY\) "
                                         r"must be at least 16 bytes long, got 9 \(use a random CI secret\)$"):
        snapshot.render(plan)


IGNORE_PLAN = [
    change("null_resource.a", ["create"], {"triggers": {"ts": "2026-01-01", "k": "v"}, "id": "1"},
           replace_paths=[["triggers", "ts"], ["id"]]),
    change("random_id.r", ["create"], {"hex": "abcd"}),
    change("null_resource.b", ["create"], {"triggers": {"ts": "x"}, "id": "2"}),
]


@pytest.mark.parametrize(
    ("ignore", "expected"),
    [
        pytest.param(['triggers["ts"]'], {"null_resource.a": ["id", 'triggers["k"]'], "null_resource.b": ["id"],
                                          "random_id.r": ["hex"]}, id="path-text-everywhere"),
        pytest.param([New("triggers")], {"null_resource.a": ["id"], "null_resource.b": ["id"], "random_id.r": ["hex"]},
                     id="Path-with-its-subtree"),
        pytest.param([Resources(type="random_*")],
                     {"null_resource.a": ["id", 'triggers["k"]', 'triggers["ts"]'], "null_resource.b": ["id", 'triggers["ts"]']},
                     id="selector-leaves-resources-out"),
        pytest.param([(Resources(address="null_resource.b"), "id")],
                     {"null_resource.a": ["id", 'triggers["k"]', 'triggers["ts"]'], "null_resource.b": ['triggers["ts"]'],
                      "random_id.r": ["hex"]}, id="selector-scoped-path"),
        pytest.param(["id", (Resources(type="null_resource"), New("triggers").AtMapKey("k"))],
                     {"null_resource.a": ['triggers["ts"]'], "null_resource.b": ['triggers["ts"]'], "random_id.r": ["hex"]},
                     id="everywhere-and-scoped-together"),
        pytest.param([(Resources(type="null_resource"), "")], {"null_resource.a": [], "null_resource.b": [],
                                                                 "random_id.r": ["hex"]},
                     id="root-path-leaves-every-value-out"),
        pytest.param('triggers["ts"]', {"null_resource.a": ["id", 'triggers["k"]'], "null_resource.b": ["id"],
                                        "random_id.r": ["hex"]}, id="one-entry-alone"),
    ],
)
def test_ignore_leaves_values_and_resources_out(ignore: object, expected: dict[str, list[str]]) -> None:
    found: dict[str, list[str]] = {}
    for block in body(snapshot.render(plan_of(*IGNORE_PLAN), ignore, key=None)).strip("\n").split("\n\n"):
        head, *lines = block.split("\n")
        found[head.removeprefix("resource ")] = [line.strip().split(" = ")[0] for line in lines if " = " in line]
    assert found == expected


def test_ignored_replace_paths_go_too() -> None:
    snap = snapshot.render(plan_of(IGNORE_PLAN[0]), ['triggers["ts"]'], key=None)
    assert "  replace: id\n" in snap
    assert "ts" not in snap


def test_selectors_see_data_sources_read_during_the_plan() -> None:
    plan = plan_of(prior_state=PRIOR_DATA)
    kept = snapshot.render(plan, [Resources(module="module.m")], key=None)
    assert "module.m.data" not in kept
    assert "resource data.null_data_source.now" in kept
    reads = snapshot.render(plan, [(Resources(action="read", mode="data"), "id")], key=None)
    assert 'id = "static"' not in reads
    assert 'outputs["x"] = "y"' in reads


def _nested_plan(depth: int, leaf: str, after_sensitive: str) -> Plan:
    value = '{"a":' * depth + leaf + "}" * depth
    return Plan.from_json(
        '{"format_version": "1.2", "resource_changes": [{"address": "null_resource.a", "type": "null_resource", '
        '"name": "a", "mode": "managed", "provider_name": "null", "change": {"actions": ["create"], "before": null, '
        f'"after": {{"triggers": {value}}}, "after_unknown": {{}}, "before_sensitive": false, '
        f'"after_sensitive": {after_sensitive}}}}}]}}'
    )


@pytest.mark.parametrize(
    ("depth", "after_sensitive", "shown"),
    [
        pytest.param(100, "{}", '"x"', id="within-the-recursion"),
        pytest.param(3000, "{}", '"x"', id="past-the-recursion-limit-unmarked"),
        pytest.param(3000, '{"triggers": {"a": {}}}', '"x"', id="past-the-recursion-limit-marks-near-the-top"),
    ],
)
def test_a_value_of_any_depth_renders_its_one_leaf(depth: int, after_sensitive: str, shown: str) -> None:
    lines = [line for line in snapshot.render(_nested_plan(depth, '"x"', after_sensitive)).splitlines() if line.startswith("  ")]
    assert lines[1:] == ["  triggers" + '["a"]' * depth + f" = {shown}"]
