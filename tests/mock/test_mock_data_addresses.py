"""Per-address ``mock_data`` defaults without Terraform: the passes of a plan, what a plan tells, every refusal.

The servicer is called as Terraform calls it (``Direct``), and the runner's side by the hooks it calls.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mock_support import CLOUD, Direct, cloud_document

from plancheck._terraform.mock.instances import fingerprint
from plancheck._terraform.mock.provider import MockProvider
from plancheck._terraform.mock.schema import read_provider_schema
from plancheck._terraform.providers.planning import MAX_PLAN_PASSES, PlanNotSettled, settled_plan

DEFAULTS = {"cloud_region": {"endpoint": "type"}, "data.cloud_region.two": {"endpoint": "two"},
            "module.*.data.cloud_region.*": {"endpoint": lambda config: "module:" + config["name"]}}


def region(name: str, endpoint: str | None = None) -> dict[str, Any]:
    return {"name": name, "endpoint": endpoint, "zones": None}


def plan_document(*read: tuple[str, dict[str, Any]], deferred: tuple[tuple[str, dict[str, Any], Any], ...] = ()) -> dict[str, Any]:
    """A plan's JSON: data sources read at plan in ``prior_state`` (with the state they got), deferred ones as reads."""
    resources = [{"address": a, "mode": "data", "type": "cloud_region", "provider_name": CLOUD, "values": v} for a, v in read]
    changes = [{"address": a, "mode": "data", "type": "cloud_region", "provider_name": CLOUD,
                "change": {"actions": ["read"], "after": after, "after_unknown": unknown}} for a, after, unknown in deferred]
    return {"prior_state": {"values": {"root_module": {"resources": resources}}}, "resource_changes": changes}


class Mock:
    """A mock's servicer and the hooks the runner calls on it."""

    def __init__(self, defaults: dict[str, Any] = DEFAULTS) -> None:
        self.mock = MockProvider(cloud_document(), CLOUD, mock_data=defaults)
        self.direct = Direct(self.mock)
        assert self.mock._latest is not None
        self.instance = self.mock._latest

    def response(self, name: str) -> Any:
        request = self.direct.pb.ReadDataSource.Request(type_name="cloud_region", config=self.direct.dv(region(name)))
        return self.direct.servicer.ReadDataSource(request, None)

    def read(self, name: str) -> dict[str, Any]:
        response = self.response(name)
        assert not response.diagnostics, [d.summary for d in response.diagnostics]
        return self.direct.value(response.state)  # type: ignore[no-any-return]

    def plan(self, reads: dict[str, str], deferred: tuple[tuple[str, dict[str, Any], Any], ...] = ()) -> tuple[bool, bool]:
        """One pass: read each address's configuration; whether the pass asks for its plan, and for another pass."""
        self.instance.plancheck_planning(True)
        states = {address: self.read(name) for address, name in reads.items()}
        wanted = self.instance.plancheck_planning(False)
        return wanted, self.instance.plancheck_plan(plan_document(*states.items(), deferred=deferred))


def test_a_pass_with_provisional_reads_asks_for_another_which_reads_by_address() -> None:
    mock = Mock()
    reads = {"data.cloud_region.one": "a", "data.cloud_region.two": "b", 'module.m["k"].data.cloud_region.x': "c"}
    assert mock.plan(reads) == (True, True)
    assert mock.plan(reads) == (True, False)
    # Outside a plan (apply, refresh, the plans after apply) a read placed by the plan keeps its address's defaults.
    assert [mock.read(n)["endpoint"] for n in ("a", "b", "c")] == ["type", "two", "module:c"]


def test_a_pass_whose_reads_all_get_the_type_defaults_needs_no_second_plan() -> None:
    mock = Mock()
    assert mock.plan({"data.cloud_region.one": "a", "data.cloud_region.three": "c"}) == (True, False)


def test_a_type_without_address_keys_is_never_provisional() -> None:
    mock = Mock({"cloud_region": {"endpoint": "type"}})
    assert mock.plan({"data.cloud_region.one": "a"}) == (False, False)
    mock.instance.plancheck_planning(True)
    mock.read("a")
    assert mock.instance.plancheck_planning(False) is False


def test_a_stale_map_is_checked_again_a_renamed_data_source_gets_its_new_address() -> None:
    mock = Mock()
    assert mock.plan({"data.cloud_region.two": "a"}) == (True, True)
    assert mock.plan({"data.cloud_region.two": "a"}) == (True, False)
    # The next configuration calls the same data source "one": the old map says "two", the plan says otherwise.
    assert mock.plan({"data.cloud_region.one": "a"}) == (True, True)
    assert mock.plan({"data.cloud_region.one": "a"}) == (True, False)
    assert mock.read("a")["endpoint"] == "type"


def test_a_read_deferred_to_apply_gets_the_defaults_of_the_read_the_plan_names() -> None:
    mock = Mock()
    deferred = (("data.cloud_region.two", {}, {"name": True, "endpoint": True, "zones": True}),)
    assert mock.plan({}, deferred) == (False, False)
    assert mock.read("known-at-apply")["endpoint"] == "two"
    # The plans after apply read it at plan: the apply placed its configuration.
    assert mock.plan({"data.cloud_region.two": "known-at-apply"}) == (True, False)


@given(st.lists(st.text(max_size=3), max_size=5), st.randoms())
def test_a_fingerprint_ignores_the_order_of_sets_only(tags: list[str], rng: Any) -> None:
    doc = {"data_source_schemas": {"t": {"block": {"attributes": {
        "tags": {"type": ["set", "string"], "optional": True}, "order": {"type": ["list", "string"], "optional": True}}}}}}
    block = read_provider_schema(doc, "a/b").data_sources["t"].block
    shuffled = list(tags)
    rng.shuffle(shuffled)
    assert fingerprint(block, {"tags": tags, "order": []}) == fingerprint(block, {"tags": shuffled, "order": []})
    if shuffled != tags:
        assert fingerprint(block, {"tags": [], "order": tags}) != fingerprint(block, {"tags": [], "order": shuffled})


MOCK = "The mock of registry.terraform.io/acme/cloud"
REFUSED = [
    pytest.param(
        "same-configuration",
        "Cannot tell data.cloud_region.one from data.cloud_region.two: their defaults differ",
        f"{MOCK} finds the address of a data source read by its configuration, and these two cloud_region data sources "
        'are read with the same one, while data.cloud_region.one gets mock_data["cloud_region"] and data.cloud_region.two '
        'gets mock_data["data.cloud_region.two"]. It will not guess which is which: give them configurations that '
        "differ, or the same defaults.",
        id="indistinct-at-plan",
    ),
    pytest.param(
        "deferred-twins",
        "Cannot tell data.cloud_region.one from data.cloud_region.two: their defaults differ",
        f"{MOCK} finds the address of a data source read by its configuration, and these two cloud_region data sources "
        'are read with the same one, while data.cloud_region.one gets mock_data["cloud_region"] and data.cloud_region.two '
        'gets mock_data["data.cloud_region.two"]. It will not guess which is which: give them configurations that '
        "differ, or the same defaults.",
        id="indistinct-at-apply",
    ),
    pytest.param(
        "never-told",
        "Cannot read cloud_region: the mock of registry.terraform.io/acme/cloud was not told the plan",
        "mock_data has address keys for this type; a mock learns the addresses of its data sources from the plans the "
        "acceptance runner and tfplancheck mock-plan read, so these defaults need one of them.",
        id="not-told",
    ),
    pytest.param(
        "not-in-the-plan",
        "Cannot read cloud_region: no data source of the plan has this configuration",
        f"{MOCK} finds the address of a data source read by its configuration (a data source the plan read) or by the "
        "values the plan knows of a read it defers to apply, and no cloud_region of the plan has them, so it cannot say "
        "which address (and so which mock_data key) applies.",
        id="not-in-the-plan",
    ),
    pytest.param(
        "unplaced-in-a-pass",
        "Cannot read cloud_region: no data source of the plan has this configuration",
        f"{MOCK} finds the address of a data source read by its configuration (a data source the plan read) or by the "
        "values the plan knows of a read it defers to apply, and no cloud_region of the plan has them, so it cannot say "
        "which address (and so which mock_data key) applies.",
        id="read-in-a-pass-the-plan-does-not-name",
    ),
]


@pytest.mark.parametrize(("case", "summary", "detail"), REFUSED)
def test_a_read_whose_address_cannot_be_told_is_refused(case: str, summary: str, detail: str) -> None:
    mock = Mock()
    if case == "same-configuration":
        assert mock.plan({"data.cloud_region.one": "same", "data.cloud_region.two": "same"}) == (True, True)
        mock.instance.plancheck_planning(True)
    elif case == "deferred-twins":
        unknown = {"name": True, "endpoint": True, "zones": True}
        mock.plan({}, (("data.cloud_region.one", {}, unknown), ("data.cloud_region.two", {}, unknown)))
    elif case == "not-in-the-plan":
        mock.plan({"data.cloud_region.one": "a"})
    elif case == "unplaced-in-a-pass":
        mock.instance.plancheck_planning(True)
        mock.read("same")
        mock.instance.plancheck_planning(False)
        assert mock.instance.plancheck_plan(plan_document()) is True
        mock.instance.plancheck_planning(True)
    [diagnostic] = mock.response("same").diagnostics
    assert (diagnostic.summary, diagnostic.detail) == (summary, detail)


def test_planning_that_never_settles_stops_after_the_bound() -> None:
    class Restless:
        def plancheck_planning(self, active: bool) -> bool:
            return not active

        def plancheck_plan(self, document: Any) -> bool:
            return True

    plans: list[int] = []
    with pytest.raises(PlanNotSettled) as info:
        settled_plan([Restless()], lambda: plans.append(1), dict, always_show=False)
    assert len(plans) == MAX_PLAN_PASSES
    assert str(info.value) == (
        f"the mocked data sources did not settle after {MAX_PLAN_PASSES} plans: each plan gave some data source other "
        "defaults than its address gets (a chain of data sources deeper than that, each configured from the one before)"
    )


def test_a_plan_without_planning_providers_is_made_once_and_read_only_when_asked() -> None:
    shown: list[int] = []
    assert settled_plan([object()], lambda: "result", lambda: shown.append(1) or {}, always_show=False) == ("result", None)
    assert shown == []
    assert settled_plan([object()], lambda: "result", lambda: {"a": 1}, always_show=True) == ("result", {"a": 1})
