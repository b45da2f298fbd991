"""Per-address ``mock_data`` defaults end to end (issue #24, item 2): count, for_each, a local module, a chain of
data sources, a read deferred to apply, and the refusals. On the pinned Terraform 1.0.3 and the newer one on PATH.

The runner plans in passes: the first reads the data sources it cannot place with the type's defaults, the plan
names them, and the next pass reads each with its address's defaults (``plancheck/_terraform/mock/instances.py``).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from clirun import automation, cli
from mock_support import CLOUD, CLOUD_SCHEMA, leak_check, offline_runner, write_tree

from plancheck import knownvalue as kv
from plancheck import statecheck
from plancheck.acceptance import AcceptanceError, AcceptanceRunner, MockProvider, TestCase, TestStep
from tfjsonpath import New

pytestmark = pytest.mark.e2e
pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")

REQUIRED = 'terraform {\n  required_providers {\n    cloud = { source = "acme/cloud" }\n  }\n}\n'
ROOT_MODULE = REQUIRED + """
data "cloud_region" "here" {
  name = "eu"
}

data "cloud_region" "counted" {
  count = 2
  name  = "c${count.index}"
}

data "cloud_region" "each" {
  for_each = toset(["a", "b"])
  name     = "e-${each.key}"
}

# Configured from another data source's per-address value: settled one pass later.
data "cloud_region" "chained" {
  name = data.cloud_region.here.endpoint
}

module "store" {
  source   = "./modules/store"
  for_each = toset(["x", "y"])
  name     = each.key
}

# Terraform 1.0.3 panics planning a null single nested attribute: the bucket sets website.
resource "cloud_bucket" "b" {
  name    = data.cloud_region.chained.endpoint
  website = { index_document = "index.html" }
}

# Its configuration is unknown at plan: read at apply, named by the plan's "read" change.
data "cloud_region" "late" {
  name = cloud_bucket.b.arn
}
"""
STORE_MODULE = REQUIRED + """
variable "name" {
  type = string
}

data "cloud_region" "inner" {
  name = "m-${var.name}"
}
"""
MOCK_DATA: dict[str, Any] = {
    "cloud_region": {"endpoint": "by-type"},
    "data.cloud_region.here": {"endpoint": "here"},
    "data.cloud_region.counted[1]": {"endpoint": "counted-1"},
    "data.cloud_region.each[*]": {"endpoint": lambda config: "each:" + config["name"]},
    'data.cloud_region.each["b"]': {"endpoint": "each-b"},
    'module.store["y"].data.cloud_region.inner': {"endpoint": "store-y"},
    "module.*.data.cloud_region.*": {"endpoint": "in-a-module"},
    "data.cloud_region.chained": {"endpoint": lambda config: "chained:" + config["name"]},
    "data.cloud_region.late": {"endpoint": "late"},
}
EXPECTED = {
    "data.cloud_region.here": "here",
    "data.cloud_region.counted[0]": "by-type",
    "data.cloud_region.counted[1]": "counted-1",
    'data.cloud_region.each["a"]': "each:e-a",
    'data.cloud_region.each["b"]': "each-b",
    'module.store["x"].data.cloud_region.inner': "in-a-module",
    'module.store["y"].data.cloud_region.inner': "store-y",
    "data.cloud_region.chained": "chained:here",
    "data.cloud_region.late": "late",
}


def write_module(root: Path) -> Path:
    return write_tree(root, {"main.tf": ROOT_MODULE, "modules/store/main.tf": STORE_MODULE})


def plans(runner: AcceptanceRunner) -> int:
    """How many ``terraform plan`` commands the runner ran."""
    return sum(1 for command in runner.commands if command.argv[1] == "plan")


def reads(mock: MockProvider) -> int:
    return sum(1 for c in mock.calls if c.rpc == "ReadDataSource")


def test_each_data_source_gets_the_defaults_of_its_most_specific_key(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, tmp_path: Path
) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, seed=5, mock_data=MOCK_DATA)
    directory = str(write_module(tmp_path / "module"))
    checks = [statecheck.ExpectKnownValue(address, New("endpoint"), kv.StringExact(endpoint))
              for address, endpoint in EXPECTED.items()]
    checks.append(statecheck.ExpectKnownValue("cloud_bucket.b", New("name"), kv.StringExact("chained:here")))
    runner = offline_runner(tf_acceptance)
    with leak_check(private_tmp) as leaks:
        # The runner fails a step whose plan after apply is not empty: the values are read again the same.
        runner.run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(config_directory=directory, config_state_checks=checks),
            TestStep(config_directory=directory, config_state_checks=checks),
        ]))
    assert not leaks[0], leaks[0]
    # Step 1's plan is made three times (type defaults; the addresses' defaults; the chained data source's
    # address defaults for its new configuration); step 2 and every plan after apply find each read placed.
    assert plans(runner) == (3 + 2) + (1 + 2)


SAME_CONFIG = REQUIRED + """
data "cloud_region" "one" {
  name = "same"
}

data "cloud_region" "two" {
  name = "same"
}
"""
DEFERRED_TWINS = REQUIRED + """
resource "cloud_bucket" "b" {
  name    = "b"
  website = { index_document = "index.html" }
}

data "cloud_region" "late" {
  count = 2
  name  = "${cloud_bucket.b.arn}-${count.index}"
}
"""
REFUSALS = [
    pytest.param(
        SAME_CONFIG, {"cloud_region": {"endpoint": "t"}, "data.cloud_region.two": {"endpoint": "two"}}, "pre_apply",
        ("Cannot tell data.cloud_region.one from data.cloud_region.two: their defaults differ",
         "The mock of registry.terraform.io/acme/cloud finds the address of a data source read by its configuration, "
         "and these two cloud_region data sources are read with the same one, while data.cloud_region.one gets "
         'mock_data["cloud_region"] and data.cloud_region.two gets mock_data["data.cloud_region.two"]. It will not '
         "guess which is which: give them configurations that differ, or the same defaults."),
        id="same-configuration-at-plan",
    ),
    pytest.param(
        DEFERRED_TWINS, {"data.cloud_region.late[1]": {"endpoint": "one"}}, "apply",
        ("Cannot tell data.cloud_region.late[0] from data.cloud_region.late[1]: their defaults differ",
         "while data.cloud_region.late[0] gets no defaults and data.cloud_region.late[1] gets "
         'mock_data["data.cloud_region.late[1]"]'),
        id="deferred-reads-with-unknown-configurations",
    ),
]


@pytest.mark.parametrize(("config", "mock_data", "stage", "expected"), REFUSALS)
def test_data_sources_that_cannot_be_told_apart_are_refused(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, config: str, mock_data: dict[str, Any], stage: str,
    expected: tuple[str, ...],
) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, mock_data=mock_data)
    with leak_check(private_tmp) as leaks, pytest.raises(AcceptanceError) as info:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[TestStep(config=config)]))
    assert not leaks[0], leaks[0]
    assert info.value.stage.value == stage
    shown = re.sub(r"\s+", " ", info.value.output)
    for text in expected:
        assert text in shown


def test_the_same_configuration_with_the_same_defaults_reads_once_per_pass(
    tf_acceptance: AcceptanceRunner, private_tmp: Path
) -> None:
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, mock_data={"data.cloud_region.*": {"endpoint": "both"}})
    checks = [statecheck.ExpectKnownValue(f"data.cloud_region.{n}", New("endpoint"), kv.StringExact("both"))
              for n in ("one", "two")]
    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[
            TestStep(config=SAME_CONFIG, config_state_checks=checks)]))
    assert not leaks[0], leaks[0]


def test_a_data_source_with_no_address_key_costs_no_second_plan(tf_acceptance: AcceptanceRunner, private_tmp: Path) -> None:
    """A read whose address gets the type's defaults anyway is right at the first pass: no plan is made again."""
    mock = MockProvider.from_schema_file(CLOUD_SCHEMA, CLOUD, mock_data={
        "cloud_region": {"endpoint": "t"}, "data.cloud_region.elsewhere": {"endpoint": "e"}})
    with leak_check(private_tmp) as leaks:
        offline_runner(tf_acceptance).run(TestCase(providers={CLOUD: mock}, steps=[TestStep(config=SAME_CONFIG)]))
    assert not leaks[0], leaks[0]
    # One step: the pre-apply plan and the two plans after apply each read both data sources once.
    assert reads(mock) == 6


def _mock_plan(tf_acceptance: AcceptanceRunner, private_tmp: Path, module: Path, defaults: Path) -> str:
    """The plan JSON ``tfplancheck mock-plan`` writes for ``module`` with the cloud mock and ``defaults``, which must
    succeed leaving nothing in the private temporary directory."""
    out_file = module.parent / "plan.json"
    with leak_check(private_tmp) as leaks:
        status, _out, err = cli("mock-plan", str(module), "--mock", f"acme/cloud={CLOUD_SCHEMA}", "--defaults",
                                f"acme/cloud={defaults}", "--out", str(out_file), "--terraform",
                                tf_acceptance.terraform.path, environ=automation())
    assert (status, err) == (0, "")
    assert not leaks[0], leaks[0]
    return out_file.read_text(encoding="utf-8")


def test_mock_plan_gives_data_sources_their_address_defaults(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, tmp_path: Path
) -> None:
    directory = write_module(tmp_path / "module")
    (directory / "main.tf").write_text(ROOT_MODULE.split("# Terraform 1.0.3 panics")[0], encoding="utf-8")
    defaults = tmp_path / "defaults.json"
    values = {k: v for k, v in MOCK_DATA.items() if not callable(v["endpoint"])}
    defaults.write_text(json.dumps({"mock_data": values}), encoding="utf-8")
    plan = json.loads(_mock_plan(tf_acceptance, private_tmp, directory, defaults))
    read = {}
    pending = [plan["prior_state"]["values"]["root_module"]]
    while pending:
        module = pending.pop()
        read.update({r["address"]: r["values"]["endpoint"] for r in module.get("resources", [])})
        pending.extend(module.get("child_modules", []))
    assert read == {
        "data.cloud_region.here": "here",
        "data.cloud_region.counted[0]": "by-type",
        "data.cloud_region.counted[1]": "counted-1",
        'data.cloud_region.each["a"]': "by-type",  # the glob's default is a function: left out of the JSON file
        'data.cloud_region.each["b"]': "each-b",
        'module.store["x"].data.cloud_region.inner': "in-a-module",
        'module.store["y"].data.cloud_region.inner': "store-y",
        "data.cloud_region.chained": "by-type",
    }


DEFAULTS_ERRORS = [
    pytest.param('{"mock_dat": {}}', "tfplancheck: error: --defaults acme/cloud: {file}: unknown field 'mock_dat'; did you mean "
                 "mock_data?", id="misspelt-field"),
    pytest.param('{"mock_data": {"data.cloud_region.x[0": {}}}', "tfplancheck: error: --defaults acme/cloud: mock_data"
                 """["data.cloud_region.x[0"]: not an address: '[' at offset 19 is never closed""", id="bad-key"),
    pytest.param("[1]", "tfplancheck: error: --defaults acme/cloud: {file}: expected a JSON object with mock_resources, "
                 "mock_data, override_during", id="not-an-object"),
    pytest.param(None, "tfplancheck: error: --defaults acme/cloud: {file}: cannot read the defaults file: No such file "
                 "or directory", id="missing-file"),
    # A defaults file is parsed as a plan (and a schema file) is: NaN and a repeated key refused, any depth and any
    # number of digits read, a UTF-8 BOM read; a syntax error located.
    pytest.param('{"mock_resources": {"cloud_bucket": {"arn": NaN}}}', "tfplancheck: error: --defaults acme/cloud: "
                 "{file}: $: expected valid JSON, found NaN, which is not JSON", id="nan"),
    pytest.param('{"mock_data": {}, "mock_data": {}}', "tfplancheck: error: --defaults acme/cloud: {file}: $.mock_data: "
                 "expected each key once in its object, found this key repeated at line 1 column 19 (character 18) "
                 "(which of its values counts would be a guess)", id="repeated-key"),
    pytest.param('{"mock_resources": {"cloud_bucket": {"arn": ' + "[" * 5000 + "]" * 5000 + "}}}",
                 """tfplancheck: error: --defaults acme/cloud: mock_resources["cloud_bucket"]["arn"]: expected string, """
                 "got an array", id="5000-deep"),
    pytest.param('{"mock_resources": {"cloud_buckt": {"size_gb": 1' + "0" * 5000 + "}}}",
                 """tfplancheck: error: --defaults acme/cloud: mock_resources["cloud_buckt"]: registry.terraform.io/acme/cloud """
                 "has no resource type cloud_buckt; "
                 "did you mean cloud_bucket?", id="5001-digit-integer"),
    pytest.param('\ufeff{"mock_dat": {}}', "tfplancheck: error: --defaults acme/cloud: {file}: unknown field 'mock_dat'; "
                 "did you mean mock_data?", id="utf8-bom-is-read"),
    pytest.param("{\n  oops", "tfplancheck: error: --defaults acme/cloud: {file}: $: expected valid JSON, found invalid "
                 "JSON: Expecting property name enclosed in double quotes at line 2 column 3 (character 4)", id="syntax"),
]


@pytest.mark.parametrize(("text", "message"), DEFAULTS_ERRORS)
def test_bad_defaults_files_are_one_line_exit_2(tmp_path: Path, text: str | None, message: str) -> None:
    defaults = tmp_path / "defaults.json"
    if text is not None:
        defaults.write_text(text, encoding="utf-8")
    status, out, err = cli("mock-plan", str(tmp_path), "--mock", f"acme/cloud={CLOUD_SCHEMA}", "--defaults",
                           f"acme/cloud={defaults}", environ=automation())
    assert (status, out) == (2, "")
    assert err.strip() == message.format(file=defaults)


# A defaults file is read exactly (a fraction is a Decimal, as a plan's numbers are): each number reaches Terraform
# as the number written, whatever its size or digits (cty's msgpack: an int64, a float64 that holds it, else text).
@pytest.mark.parametrize("number", [
    pytest.param("1.5", id="fraction"),
    pytest.param("123456789012345678901234567890", id="big-integer"),
    pytest.param("0.12345678901234567890123456789", id="fraction-of-many-digits"),
    pytest.param("-98765432109876543210.5", id="big-fraction"),
])
def test_mock_plan_plans_a_number_of_a_defaults_file_as_written(
    tf_acceptance: AcceptanceRunner, private_tmp: Path, tmp_path: Path, number: str
) -> None:
    directory = tmp_path / "module"
    directory.mkdir()
    (directory / "main.tf").write_text(REQUIRED + 'resource "cloud_bucket" "b" {\n  name    = "n"\n'
                                       '  website = { index_document = "index.html" }\n}\n', encoding="utf-8")
    defaults = tmp_path / "defaults.json"
    defaults.write_text('{"override_during": "plan", "mock_resources": {"cloud_bucket": {"size_gb": ' + number + "}}}",
                        encoding="utf-8")
    plan = json.loads(_mock_plan(tf_acceptance, private_tmp, directory, defaults), parse_float=Decimal)
    assert plan["planned_values"]["root_module"]["resources"][0]["values"]["size_gb"] == Decimal(number)
