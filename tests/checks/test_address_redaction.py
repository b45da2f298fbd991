"""A secret inside an address (a ``for_each`` key, a module key) never shows, wherever an address is shown.

Terraform writes the key of ``for_each = nonsensitive(...)`` into the address unmarked:
``null_resource.fe["<the secret>"]``. Every address plancheck shows goes through one function,
:func:`plancheck._documents.sensitive.shown_address`, with the secrets of its document: reprs, lookup errors and
their "closest" suggestions, check failures, deferred changes, state resources (module keys too)
and ``tfplancheck query`` (text and JSON, the address column laid out on what is shown). Looking an
address up still takes the real address.

Rows: an id, something that produces the texts a user sees, and (where the text is fixed) the
exact text. Each secret is planted in one way only: ``KEY`` is a sensitive variable's value used
as a for_each key; ``ATTR`` is a sensitive attribute's value used as one; ``STATE_KEY`` is a
state's sensitive output used as a resource key and as a module key.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

import pytest
from clirun import cli

from plancheck import ExpectResourceAction, Plan, ResourceAction, State, revealing_sensitive
from plancheck import knownvalue as kv
from plancheck._documents.plan import ResourceChange, ResourceNotFoundError
from plancheck._documents.sensitive import shown_address
from plancheck._redact import Secrets
from plancheck.statecheck import ExpectKnownValue as StateExpectKnownValue
from tfjsonpath import New

KEY = "fe-Secret-4Hk8"
ATTR = "attr-Secret-2Wd6"
STATE_KEY = "st-Secret-7Lm1"
SECRETS = (KEY, ATTR, STATE_KEY)

FE = f'null_resource.fe["{KEY}"]'
IN_MODULE = f'module.m["{KEY}"].null_resource.x'
BY_ATTR = f'null_resource.attr["{ATTR}"]'


def plan_document(key: str = KEY) -> dict[str, Any]:
    """A plan whose addresses hold a sensitive variable's value (``key``) and a sensitive attribute's."""

    def change(address: str, actions: list[str], **extra: Any) -> dict[str, Any]:
        return {"address": address, "mode": "managed", "type": "null_resource", **extra,
                "change": {"actions": actions, "before": None, "after": {}, "after_unknown": {}, "after_sensitive": {}}}

    return {
        "format_version": "1.2",
        "variables": {"keyvar": {"value": key}},
        "configuration": {"root_module": {"variables": {"keyvar": {"sensitive": True}}}},
        "resource_changes": [
            change(f'null_resource.fe["{key}"]', ["create"], name="fe", index=key),
            change(f'null_resource.fe["{key}"]', ["delete"], name="fe", index=key, deposed="00000001"),
            change(f'module.m["{key}"].null_resource.x', ["create"], name="x", module_address=f'module.m["{key}"]'),
            {"address": f'null_resource.attr["{ATTR}"]', "mode": "managed", "type": "null_resource",
             "name": "attr", "index": ATTR,
             "change": {"actions": ["update"], "before": {"token": ATTR}, "after": {"token": ATTR},
                        "before_sensitive": {"token": True}, "after_sensitive": {"token": True}}},
            change("null_resource.plain", ["no-op"], name="plain"),
        ],
        "resource_drift": [{"address": f'null_resource.fe["{key}"]', "change": {"actions": ["update"]}}],
        "deferred_changes": [
            {"reason": "resource_config_unknown",
             "resource_change": {"address": f'null_resource.later["{key}"]', "change": {"actions": ["create"]}}}
        ],
    }


def state_document() -> dict[str, Any]:
    """A state whose resource key and module key are the value of its sensitive output."""
    return {
        "format_version": "1.0",
        "values": {
            "outputs": {"token": {"value": STATE_KEY, "sensitive": True}},
            "root_module": {
                "resources": [{"address": f'null_resource.fe["{STATE_KEY}"]', "index": STATE_KEY, "values": {"id": "1"}}],
                "child_modules": [{
                    "address": f'module.m["{STATE_KEY}"]',
                    "resources": [{"address": f'module.m["{STATE_KEY}"].null_resource.x', "values": {"id": "2"}}],
                }],
            },
        },
    }


def _plan() -> Plan:
    return Plan.from_dict(plan_document())


def _state() -> State:
    return State.from_dict(state_document())


def _raised(call: Callable[[], object]) -> list[str]:
    """The texts of the LookupError ``call`` raises: str, repr, and every structured field."""
    with pytest.raises(ResourceNotFoundError) as caught:
        call()
    error = caught.value
    return [str(error), repr(error), error.address, *error.closest, error.where]


def _query(tmp_path: FsPath, *args: str, document: dict[str, Any] | None = None) -> list[str]:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(document or plan_document()), encoding="utf-8")
    _, out, err = cli("query", str(plan_file), *args, stdin=None, environ={})
    return [out, err]


@dataclass(frozen=True)
class Shown:
    id: str
    texts: Callable[[FsPath], list[str]]  # every text this way of showing an address produces


SHOWN = [
    Shown("plan-resource-changes-repr", lambda _: [repr(_plan().resource_changes)]),
    Shown("plan-resource-change-repr", lambda _: [repr(_plan().resource_change(FE))]),
    Shown("plan-module-key-repr", lambda _: [repr(_plan().resource_change(IN_MODULE))]),
    Shown("plan-attr-key-repr", lambda _: [repr(_plan().resource_change(BY_ATTR))]),
    Shown("plan-deposed-repr", lambda _: [repr(_plan().resource_change(FE, deposed="00000001"))]),
    Shown("plan-drift-repr", lambda _: [repr(_plan().resource_drift)]),
    Shown("plan-deferred-repr", lambda _: [repr(_plan().deferred_changes),
                                            repr(_plan().deferred_changes[0].resource_change)]),
    Shown("plan-miss-closest", lambda _: _raised(lambda: _plan().resource_change('null_resource.fe["nope"]'))),
    Shown("plan-miss-near-module", lambda _: _raised(lambda: _plan().resource_change('module.m["x"].null_resource.x'))),
    Shown("plan-miss-deposed-key", lambda _: _raised(lambda: _plan().resource_change(FE, deposed="zz"))),
    Shown("plan-miss-typed-secret", lambda _: _raised(lambda: _plan().resource_change(f'null_resource.gone["{KEY}"]'))),
    Shown("state-resources-repr", lambda _: [repr(_state().resources)]),
    Shown("state-resource-repr", lambda _: [repr(_state().resource(f'null_resource.fe["{STATE_KEY}"]'))]),
    Shown("state-module-key-repr",
          lambda _: [repr(_state().resource(f'module.m["{STATE_KEY}"].null_resource.x'))]),
    Shown("state-miss-closest", lambda _: _raised(lambda: _state().resource('null_resource.fe["nope"]'))),
    Shown("check-failure-closest", lambda _: [str(e) for e in _failures(ExpectResourceAction(
        'null_resource.fe["nope"]', ResourceAction.Create), _plan())]),
    Shown("state-check-failure-closest", lambda _: [str(e) for e in StateExpectKnownValue(
        'module.m["nope"].null_resource.x', New("id"), kv.StringExact("1")).failures(_state())]),
    Shown("query-list-text", lambda tmp: _query(tmp)),
    Shown("query-list-json", lambda tmp: _query(tmp, "--format", "json")),
    Shown("query-closest-text", lambda tmp: _query(tmp, 'null_resource.fe["nope"]')),
    Shown("query-closest-json", lambda tmp: _query(tmp, 'null_resource.fe["nope"]', "--format", "json")),
    Shown("query-value-text", lambda tmp: _query(tmp, FE)),
    Shown("query-value-json", lambda tmp: _query(tmp, FE, "--format", "json")),
    Shown("query-module-value-json", lambda tmp: _query(tmp, IN_MODULE, "--format", "json")),
]


def _failures(check: ExpectResourceAction, plan: Plan) -> list[object]:
    return [*check.failures(plan), *(f.address for f in check.failures(plan))]


@pytest.mark.parametrize("row", SHOWN, ids=[r.id for r in SHOWN])
def test_no_address_shows_a_secret(row: Shown, tmp_path: FsPath) -> None:
    texts = row.texts(tmp_path)
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"{row.id} leaks {secret!r}: {text}"
    assert any("(sensitive)" in text for text in texts), row.id


@pytest.mark.parametrize("row", SHOWN, ids=[r.id for r in SHOWN])
def test_the_row_would_show_the_secret_without_redaction(row: Shown, tmp_path: FsPath) -> None:
    with revealing_sensitive():
        texts = row.texts(tmp_path)
    assert any(secret in text for text in texts for secret in SECRETS), row.id


EXACT = [
    ("plan-miss-closest", lambda: str(_caught(lambda: _plan().resource_change('null_resource.fe["nope"]'))),
     """resource 'null_resource.fe["nope"]' is not in the plan; closest: null_resource.fe["(sensitive)"], """
     """null_resource.plain, null_resource.attr["(sensitive)"]"""),
    ("plan-miss-module", lambda: str(_caught(lambda: _plan().resource_change('module.m["x"].null_resource.x'))),
     """resource 'module.m["x"].null_resource.x' is not in the plan; closest: module.m["(sensitive)"].null_resource.x"""),
    ("plan-miss-deposed", lambda: str(_caught(lambda: _plan().resource_change(FE, deposed="zz"))),
     """resource 'null_resource.fe["(sensitive)"]' is not in the plan's deposed objects (key 'zz'); """
     """closest: null_resource.fe["(sensitive)"], null_resource.attr["(sensitive)"]"""),
    ("plan-closest-field", lambda: repr(_caught(lambda: _plan().resource_change('null_resource.fe["nope"]')).closest),
     """('null_resource.fe["(sensitive)"]', 'null_resource.plain', 'null_resource.attr["(sensitive)"]')"""),
    ("state-miss", lambda: str(_caught(lambda: _state().resource('module.m["x"].null_resource.x'))),
     """resource 'module.m["x"].null_resource.x' is not in the state; closest: module.m["(sensitive)"].null_resource.x"""),
    ("repr-resource-change", lambda: repr(_plan().resource_change(FE)),
     """<ResourceChange null_resource.fe["(sensitive)"] actions=['create']>"""),
    ("repr-deposed", lambda: repr(_plan().resource_change(FE, deposed="00000001")),
     """<ResourceChange null_resource.fe["(sensitive)"] deposed='00000001' actions=['delete']>"""),
    ("repr-deferred", lambda: repr(_plan().deferred_changes[0]),
     """<DeferredChange null_resource.later["(sensitive)"] reason='resource_config_unknown'>"""),
    ("repr-state-module", lambda: repr(_state().resources),
     """(<StateResource null_resource.fe["(sensitive)"]>, <StateResource module.m["(sensitive)"].null_resource.x>)"""),
    ("check-failure", lambda: str(ExpectResourceAction('null_resource.fe["nope"]', ResourceAction.Create)
                                  .failures(_plan())[0]),
     """ExpectResourceAction: null_resource.fe["nope"]: resource not found in plan ResourceChanges; """
     """closest: null_resource.fe["(sensitive)"], null_resource.plain, null_resource.attr["(sensitive)"]"""),
    ("shown-address", lambda: shown_address(FE, _plan().secrets), 'null_resource.fe["(sensitive)"]'),
    # A hand-made plan's key left open (no closing bracket) still hides the secret it holds.
    ("repr-key-left-open", lambda: repr(_open_key_plan().resource_changes[0]),
     """<ResourceChange null_resource.fe["(sensitive) actions=['create']>"""),
    ("miss-key-left-open", lambda: str(_caught(lambda: _open_key_plan().resource_change('null_resource.fe["x"]'))),
     """resource 'null_resource.fe["x"]' is not in the plan; closest: null_resource.fe["(sensitive)"""),
]


def _open_key_plan() -> Plan:
    document = plan_document()
    document["resource_changes"] = [{**document["resource_changes"][0], "address": f'null_resource.fe["{KEY}'}]
    return Plan.from_dict(document)


def _caught(call: Callable[[], object]) -> ResourceNotFoundError:
    with pytest.raises(ResourceNotFoundError) as caught:
        call()
    return caught.value


@pytest.mark.parametrize(("produce", "expected"), [e[1:] for e in EXACT], ids=[e[0] for e in EXACT])
def test_exact_texts(produce: Callable[[], str], expected: str) -> None:
    assert produce() == expected


QUERY_EXACT = [
    # A deferred change is listed with its reason (Terraform 1.9+), its key scrubbed as every other's.
    ("list-text", (), 0, """\
null_resource.fe["(sensitive)"]                                         create
null_resource.fe["(sensitive)"] (deposed 00000001)                      delete
module.m["(sensitive)"].null_resource.x                                 create
null_resource.attr["(sensitive)"]                                       update
null_resource.plain                                                     no-op
null_resource.later["(sensitive)"] (deferred: resource_config_unknown)  create
""", ""),
    ("closest-text", ('null_resource.fe["nope"]',), 2, "",
     """tfplancheck: error: resource 'null_resource.fe["nope"]' is not in the plan; closest: """
     """null_resource.fe["(sensitive)"], null_resource.plain, null_resource.attr["(sensitive)"]\n"""),
    ("value-text", (FE,), 0, """\
null_resource.fe["(sensitive)"] (after)
  status:    known
  sensitive: no
  value:     {}
""", ""),
]


@pytest.mark.parametrize(("args", "status", "out", "err"), [q[1:] for q in QUERY_EXACT], ids=[q[0] for q in QUERY_EXACT])
def test_query_exact_output(tmp_path: FsPath, args: tuple[str, ...], status: int, out: str, err: str) -> None:
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(plan_document()), encoding="utf-8")
    assert cli("query", str(plan_file), *args, stdin=None, environ={}) == (status, out, err)


def test_query_json_addresses_are_shown_forms(tmp_path: FsPath) -> None:
    (out, _) = _query(tmp_path, "--format", "json")
    listed = [r["address"] for r in json.loads(out)["resource_changes"]]
    assert listed == ['null_resource.fe["(sensitive)"]', 'null_resource.fe["(sensitive)"]',
                      'module.m["(sensitive)"].null_resource.x', 'null_resource.attr["(sensitive)"]', "null_resource.plain"]
    (out, _) = _query(tmp_path, 'null_resource.fe["nope"]', "--format", "json")
    assert json.loads(out)["error"]["message"] == (
        """resource 'null_resource.fe["nope"]' is not in the plan; closest: """
        """null_resource.fe["(sensitive)"], null_resource.plain, null_resource.attr["(sensitive)"]""")


@pytest.mark.parametrize("length", [3, 12, 40], ids=lambda n: f"secret-of-{n}-chars")
def test_the_address_column_does_not_tell_a_secret_s_length(tmp_path: FsPath, length: int) -> None:
    # The same listing whatever the length of the key: padding is computed on what is shown.
    (reference, _) = _query(tmp_path, document=plan_document("k" * 20))
    (listing, _) = _query(tmp_path, document=plan_document("k" * length))
    assert listing == reference


@pytest.mark.parametrize(
    "address", [FE, IN_MODULE, BY_ATTR], ids=["for-each-key", "module-key", "attribute-key"]
)
def test_lookup_takes_the_real_address(address: str) -> None:
    plan = _plan()
    assert plan.has_resource_change(address)
    assert plan.resource_change(address).address == address  # the data stays as it is; only showing redacts
    assert address in list(plan.addresses())


def test_state_lookup_takes_the_real_address() -> None:
    state = _state()
    assert state.resource(f'module.m["{STATE_KEY}"].null_resource.x').values == {"id": "2"}
    assert state.resource(f'null_resource.fe["{STATE_KEY}"]').module_address is None


def test_a_resource_change_built_alone_hides_what_it_holds() -> None:
    raw = {"address": f'null_resource.a["{ATTR}"]', "change": {"actions": ["create"], "after": {"t": ATTR},
                                                                "after_sensitive": {"t": True}}}
    assert repr(ResourceChange(raw)) == """<ResourceChange null_resource.a["(sensitive)"] actions=['create']>"""


def test_resource_not_found_is_a_plancheck_error_and_pickles_as_shown() -> None:
    import pickle

    from plancheck import TfCheckError

    error = _caught(lambda: _plan().resource_change('null_resource.fe["nope"]'))
    assert isinstance(error, TfCheckError)
    assert isinstance(error, LookupError)
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.closest, copy.address) == (str(error), error.closest, error.address)


def test_shown_address_is_the_scrub_of_the_document_secrets() -> None:
    secrets = Secrets([KEY])
    assert shown_address(FE, secrets) == secrets.scrub(FE) == 'null_resource.fe["(sensitive)"]'
    assert shown_address("null_resource.plain", secrets) == "null_resource.plain"
