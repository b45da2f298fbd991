"""Where OpenTofu's language and Terraform's differ in a module call, a provider block and a lifecycle: each flavor
reads a file as its tool does (terraform and opentofu internal/configs: module_call.go, provider.go, resource.go,
language.go, module_merge.go)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from plancheck.tfconfig import Config, ConfigFormatError, load_config, parse_config
from plancheck.tfconfig._load import merge_overrides


def _read(text: str, flavor: Any) -> Config | str:
    try:
        return parse_config(text, filename="main.tf.json", flavor=flavor, strict=True)
    except ConfigFormatError as exc:
        return str(exc)


def _seen(config: Config | str) -> Any:
    """What a test sees of a configuration: each block's arguments and nested blocks (with theirs), or the error."""
    if isinstance(config, str):
        return config
    return [
        (b.address, b.names(), [(n.block_type, n.body) for n in b.blocks()], [r.text for r in b.references()])
        for b in config.blocks
    ]


def _reserved(where: str, at: str, name: str, tool: str, summary: str) -> str:
    return (
        f'main.tf.json:{at}: $.{where}["{name}"]: expected an argument or block of {where.split("[")[0]} '
        f'{where.split("[")[1].rstrip("]")} other than one {tool} reserves ({tool}: {summary}), found "{name}"'
    )


def _combination(where: str, at: str, tool: str, names: str, found: str = "both") -> str:
    return (
        f"main.tf.json:{at}: $.{where}: expected at most one of {names} ({tool}: Invalid combination of {names}), "
        f"found {found}"
    )


def _unknown_in_terraform(name: str, known: str) -> str:
    return f'main.tf.json:1:16: $.terraform["{name}"]: expected an argument or block of terraform ({known}), found "{name}"'


_MODULE_BLOCK = "Reserved block type name in module block"
_PROVIDER_ARGUMENT = "Reserved argument name in provider block"

#: Each row: a file, what the terraform flavor reads (or its error), what the opentofu flavor reads (or its error).
FLAVORED = [
    pytest.param(
        '{"module": {"m": {"source": "./m", "lifecycle": {"enabled": "${var.on}"}, "n": 1}}}',
        _reserved('module["m"]', "1:36", "lifecycle", "Terraform", _MODULE_BLOCK),
        [("module.m", ("source", "lifecycle", "n"), [("lifecycle", {"enabled": "${var.on}"})], ["var.on"])],
        id="module-lifecycle-enabled",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "lifecycle": {"enable": false}}}}',
        _reserved('module["m"]', "1:36", "lifecycle", "Terraform", _MODULE_BLOCK),
        'main.tf.json:1:50: $.module["m"]["lifecycle"]["enable"]: expected an argument or block of lifecycle '
        '(enabled), found "enable" (did you mean "enabled"?)',
        id="module-lifecycle-misspelt",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "lifecycle": [{"enabled": false}, {"enabled": true}]}}}',
        _reserved('module["m"]', "1:36", "lifecycle", "Terraform", _MODULE_BLOCK),
        'main.tf.json:1:49: $.module["m"]["lifecycle"][1]: expected at most one lifecycle block in a module block '
        "(Terraform: Duplicate lifecycle block), found a second lifecycle block (first at 1:49)",
        id="module-lifecycle-twice",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "locals": {"a": 1}}}}',
        _reserved('module["m"]', "1:36", "locals", "Terraform", _MODULE_BLOCK),
        _reserved('module["m"]', "1:36", "locals", "OpenTofu", _MODULE_BLOCK),
        id="module-locals",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "provider": {"aws": {}}}}}',
        _reserved('module["m"]', "1:36", "provider", "Terraform", _MODULE_BLOCK),
        _reserved('module["m"]', "1:36", "provider", "OpenTofu", _MODULE_BLOCK),
        id="module-provider",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "ignore_nested_deprecations": "${var.quiet}"}}}',
        'main.tf.json:1:66: $.module["m"]["ignore_nested_deprecations"]: expected true or false, found a string',
        [("module.m", ("source", "ignore_nested_deprecations"), [], ["var.quiet"])],
        id="module-ignore_nested_deprecations",
    ),
    pytest.param(
        '{"provider": {"aws": {"alias": "r", "for_each": "${var.regions}", "region": "${each.value}"}}}',
        _reserved('provider["aws"]', "1:37", "for_each", "Terraform", _PROVIDER_ARGUMENT),
        [("provider.aws.r", ("alias", "for_each", "region"), [], ["var.regions", "each.value"])],
        id="provider-for_each",
    ),
    pytest.param(
        '{"provider": {"aws": {"for_each": "${var.regions}"}}}',
        _reserved('provider["aws"]', "1:23", "for_each", "Terraform", _PROVIDER_ARGUMENT),
        'main.tf.json:1:23: $.provider["aws"]["for_each"]: expected the "alias" argument beside "for_each" '
        '(OpenTofu: Alias required when using "for_each"), found "for_each" without "alias"',
        id="provider-for_each-without-alias",
    ),
    pytest.param(
        '{"provider": {"aws": {"alias": "r", "count": 2}}}',
        _reserved('provider["aws"]', "1:37", "count", "Terraform", _PROVIDER_ARGUMENT),
        _reserved('provider["aws"]', "1:37", "count", "OpenTofu", _PROVIDER_ARGUMENT),
        id="provider-count",
    ),
    pytest.param(
        '{"provider": {"aws": {"source": "hashicorp/aws"}}}',
        _reserved('provider["aws"]', "1:23", "source", "Terraform", _PROVIDER_ARGUMENT),
        _reserved('provider["aws"]', "1:23", "source", "OpenTofu", _PROVIDER_ARGUMENT),
        id="provider-source",
    ),
    pytest.param(
        '{"provider": {"aws": {"lifecycle": {}}}}',
        _reserved('provider["aws"]', "1:23", "lifecycle", "Terraform", "Reserved block type name in provider block"),
        _reserved('provider["aws"]', "1:23", "lifecycle", "OpenTofu", "Reserved block type name in provider block"),
        id="provider-lifecycle",
    ),
    pytest.param(
        '{"resource": {"t": {"a": {"lifecycle": {"enabled": "${var.on}"}}}}}',
        'main.tf.json:1:41: $.resource["t"]["a"]["lifecycle"]["enabled"]: expected an argument or block of lifecycle '
        "(action_trigger, create_before_destroy, destroy, ignore_changes, postcondition, precondition, prevent_destroy, "
        'replace_triggered_by), found "enabled"',
        [("t.a", ("lifecycle",), [("lifecycle", {"enabled": "${var.on}"})], ["var.on"])],
        id="resource-lifecycle-enabled",
    ),
    pytest.param(
        '{"data": {"t": {"a": {"lifecycle": {"enabled": false}}}}}',
        'main.tf.json:1:37: $.data["t"]["a"]["lifecycle"]["enabled"]: expected an argument or block of lifecycle '
        '(postcondition, precondition), found "enabled"',
        [("data.t.a", ("lifecycle",), [("lifecycle", {"enabled": False})], [])],
        id="data-lifecycle-enabled",
    ),
    pytest.param(
        '{"ephemeral": {"t": {"a": {"lifecycle": {"enabled": false}}}}}',
        'main.tf.json:1:42: $.ephemeral["t"]["a"]["lifecycle"]["enabled"]: expected an argument or block of lifecycle '
        '(postcondition, precondition), found "enabled"',
        [("ephemeral.t.a", ("lifecycle",), [("lifecycle", {"enabled": False})], [])],
        id="ephemeral-lifecycle-enabled",
    ),
    pytest.param(
        '{"language": {"compatible_with": {"opentofu": ">= 1.12"}}}',
        "main.tf.json:1:2: $.language: expected one of the top-level block types (action, check, data, ephemeral, "
        'import, locals, module, moved, output, provider, removed, resource, terraform, variable), found "language"',
        [("language", ("compatible_with",), [("compatible_with", {"opentofu": ">= 1.12"})], [])],
        id="language",
    ),
    # count, for_each and OpenTofu's lifecycle enabled are mutually exclusive (both tools' resource.go and
    # module_call.go): Terraform's error is at for_each, OpenTofu's at the first of them, naming those given.
    pytest.param(
        '{"resource": {"t": {"a": {"count": 1, "for_each": {}}}}}',
        _combination('resource["t"]["a"]["for_each"]', "1:39", "Terraform", '"count" and "for_each"'),
        _combination('resource["t"]["a"]["count"]', "1:27", "OpenTofu", '"count" and "for_each"'),
        id="resource-count-and-for_each",
    ),
    pytest.param(
        '{"resource": {"t": {"a": {"for_each": {}, "lifecycle": {"enabled": true}, "count": 1}}}}',
        _combination('resource["t"]["a"]["for_each"]', "1:27", "Terraform", '"count" and "for_each"'),
        _combination('resource["t"]["a"]["for_each"]', "1:27", "OpenTofu", '"count", "enabled", and "for_each"',
                     "all three"),
        id="resource-count-enabled-and-for_each",
    ),
    pytest.param(
        '{"data": {"t": {"a": {"lifecycle": {"enabled": true}, "for_each": {}}}}}',
        'main.tf.json:1:37: $.data["t"]["a"]["lifecycle"]["enabled"]: expected an argument or block of lifecycle '
        '(postcondition, precondition), found "enabled"',
        _combination('data["t"]["a"]["lifecycle"]["enabled"]', "1:37", "OpenTofu", '"enabled" and "for_each"'),
        id="data-enabled-and-for_each",
    ),
    pytest.param(
        '{"ephemeral": {"t": {"a": {"for_each": {}, "count": 1}}}}',
        _combination('ephemeral["t"]["a"]["for_each"]', "1:28", "Terraform", '"count" and "for_each"'),
        _combination('ephemeral["t"]["a"]["for_each"]', "1:28", "OpenTofu", '"count" and "for_each"'),
        id="ephemeral-count-and-for_each",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "count": 1, "lifecycle": {"enabled": true}}}}',
        _reserved('module["m"]', "1:48", "lifecycle", "Terraform", _MODULE_BLOCK),
        _combination('module["m"]["count"]', "1:36", "OpenTofu", '"count" and "enabled"'),
        id="module-count-and-enabled",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "count": 1, "for_each": {}}}}',
        _combination('module["m"]["for_each"]', "1:48", "Terraform", '"count" and "for_each"'),
        _combination('module["m"]["count"]', "1:36", "OpenTofu", '"count" and "for_each"'),
        id="module-count-and-for_each",
    ),
    pytest.param(
        '{"module": {"m": {"source": "./m", "_": {"count": 1}, "for_each": "${var.m}"}}}',
        *[[("module.m", ("source", "_", "for_each"), [("_", {"count": 1})], ["var.m"])]] * 2,
        id="module-escaped-count-is-an-input",
    ),
    # Both tools read a terraform block by a closed schema (parser_config.go): OpenTofu's encryption (1.7) and
    # Terraform's state_store (1.13, read with experiments) are each one tool's.
    pytest.param(
        '{"terraform": {"encryption": {"key_provider": {"pbkdf2": {"k": {"passphrase": "${var.p}"}}}}}}',
        _unknown_in_terraform(
            "encryption", "backend, cloud, experiments, language, provider_meta, required_providers, required_version, "
            "state_store"
        ),
        [("terraform", ("encryption",), [("encryption", {"key_provider": {"pbkdf2": {"k": {"passphrase": "${var.p}"}}}})],
          [])],
        id="terraform-encryption",
    ),
    pytest.param(
        '{"terraform": {"state_store": {"fs": {"provider": {"x": {}}}}}}',
        [("terraform", ("state_store",), [("state_store", {"provider": {"x": {}}})], [])],
        _unknown_in_terraform(
            "state_store", "backend, cloud, encryption, experiments, language, provider_meta, required_providers, "
            "required_version"
        ),
        id="terraform-state_store",
    ),
    pytest.param(
        '{"terraform": {"required_versoin": ">= 1.0"}}',
        *(
            _unknown_in_terraform("required_versoin", known) + ' (did you mean "required_version"?)'
            for known in (
                "backend, cloud, experiments, language, provider_meta, required_providers, required_version, state_store",
                "backend, cloud, encryption, experiments, language, provider_meta, required_providers, required_version",
            )
        ),
        id="terraform-misspelt-argument",
    ),
    # Both tools' resource.go reserve a locals block in a resource, data or ephemeral block (a check's data too).
    *(
        pytest.param(
            text,
            *(
                f'main.tf.json:{at}: $.{path}["locals"]: expected an argument or block of {kind} "t" "a" other than one '
                f'{tool} reserves ({tool}: Reserved block type name in {kind} block), found "locals"'
                for tool in ("Terraform", "OpenTofu")
            ),
            id=f"{path.split('[')[0]}-locals",
        )
        for text, at, path, kind in [
            ('{"resource": {"t": {"a": {"locals": {"x": 1}}}}}', "1:27", 'resource["t"]["a"]', "resource"),
            ('{"data": {"t": {"a": {"locals": {"x": 1}}}}}', "1:23", 'data["t"]["a"]', "data"),
            ('{"ephemeral": {"t": {"a": {"locals": {"x": 1}}}}}', "1:28", 'ephemeral["t"]["a"]', "ephemeral"),
            ('{"check": {"c": {"data": {"t": {"a": {"locals": {}}}}}}}', "1:39", 'check["c"]["data"]["t"]["a"]', "data"),
        ]
    ),
]


@pytest.mark.parametrize(("text", "terraform", "opentofu"), FLAVORED)
def test_each_flavor_reads_as_its_tool(text: str, terraform: Any, opentofu: Any) -> None:
    """Before: both flavors read a module call's lifecycle and ignore_nested_deprecations (Terraform 1.15's static
    bool) as inputs and a provider's for_each, count, source and lifecycle as provider arguments; Terraform's schema
    read a lifecycle's enabled; OpenTofu's knew no language block."""
    assert (_seen(_read(text, "terraform")), _seen(_read(text, "opentofu"))) == (terraform, opentofu)


def _write(directory: Path, files: dict[str, Any]) -> None:
    for name, content in files.items():
        (directory / name).write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")


#: OpenTofu's merge (module_merge.go): an override sets no module call's lifecycle and no provider's for_each (each
#: decoded as a meta-argument, which the merge does not copy); a language block is never in an override file.
MERGED = [
    pytest.param(
        {"main.tf.json": {"module": {"m": {"source": "./m", "lifecycle": {"enabled": False}, "n": 1}}},
         "override.tf.json": {"module": {"m": {"lifecycle": {"enabled": True}, "n": 2}}}},
        [{"source": "./m", "lifecycle": {"enabled": False}, "n": 2}],
        id="module-lifecycle-kept",
    ),
    pytest.param(
        {"main.tf.json": {"provider": {"aws": {"alias": "r", "for_each": "${var.a}", "region": "x"}}},
         "override.tf.json": {"provider": {"aws": {"alias": "r", "for_each": "${var.b}", "region": "y"}}}},
        [{"alias": "r", "for_each": "${var.a}", "region": "y"}],
        id="provider-for_each-kept",
    ),
    pytest.param(
        {"main.tf.json": {"language": {"compatible_with": {"opentofu": ">= 1.12"}}},
         "override.tf.json": '{"language": {"compatible_with": {"opentofu": ">= 1.13"}}}'},
        "override.tf.json:1:14: $.language: expected language blocks only in primary files (OpenTofu: Language "
        "selections in override file), found a language block in an override file",
        id="language-in-an-override-file",
    ),
]


@pytest.mark.parametrize(("files", "merged"), MERGED)
def test_opentofu_merges_as_opentofu(tmp_path: Path, files: dict[str, Any], merged: Any) -> None:
    """Before: an override's module lifecycle (then an input) and provider for_each replaced the base's, and a
    language block (then no block type OpenTofu's schema had) was left out of the module unread."""
    _write(tmp_path, files)
    try:
        seen: Any = [b.body for b in load_config(tmp_path, flavor="opentofu").blocks]
    except ConfigFormatError as exc:
        seen = str(exc).replace(f"{tmp_path}/", "")
    assert seen == merged
    unmerged = load_config(tmp_path, flavor="opentofu", merge_overrides=False)
    try:
        again: Any = [b.body for b in merge_overrides(unmerged.primary_blocks, unmerged.overrides, flavor="opentofu")]
    except ConfigFormatError as exc:
        again = str(exc).replace(f"{tmp_path}/", "")
    assert again == merged


@pytest.mark.parametrize(
    ("flavor", "body", "refused"),
    [
        pytest.param("terraform", {"module": {"m": {"source": "./m", "lifecycle": {"enabled": "hunter2-planted"}}}},
                     'found "lifecycle"', id="reserved-name"),
        pytest.param("opentofu", {"provider": {"aws": {"for_each": "hunter2-planted"}}},
                     'found "for_each" without "alias"', id="needs-an-alias"),
    ],
)
def test_a_planted_secret_is_in_no_new_error(flavor: Any, body: dict[str, Any], refused: str) -> None:
    """The new errors name where and what was refused, never the value written there."""
    error = _read(json.dumps({"variable": {"pw": {"sensitive": True, "default": "hunter2-planted"}}, **body}), flavor)
    assert isinstance(error, str)
    assert error.endswith(refused)
    assert "hunter2" not in error



_ESCAPED = "hunter2-TOFU24"


def _call_of_a_sensitive_child(directory: Path, call: dict[str, Any]) -> None:
    (directory / "child").mkdir()
    _write(directory / "child", {"v.tf": 'variable "pw" {\n  sensitive = true\n}\nvariable "count" {\n  sensitive = true\n}\n'})
    _write(directory, {"main.tf.json": {"module": {"c": {"source": "./child", **call}}}})


@pytest.mark.parametrize("flavor", ["terraform", "opentofu"])
@pytest.mark.parametrize(
    ("call", "secret"),
    [
        pytest.param({"_": {"pw": _ESCAPED}}, True, id="escape-block"),
        pytest.param({"_": [{"pw": [_ESCAPED]}]}, True, id="escape-block-in-an-array"),
        # An escaped name is an input, a meta-argument's name too: the call's own count is no input.
        pytest.param({"count": 1, "_": {"count": _ESCAPED}}, True, id="escaped-meta-argument-name"),
        pytest.param({"_": {"n": _ESCAPED}}, False, id="escaped-variable-not-sensitive"),
    ],
)
def test_an_escape_block_gives_the_call_its_inputs(tmp_path: Path, flavor: Any, call: Any, secret: bool) -> None:
    """Both tools read the "_" block's arguments as the call's inputs (configs/module_call.go). Before: an input named
    "_", so a literal given to the child's sensitive variable through it was no secret."""
    _call_of_a_sensitive_child(tmp_path, call)
    config = load_config(tmp_path, flavor=flavor)
    assert (_ESCAPED in config.secrets) is secret
    block = config.module("c")
    assert block is not None
    assert [b.body for b in block.blocks("_")] == (call["_"] if isinstance(call["_"], list) else [call["_"]])
    for shown in (repr(config), repr(block), *map(repr, block.blocks())):
        assert _ESCAPED not in shown


@pytest.mark.parametrize("flavor", ["terraform", "opentofu"])
def test_a_call_has_one_escape_block(tmp_path: Path, flavor: Any) -> None:
    """Both tools refuse a second "_" block ("Duplicate escaping block"). Before: one input, an array."""
    _call_of_a_sensitive_child(tmp_path, {"_": [{"pw": _ESCAPED}, {"n": 1}]})
    with pytest.raises(ConfigFormatError) as caught:
        load_config(tmp_path, flavor=flavor)
    assert str(caught.value).replace(f"{tmp_path}/", "") == (
        'main.tf.json:1:45: $.module["c"]["_"][1]: expected at most one _ block in a module block '
        "(Terraform: Duplicate escaping block), found a second _ block (first at 1:45)"
    )
    assert _ESCAPED not in repr(caught.value)


_KEY = "hunter2-TOFU25"
_PBKDF2 = {"terraform": {"encryption": {"key_provider": {"pbkdf2": {"k": {"passphrase": _KEY, "key_length": 32}}},
                                        "method": {"aes_gcm": {"m": {"keys": "${key_provider.pbkdf2.k}"}}}}}}


@pytest.mark.parametrize(
    ("document", "secret"),
    [
        pytest.param(_PBKDF2, _KEY, id="pbkdf2-passphrase"),
        pytest.param({"terraform": [{"encryption": [{"key_provider": {"pbkdf2": {"k": {"passphrase": f"{_KEY}-${{var.x}}"}}}}]}]},
                     f"{_KEY}-", id="a-templates-literal-part-in-arrays"),
        pytest.param({"terraform": {"encryption": {"method": {"aes_gcm": {"m": {"keys": {"encryption_key": _KEY}}}}}}},
                     _KEY, id="a-methods-literal-keys"),
        pytest.param({"terraform": {"encryption": {"key_provider": {"gcp_kms": {"k": {
            "kms_encryption_key": "projects/p/keys/k", "key_length": 32, "credentials": _KEY}}}}}}, _KEY,
            id="gcp-kms-credentials"),
        pytest.param({"terraform": {"encryption": {"key_provider": {"azure_vault": {"k": {
            "vault_uri": "https://v.vault.azure.net", "client_secret": _KEY}}}}}}, _KEY, id="azure-vault-client-secret"),
    ],
)
def test_opentofu_encryption_key_material_is_a_secret(tmp_path: Path, document: Any, secret: str) -> None:
    """OpenTofu's encryption block takes its keys as literals no sensitive flag marks (internal/encryption: pbkdf2's
    passphrase, a method's keys, a key provider's credentials). Before: none was a secret of the configuration."""
    _write(tmp_path, {"main.tf.json": document})
    for config in (load_config(tmp_path, flavor="opentofu"), parse_config(json.dumps(document), flavor="opentofu")):
        assert secret in config.secrets
        assert "${key_provider.pbkdf2.k}" not in config.secrets
        assert "projects/p/keys/k" not in config.secrets
        assert config.secrets.scrub(f"passphrase {_KEY}") == f"passphrase (sensitive){_KEY[len(secret):]}"
        shown = [repr(config), *(repr(b) for b in config.blocks), *(repr(n) for b in config.blocks for n in b.blocks())]
        assert not [text for text in shown if _KEY in text]


def test_a_failing_template_check_does_not_show_the_passphrase() -> None:
    """A check's failure is scrubbed of the configuration's secrets: the passphrase too, wherever it is copied.
    Before: shown as written."""
    from plancheck import ConfigCheckError
    from plancheck.tfconfig import Template

    document = {**_PBKDF2, "resource": {"terraform_data": {"a": {"input": _KEY}}}}
    with pytest.raises(ConfigCheckError) as caught:
        Template(parse_config(json.dumps(document), flavor="opentofu")).has_resource_properties(
            "terraform_data", {"input": "other"}
        )
    assert "(sensitive)" in str(caught.value)
    assert _KEY not in str(caught.value)
    assert _KEY not in repr(caught.value)


#: A module directory as each tool reads it (opentofu configs/parser_config_dir.go filterTfPathsWithTofuAlternatives:
#: x.tofu.json hides x.tf.json, not across; Terraform reads no .tofu file).
_TOFU_FILES = {
    "main.tf.json": {"locals": {"main": "tf", "over": "base"}},
    "main.tofu.json": {"locals": {"main": "tofu", "over": "base"}},
    "other.tf.json": {"locals": {"other": "tf"}},
    "other.tofu": "locals {}\n",
    "override.tf.json": {"locals": {"over": "tf"}},
    "override.tofu.json": {"locals": {"over": "tofu"}},
}


@pytest.mark.parametrize(
    ("files", "flavor", "read"),
    [
        pytest.param(_TOFU_FILES, None, {"main": "tofu", "other": "tf", "over": "tofu"}, id="tofu-files-no-flavor"),
        pytest.param(_TOFU_FILES, "terraform", {"main": "tf", "other": "tf", "over": "tf"}, id="tofu-files-terraform"),
        pytest.param({"main.tf.json": {"locals": {"main": "tf"}}, "main.tofu": "locals {}\n"}, None, {"main": "tf"},
                     id="a-tofu-file-hides-no-json-file"),
        pytest.param({"main.tf.json": {"locals": {"main": "tf"}}, ".old.tofu.json": {"locals": {"main": "old"}}}, None,
                     {"main": "tf"}, id="a-hidden-tofu-file-is-no-sign"),
        pytest.param({"main.tf.json": {"locals": {"main": "tf"}}}, None, {"main": "tf"}, id="no-tofu-file"),
    ],
)
def test_a_directory_holding_tofu_files_is_read_as_opentofu_reads_it(
    tmp_path: Path, files: dict[str, Any], flavor: Any, read: dict[str, str]
) -> None:
    """Without a flavor, a .tofu or .tofu.json file (which Terraform never reads) says the module is OpenTofu's.
    Before: Template.from_file and the tf_config marker read it as Terraform does."""
    from plancheck.tfconfig import Template, load_config_for_test

    _write(tmp_path, files)
    given = {} if flavor is None else {"flavor": flavor}
    assert Template.from_file(tmp_path, **given).config.locals == read
    assert load_config_for_test(tmp_path, **given).locals == read


@pytest.mark.parametrize("flavor", ["terraform", "opentofu"])
@pytest.mark.parametrize(
    ("text", "error"),
    [
        pytest.param(
            f'{{"terraform": {{"encryption": {{"key_provider": {{"pbkdf2": {{"k": {{"passphrase": {_KEY}}}}}}}}}}}}}',
            'main.tf.json:1:79: $.terraform["encryption"]["key_provider"]["pbkdf2"]["k"]["passphrase"]: '
            "expected a JSON value, found (sensitive)",
            id="an-unquoted-passphrase",
        ),
        pytest.param(
            f'{{"terraform": [{{"encryption": {{"method": {{"aes_gcm": {{"m": {{"keys": {{"{_KEY}": {_KEY}}}}}}}}}}}}}]}}',
            'main.tf.json:1:88: $.terraform[0]["encryption"]["method"]["aes_gcm"]["m"]["keys"]["(sensitive)"]: '
            "expected a JSON value, found (sensitive)",
            id="a-key-of-a-methods-keys",
        ),
    ],
)
def test_an_error_inside_an_encryption_key_shows_none_of_it(flavor: Any, text: str, error: str) -> None:
    """An error inside an encryption key hides its keys and what it quotes, as inside a sensitive default. Before:
    found 'hunter2-TOFU25'."""
    assert _read(text, flavor) == error
