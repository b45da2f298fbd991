"""Every configuration of the shared corpus: valid ones load, invalid ones give located errors."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from corpus_cases import corpus_cases

from plancheck.tfconfig import ConfigFormatError, ExpectReferences, ExpectVariable, assert_config, load_config

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def _files(sub: str) -> list[Path]:
    directory = CORPUS / sub
    return sorted(directory.iterdir()) if directory.is_dir() else []


def _require_corpus() -> None:
    if not (CORPUS / "configs").is_dir():
        pytest.skip(f"corpus not present at {CORPUS}")


CONFIGS = [p for p in _files("configs") if "invalid" not in p.name]
INVALID_CONFIGS = [p for p in _files("configs") if "invalid" in p.name] + _files("invalid")


@pytest.mark.parametrize("path", corpus_cases(CONFIGS, CORPUS / "configs", lambda p: p.name))
def test_every_valid_corpus_config_loads(path: Path) -> None:
    # Each file is read as the tool it comes from reads it (its name starts with that repository's owner).
    config = load_config(path, flavor="opentofu" if path.name.startswith("opentofu-") else "terraform")
    assert config.files == (str(path),)
    for block in config.blocks:
        assert block.file == str(path)
        assert block.line is not None
        assert block.column is not None
        assert isinstance(block.body, dict)
        block.references()


# The invalid files: semantic ones are valid JSON that Terraform rejects; the others are not JSON.
EXPECTED_ERRORS = {
    "terraform-invalid-semantics-import-for-each.tf.json": '4:11: $.import["to"]: expected a resource address string such as "aws_instance.web", found an array of '
    "1 element",
    "terraform-invalid-semantics-resource-rtb.tf.json": '12:13: $.resource["test_object"]["b"]["lifecycle"]["replace_triggered_by"][0]: expected a reference string, '
    "found an object with 1 property",
    "terraform-native-syntax-as-json-tf.tf.json": "1:1: $: expected a JSON value, found 'terraform'",
    "terraform-zerolen-tf.tf.json": "1:1: $: expected a JSON object, found an empty file",
    "tfjson-invalid-plan.json": "676:29: $: expected the end of the file after the root value, found '}'",
    "tfjson-invalid-state.json": "12:28: $: expected the end of the file after the root value, found '}'",
}


@pytest.mark.parametrize("path", corpus_cases(INVALID_CONFIGS, CORPUS, lambda p: p.name))
def test_every_invalid_corpus_file_gives_a_located_error(path: Path) -> None:
    with pytest.raises(ConfigFormatError) as info:
        load_config(path)
    assert info.value.file == str(path)
    assert info.value.line is not None
    assert info.value.column is not None
    assert str(info.value) == f"{path}:{EXPECTED_ERRORS[path.name]}"


def test_the_tables_cover_the_corpus() -> None:
    _require_corpus()
    assert sorted(p.name for p in INVALID_CONFIGS) == sorted(EXPECTED_ERRORS)
    assert len(CONFIGS) >= 20


def test_corpus_specifics() -> None:
    _require_corpus()
    configs = CORPUS / "configs"
    variables = load_config(configs / "terraform-valid-variables.tf.json")
    assert list(variables.variables) == [
        "foo",
        "bar",
        "baz",
        "bar-baz",
        "cheese_pizza",
        "π",
        "sensitive_value",
    ]
    assert variables.variable("π").get("default") == Decimal("3.14159265359")
    assert_config(
        variables,
        ExpectVariable("sensitive_value", sensitive=True, default={"a": 1, "b": 2}),
        ExpectVariable("baz", type="list"),
    )

    refs = load_config(configs / "terraform-valid-references.tf.json")
    assert refs.resource("null_resource", "baz").body == {"triggers": "${ {} }"}
    assert refs.resource("null_resource", "baz").expression("triggers").kind == "interpolation"

    legacy = load_config(configs / "terraform-legacy-0.11-basic.tf.json")
    assert [p.name for p in legacy.ignored] == ["atlas"]
    assert_config(
        legacy,
        ExpectReferences("aws_instance", "db", contains=["aws_security_group.firewall", "aws_instance.web"]),
    )
    assert [b.labels for b in legacy.resource("aws_instance", "web").blocks("provisioner")] == [("file",)]

    tofu = load_config(configs / "opentofu-provider-from-json.tf.json", flavor="opentofu")
    assert tofu.resource("null_resource", "test").get("provider") == "null.blah[each.key]"
    assert [r.text for r in tofu.provider("null", alias="blah").references()] == ["local.instances"]
    # A provider's for_each is OpenTofu's (1.9+): Terraform reserves the name.
    with pytest.raises(ConfigFormatError) as info:
        load_config(configs / "opentofu-provider-from-json.tf.json")
    assert str(info.value).replace(f"{configs}/", "") == (
        'opentofu-provider-from-json.tf.json:10:13: $.provider["null"]["for_each"]: expected an argument or block of '
        'provider "null" other than one Terraform reserves (Terraform: Reserved argument name in provider block), found '
        '"for_each"'
    )

    backend = load_config(configs / "terraform-legacy-0.11-terraform-backend.tf.json")
    assert [b.labels for b in backend.blocks_of("terraform")[0].blocks("backend")] == [("s3",)]

    ignore_all = load_config(configs / "terraform-valid-resources-ignorechanges-all.tf.json")
    assert ignore_all.resource("aws_instance", "web").blocks("lifecycle")[0].get("ignore_changes") == "all"


def test_corpus_generic_hcl_json_is_refused_in_strict_mode() -> None:
    _require_corpus()
    with pytest.raises(ConfigFormatError, match=r"\$\.foo: expected one of the top-level block types"):
        load_config(CORPUS / "configs" / "hcl-json-fuzz-attr-literal.hcl.json", strict=True)
