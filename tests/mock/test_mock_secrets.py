"""The mock learns the case's secrets: a sensitive variable's value placed in a plain attribute never shows in
``repr(mock.calls)``, with or without pytest; ``mock-plan`` finds the values of the module's sensitive variables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mock_support import CLOUD, Direct, cloud_document
from secret_shapes import SHAPES, leaks

from plancheck import Plan
from plancheck._redact import Secrets
from plancheck._terraform.mock.plan import declared_sensitive, input_secrets, plan_sensitive
from plancheck._terraform.mock.provider import MockProvider
from plancheck.acceptance._workplace import ProviderSession


def bucket(name: str) -> dict[str, object]:
    return {
        "id": None, "name": name, "arn": None, "region": None, "size_gb": None, "public": None, "tags": None,
        "readers": None, "endpoints": None, "encryption_key": None, "website": None, "cors_rules": None,
        "versioning": [], "lifecycle_rule": [],
    }


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("when", ["before-the-call", "after-the-call"])
def test_a_learned_secret_in_a_plain_attribute_is_scrubbed_from_the_calls(shape: str, when: str) -> None:
    secret = SHAPES[shape]
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    if when == "before-the-call":
        mock.plancheck_secrets(Secrets([secret]))
    config = bucket(secret)
    config["versioning"] = None
    config["lifecycle_rule"] = None
    direct.create("cloud_bucket", config)
    if when == "after-the-call":
        mock.plancheck_secrets([secret])  # a secret found later in the case still scrubs what was recorded before
    assert mock.calls[-1].config["name"] == secret  # the config itself keeps the value, for assertions
    text = repr(mock.calls) + "".join(repr(c) for c in mock.calls) + str(mock.calls)
    assert leaks(text, {shape: secret}) == []
    assert "(sensitive)" in text


@pytest.mark.parametrize("learned", [pytest.param("served", id="a-sensitive-value-it-served"),
                                     pytest.param("handed", id="a-secret-the-runner-handed-over")])
def test_a_secret_learned_after_the_calls_were_shown_is_scrubbed_when_they_are_shown_again(learned: str) -> None:
    """The mock's scrub is built when first needed after a secret was learned (building it at each one made a module
    of 1,000 keys quadratic: benchmarks/bench_mock_secrets.py): one learned after a showing is not missed."""
    mock = MockProvider(cloud_document(), CLOUD)
    direct = Direct(mock)
    first = direct.create("cloud_access_key", {"id": None, "bucket_id": "b-1", "secret": None})
    assert first["secret"] not in repr(mock.calls)  # shown once: the scrub is built
    if learned == "served":
        secret = direct.create("cloud_access_key", {"id": None, "bucket_id": "b-2", "secret": None})["secret"]
    else:
        secret = SHAPES["plain"]
        mock.plancheck_secrets([secret])
    direct.create("cloud_bucket", {**bucket(secret), "versioning": None, "lifecycle_rule": None})
    assert mock.calls[-1].config["name"] == secret
    text = repr(mock.calls) + str(mock.calls)
    assert leaks(text, {"first": first["secret"], "learned": secret}) == []


def test_the_provider_session_hands_the_case_secrets_to_a_served_mock() -> None:
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    from plancheck._terraform.providers.factory import normalize_providers

    secret, later = SHAPES["plain"], SHAPES["non-ascii"]
    mock = MockProvider(cloud_document(), CLOUD)
    session = ProviderSession(platform="linux_amd64")
    try:
        session.add_secrets(Secrets([secret]))  # known before the provider starts (a Sensitive variable)
        session.use(normalize_providers({CLOUD: mock}, "providers"))
        session.add_secrets(Secrets([later]))  # found later (a plan's sensitive value)
    finally:
        session.close()
    assert mock._scrub(f"{secret} and {later}") == "(sensitive) and (sensitive)"


def test_secrets_handed_over_in_parts_reach_every_mock_however_late_it_starts() -> None:
    """The session keeps each handover as it came, and joins them for a provider started later; a mock joins what
    it learned when it first scrubs. Every part reaches every mock served when or after it is found, trusted texts
    too."""
    pytest.importorskip("tf", reason="the providers extra (tf, grpcio) is not installed")
    from plancheck._terraform.providers.factory import normalize_providers

    parts = [SHAPES["plain"], SHAPES["non-ascii"], SHAPES["multiline-pem"], SHAPES["passphrase"]]
    first, second = MockProvider(cloud_document(), CLOUD), MockProvider(cloud_document(), CLOUD)
    session = ProviderSession(platform="linux_amd64")
    try:
        session.add_secrets(Secrets([parts[0]]).trusting(["cloud_bucket.tags"]))
        session.add_secrets(Secrets([parts[1]]))
        session.use(normalize_providers({CLOUD: first}, "providers"))
        session.add_secrets(Secrets([parts[2]]))
        session.add_secrets(Secrets())  # a plan that holds no secret
        session.use(normalize_providers({CLOUD: second}, "providers"))  # a later step's: the first is stopped
        session.add_secrets(Secrets([parts[3]]))
    finally:
        session.close()
    for mock, learned in ((first, parts[:3]), (second, parts)):  # the first stopped before the last handover
        assert [mock._scrub(part) for part in learned] == ["(sensitive)"] * len(learned)
        assert leaks(mock._scrub(" | ".join(learned)), {str(i): part for i, part in enumerate(learned)}) == []
        assert mock._learned_secrets().trusted == frozenset({"cloud_bucket.tags"})


# -- mock-plan: which values are the module's secrets --------------------------------------------------

MODULE_TF = '''
variable "pw" {
  type      = string
  sensitive = true
}
variable "name" {
  default = "sensitive = true"   # not the attribute
}
variable "keys" {
  type = map(string)
  validation {
    condition     = true
    error_message = "x"
  }
  sensitive = true
}
locals { sensitive = true }
'''
MODULE_JSON = '{"variable": [{"token": {"sensitive": true}}, {"plain": {"sensitive": false}}]}'


@pytest.fixture
def module(tmp_path: Path) -> Path:
    (tmp_path / "main.tf").write_text(MODULE_TF, encoding="utf-8")
    (tmp_path / "more.tf.json").write_text(MODULE_JSON, encoding="utf-8")
    (tmp_path / ".hidden.tf").write_text('variable "hidden" {\n  sensitive = true\n}\n', encoding="utf-8")
    return tmp_path


def test_the_sensitive_variables_a_module_declares(module: Path) -> None:
    assert sorted(declared_sensitive(module)) == ["keys", "pw", "token"]
    assert declared_sensitive(module / "missing") == set()


def test_every_way_of_giving_a_sensitive_variable_is_scrubbed(module: Path, tmp_path: Path) -> None:
    hcl = tmp_path / "a.tfvars"
    hcl.write_text('pw = "file-pw-secret"\nname = "visible-name"\nkeys = { a = "file-key-secret" }\n', encoding="utf-8")
    js = tmp_path / "b.tfvars.json"
    js.write_text('{"token": ["json-token-secret", 12345678], "plain": "visible-plain"}', encoding="utf-8")
    secrets = input_secrets(module, ["pw=cli-pw-secret", "name=visible-cli"], [str(hcl), str(js)],
                            {"TF_VAR_token": "env-token-secret", "TF_VAR_name": "visible-env"})
    text = ("cli-pw-secret file-pw-secret file-key-secret json-token-secret 12345678 env-token-secret "
            "visible-name visible-plain visible-cli visible-env")
    assert secrets.scrub(text) == "(sensitive) " * 6 + "visible-name visible-plain visible-cli visible-env"


@pytest.mark.parametrize(("file", "text", "sensitive"), [
    pytest.param("v.tf", 'variable "pw" {\n  sensitive = true # why\n}\n', True, id="comment"),
    pytest.param("v.tf", 'variable "pw" {\n  sensitive = (true)\n}\n', True, id="parenthesised"),
    pytest.param("v.tf", 'variable "pw" {\n  sensitive = false\n}\n', False, id="false"),
    # One rule with the coverage report's withheld defaults (flagged_sensitive): plainly false, or sensitive.
    pytest.param("v.tf", 'variable "pw" {\n  sensitive = (false) // no\n}\n', False, id="false-parenthesised"),
    pytest.param("v.tf", 'variable "pw" {\n  sensitive = false || true\n}\n', True, id="false-or-true"),
    pytest.param("v.tf", 'variable "pw" {\n  sensitive = (false # no\n    || true)\n}\n', True,
                 id="false-then-more-after-a-comment"),
    pytest.param("v.tf.json", '{"variable": {"pw": {"sensitive": "true"}}}', True, id="json-string"),
    pytest.param("v.tf.json", '{"variable": {"pw": {"sensitive": "${true}"}}}', True, id="json-template"),
    pytest.param("v.tf.json", '{"variable": {"pw": {"sensitive": "false"}}}', False, id="json-false-string"),
    pytest.param("v.tf.json", '{"variable": {"pw": {"type": "string"}}}', False, id="json-absent"),
])
def test_a_sensitive_flag_is_read_however_it_is_written(tmp_path: Path, file: str, text: str, sensitive: bool) -> None:
    (tmp_path / file).write_text(text, encoding="utf-8")
    assert declared_sensitive(tmp_path) == ({"pw"} if sensitive else set())


_S = "zz-mp-secret-Hq8x"


# What Terraform 1.11 printed of each variables file (its diagnostic quotes a file's line, or the value it evaluated).
@pytest.mark.parametrize(("file", "text", "shown"), [
    pytest.param("v.tfvars", f'pw = "{_S}"\n', f'cannot convert "{_S}" to', id="plain-string"),
    pytest.param("v.tfvars", f'pw = <<EOT\n{_S}\nEOT\n', f'cannot convert "{_S}\\n" to', id="heredoc"),
    pytest.param("v.tfvars", f'pw = <<-EOT\n  {_S}\n  EOT\n', f'cannot convert "{_S}\\n" to', id="indented-heredoc"),
    pytest.param("v.tfvars", f'pw = "{_S}\n', f'   1: pw = "{_S}', id="unterminated-string"),
    pytest.param("v.tfvars", f"pw = '{_S}'\n", f"   1: pw = '{_S}'", id="single-quoted"),
    pytest.param("v.tfvars", f'pw = "{_S}" extra\n', f'   1: pw = "{_S}" extra', id="trailing-word"),
    pytest.param("v.tfvars.json", f'{{"pw": "{_S}",}}', f'   1: {{"pw": "{_S}",}}', id="json-trailing-comma"),
    pytest.param("v.tfvars.json", f'[{{"pw": "{_S}"}}]', f'   1: [{{"pw": "{_S}"}}]', id="json-array"),
    # A template: a variables file references nothing, so its interpolations are literals, and Terraform 1.11 shows
    # the value it evaluated ('var.pw is "..."' of a failed validation): its source text is no match for that.
    pytest.param("v.tfvars", f'pw = "a-${{"{_S}"}}-z"\n', f'var.pw is "a-{_S}-z"', id="template"),
    pytest.param("v.tfvars", f'pw = "${{"a-"}}${{ "{_S}" }}${{"-z"}}"\n', f'var.pw is "a-{_S}-z"',
                 id="template-only-interpolations"),
    pytest.param("v.tfvars", f'pw = ["x", "a-${{"{_S}"}}-z"]\n', f'var.pw is list of string with 2 elements: "a-{_S}-z"',
                 id="template-in-a-list"),
    pytest.param("v.tfvars", f'pw = "a-${{"b-${{"{_S}"}}-c"}}-d"\n', f'var.pw is "a-b-{_S}-c-d"', id="template-nested"),
    # A heredoc is a template too: Terraform 1.11 showed 'var.pw is "a-zz-secret-z\n  b-x-nested-y ${lit}\n"'.
    pytest.param("v.tfvars", f'pw = <<EOT\na-${{"{_S}"}}-z\n  b-${{"x-${{"{_S}"}}-y"}} $${{lit}}\nEOT\n',
                 f'var.pw is "a-{_S}-z\\n  b-x-{_S}-y ${{lit}}\\n"', id="heredoc-template"),
])
def test_a_value_given_in_a_variables_file_is_scrubbed_however_it_is_written(
    module: Path, tmp_path: Path, file: str, text: str, shown: str
) -> None:
    given = tmp_path / "given"
    given.mkdir()
    (given / file).write_text(text + ("" if file.endswith(".json") else 'name = "visible-name"\n'), encoding="utf-8")
    secrets = input_secrets(module, [], [str(given / file)], {})
    assert leaks(secrets.scrub(shown), {"pw": _S}) == []
    if not file.endswith(".json"):
        assert secrets.scrub(f'{shown}\n   2: name = "visible-name"').endswith('name = "visible-name"')


@pytest.mark.parametrize(("file", "text"), [
    pytest.param("terraform.tfvars", f'pw = "{_S}"\n', id="terraform-tfvars"),
    pytest.param("terraform.tfvars.json", f'{{"pw": "{_S}"}}', id="terraform-tfvars-json"),
    pytest.param("x.auto.tfvars", f'pw = "{_S}"\n', id="auto-tfvars"),
    pytest.param("x.auto.tfvars.json", f'{{"pw": "{_S}"}}', id="auto-tfvars-json"),
    pytest.param("d.tf", f'variable "pw" {{\n  sensitive = true\n  default = "{_S}"\n  validation {{\n'
                 '    condition = true\n    error_message = "visible-name"\n  }\n}\n', id="default"),
    pytest.param("d.tf", f'variable "pw" {{\n  sensitive = true\n  default = <<EOT\n{_S}\nEOT\n}}\n', id="default-heredoc"),
    pytest.param("d.tf.json", f'{{"variable": {{"pw": {{"sensitive": true, "default": ["{_S}"]}}}}}}', id="default-json"),
])
def test_a_value_terraform_finds_in_the_module_itself_is_scrubbed(tmp_path: Path, file: str, text: str) -> None:
    # Terraform loads these files and defaults with no --var-file: its errors show them as they show a given value.
    (tmp_path / "v.tf").write_text('variable "pw" {\n  sensitive = true\n}\n', encoding="utf-8")
    (tmp_path / file).write_text(text, encoding="utf-8")
    secrets = input_secrets(tmp_path, [], [], {})
    shown = f'cannot convert "{_S}" to number; "visible-name"'
    assert secrets.scrub(shown) == 'cannot convert "(sensitive)" to number; "visible-name"'


def test_a_variable_the_plan_says_is_sensitive_is_scrubbed() -> None:
    plan = Plan.from_json('{"format_version": "1.2", "configuration": {"root_module": {"variables": '
                          '{"pw": {"sensitive": true}, "n": {}}}}}')
    assert plan_sensitive(plan.raw, ["pw=plan-pw-secret", "n=visible"]).scrub("plan-pw-secret visible") == "(sensitive) visible"
    assert len(plan_sensitive({"format_version": "1.2"}, ["pw=plan-pw-secret"])) == 0


_CHILD_DEFAULT = f'variable "pw" {{\n  sensitive = true\n  default = "{_S}"\n}}\n'


def _laid_out(root: Path, layout: dict[str, str]) -> Path:
    """``root`` holding ``layout``'s files (relative path -> text)."""
    for name, text in layout.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(("layout", "scrubbed"), [
    pytest.param({"main.tf": 'module "c" {\n  source = "./child"\n}\n', "child/v.tf": _CHILD_DEFAULT}, True,
                 id="child"),
    pytest.param({"main.tf": 'module "c" {\n  source = "./child"\n}\n', "child/main.tf": 'module "g" {\n'
                  '  source = "../lib/g"\n}\n', "lib/g/v.tf": _CHILD_DEFAULT}, True, id="grandchild-through-a-parent"),
    pytest.param({"main.tf.json": '{"module": {"c": {"source": "./child"}}}',
                  "child/v.tf.json": f'{{"variable": {{"pw": {{"sensitive": true, "default": "{_S}"}}}}}}'}, True,
                 id="json-child"),
    pytest.param({"main.tf": 'module "c" {\n  source = "./gone"\n}\nmodule "d" {\n  source = "./child"\n}\n',
                  "child/v.tf": _CHILD_DEFAULT}, False, id="a-missing-module-stops-terraform-before-any-default"),
    pytest.param({"main.tf": 'module "c" {\n  source = "./child"\n}\n',
                  "child/v.tf": f'variable "pw" {{\n  default = "{_S}"\n}}\n'}, False, id="child-not-sensitive"),
])
def test_a_local_child_modules_sensitive_default_is_scrubbed(
    tmp_path: Path, layout: dict[str, str], scrubbed: bool
) -> None:
    # Terraform's error shows a child's default it evaluated, before any plan lists the module's variables.
    root = _laid_out(tmp_path / "root", layout)
    shown = f'cannot convert "{_S}" to number; "visible-name"'
    expected = 'cannot convert "(sensitive)" to number; "visible-name"' if scrubbed else shown
    assert input_secrets(root, [], [], {}).scrub(shown) == expected


_CHILD_SENSITIVE = 'variable "pw" {\n  sensitive = true\n}\nvariable "n" {}\n'


#: What the error below shows once scrubbed: the string, or the whole expression Terraform quotes.
_STRING, _WHOLE = '3:   pw = "(sensitive)" + 1; "visible-name"', '3:   pw = (sensitive); "visible-name"'


@pytest.mark.parametrize(("layout", "scrubbed"), [
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  pw = "{_S}"\n}}\n', "child/v.tf": _CHILD_SENSITIVE},
                 _STRING, id="a-plain-string"),
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  pw = "{_S}" + 1\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, _WHOLE, id="an-expression-terraform-quotes"),
    pytest.param({"main.tf.json": f'{{"module": {{"c": {{"source": "./child", "pw": {{"k": "{_S}"}}}}}}}}',
                  "child/v.tf.json": '{"variable": {"pw": {"sensitive": true}}}'}, _STRING, id="json-call-json-child"),
    pytest.param({"main.tf": 'module "c" {\n  source = "./child"\n}\n',
                  "child/main.tf": f'module "g" {{\n  source = "../lib/g"\n  pw = "{_S}"\n}}\n',
                  "lib/g/v.tf": _CHILD_SENSITIVE}, _STRING, id="a-childs-call-of-a-grandchild"),
    # Both tools read a "_" block's arguments as the call's inputs (configs/module_call.go): a meta-argument's name too.
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  _ {{\n    pw = "{_S}"\n  }}\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, _STRING, id="an-escape-block"),
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  _ {{ pw = "{_S}" + 1 }}\n  n = 1\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, _WHOLE, id="an-escape-block-expression-on-one-line"),
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  _ {{\n    count = "{_S}"\n  }}\n}}\n',
                  "child/v.tf": 'variable "count" {\n  sensitive = true\n}\n'}, _STRING, id="an-escaped-meta-name"),
    pytest.param({"main.tf.json": f'{{"module": {{"c": {{"source": "./child", "_": {{"pw": "{_S}"}}}}}}}}',
                  "child/v.tf": _CHILD_SENSITIVE}, _STRING, id="a-json-escape-block"),
    pytest.param({"main.tf.json": f'{{"module": {{"c": {{"source": "./child", "_": [{{"pw": ["{_S}"]}}]}}}}}}',
                  "child/v.tf": _CHILD_SENSITIVE}, _STRING, id="a-json-escape-block-in-an-array"),
    # Not over-scrubbed: an argument of a variable the child does not declare sensitive, a remote module (not read).
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  _ {{ n = "{_S}" }}\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, None, id="an-escaped-variable-not-sensitive"),
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  n = "{_S}"\n}}\n', "child/v.tf": _CHILD_SENSITIVE},
                 None, id="a-variable-not-sensitive"),
    pytest.param({"main.tf": f'module "c" {{\n  source = "acme/c/aws"\n  pw = "{_S}"\n}}\n'}, None, id="a-remote-module"),
    # A reference names where a value comes from: the variable's name stays readable.
    pytest.param({"main.tf": 'module "c" {\n  source = "./child"\n  pw = var.pw_given\n}\n', "child/v.tf": _CHILD_SENSITIVE},
                 None, id="a-reference"),
    pytest.param({"main.tf.json": '{"module": {"c": {"source": "./child", "pw": "${var.pw_given}"}}}',
                  "child/v.tf": _CHILD_SENSITIVE}, None, id="a-json-template"),
    # A source that is no string (Terraform refuses the file; read before it does): no child, and no bare TypeError.
    pytest.param({"main.tf.json": f'{{"module": {{"c": {{"source": ["./child"], "pw": "{_S}"}}}}}}',
                  "child/v.tf": _CHILD_SENSITIVE}, None, id="a-json-source-that-is-no-string"),
])
def test_what_a_call_gives_a_local_childs_sensitive_variable_is_scrubbed(
    tmp_path: Path, layout: dict[str, str], scrubbed: str | None
) -> None:
    # Terraform quotes the call's line in an error before planning (`3:   pw = "<value>" + 1`): only the call has it.
    root = _laid_out(tmp_path / "root", layout)
    shown = f'3:   pw = "{_S}" + 1; "visible-name"; var.pw_given, ${{var.pw_given}}'
    if scrubbed:
        scrubbed += "; var.pw_given, ${var.pw_given}"
    assert input_secrets(root, [], [], {}).scrub(shown) == (scrubbed or shown)


#: What Terraform's line quoting the evaluated value shows once scrubbed: a quoted template is a secret as written too
#: (its quote included), a heredoc's and a .tf.json string's runs without one; and unscrubbed.
_RUN_QUOTED, _RUN, _RUN_SHOWN = (f'var.pw is {scrubbed}prod"; "visible-name"' for scrubbed in ("(sensitive)", '"(sensitive)', f'"{_S}-'))


@pytest.mark.parametrize(("layout", "scrubbed"), [
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  pw = "{_S}-${{var.n}}"\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, _RUN_QUOTED, id="an-hcl-template"),
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  pw = <<EOT\n{_S}-${{var.n}}\nEOT\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, _RUN, id="an-hcl-heredoc"),
    pytest.param({"main.tf.json": f'{{"module": {{"c": {{"source": "./child", "pw": "{_S}-${{var.n}}"}}}}}}',
                  "child/v.tf": _CHILD_SENSITIVE}, _RUN, id="a-json-template"),
    # Not over-scrubbed: the same template given to a variable the child does not declare sensitive.
    pytest.param({"main.tf": f'module "c" {{\n  source = "./child"\n  n = "{_S}-${{var.n}}"\n}}\n',
                  "child/v.tf": _CHILD_SENSITIVE}, _RUN_SHOWN, id="a-variable-not-sensitive"),
])
def test_a_literal_run_of_a_template_a_call_gives_a_sensitive_variable_is_scrubbed(
    tmp_path: Path, layout: dict[str, str], scrubbed: str
) -> None:
    # Terraform marks the child's variable whole: the value it evaluated ("<run>prod") holds the template's literal run.
    root = _laid_out(tmp_path / "root", layout)
    assert input_secrets(root, [], [], {}).scrub(_RUN_SHOWN) == scrubbed


_KEY = "hunter2-TOFU25"


def _encryption(body: str) -> str:
    return f'terraform {{\n  encryption {{\n{body}\n  }}\n}}\n'


@pytest.mark.parametrize(("layout", "secret"), [
    pytest.param({"main.tf": _encryption(f'    key_provider "pbkdf2" "k" {{\n      passphrase = "{_KEY}"\n    }}')},
                 _KEY, id="pbkdf2-passphrase"),
    pytest.param({"main.tofu": _encryption(f'    key_provider "pbkdf2" "k" {{ passphrase = "{_KEY}" }}')},
                 _KEY, id="a-tofu-file-one-line"),
    pytest.param({"main.tf": _encryption(f'    key_provider "pbkdf2" "k" {{\n      passphrase = "{_KEY}-${{var.tail}}"\n'
                                         '    }')}, f'"{_KEY}-${{var.tail}}"', id="a-template-as-written"),
    pytest.param({"main.tf": _encryption(f'    key_provider "pbkdf2" "k" {{\n      passphrase = <<EOT\n{_KEY}\nEOT\n    }}')},
                 _KEY, id="a-heredoc"),
    pytest.param({"main.tf": _encryption(f'    method "aes_gcm" "m" {{\n      keys = {{ encryption_key = "{_KEY}" }}\n'
                                         '    }')}, _KEY, id="a-methods-literal-keys"),
    pytest.param({"main.tf": _encryption(f'    key_provider "aws_kms" "k" {{\n      kms_key_id = "alias/state"\n'
                                         f'      secret_key = "{_KEY}"\n    }}')}, _KEY, id="aws-kms-secret-key"),
    pytest.param({"main.tf": _encryption('    key_provider "aws_kms" "k" {\n      assume_role_with_web_identity = {\n'
                                         f'        role_arn = "arn:aws:iam::1:role/r"\n        web_identity_token = "{_KEY}"\n'
                                         '      }\n    }')}, _KEY, id="a-nested-web-identity-token"),
    pytest.param({"main.tf.json": json.dumps({"terraform": {"encryption": {"key_provider": {
        "pbkdf2": {"k": {"passphrase": _KEY}}}}}})}, _KEY, id="json"),
    pytest.param({"main.tf.json": json.dumps({"terraform": {"encryption": {"key_provider": {
        "pbkdf2": {"k": {"passphrase": f"{_KEY}-${{var.tail}}"}}}}}})}, f"{_KEY}-", id="a-json-templates-literal-part"),
    pytest.param({"main.tofu.json": json.dumps({"terraform": [{"encryption": [{"key_provider": {
        "openbao": {"k": {"key_name": "state", "token": _KEY}}}}]}]})}, _KEY, id="tofu-json-in-arrays"),
    pytest.param({"main.tf": 'module "c" {\n  source = "./child"\n}\n',
                  "child/e.tf": _encryption(f'    key_provider "pbkdf2" "k" {{\n      passphrase = "{_KEY}"\n    }}')},
                 _KEY, id="a-local-childs-block"),
    # Not over-scrubbed: a reference names a key, the names and settings around a key are none.
    pytest.param({"main.tf": _encryption('    key_provider "pbkdf2" "k" {\n      passphrase = var.passphrase\n'
                                         '      key_length = 32\n    }\n    method "aes_gcm" "m" {\n'
                                         '      keys = key_provider.pbkdf2.k\n    }')}, None, id="references"),
    pytest.param({"main.tf": f'locals {{\n  passphrase = "{_KEY}"\n}}\n'}, None, id="no-encryption-block"),
])
def test_opentofu_encryption_key_material_is_scrubbed(tmp_path: Path, layout: dict[str, str], secret: str | None) -> None:
    # OpenTofu quotes the block's lines in an error (its passphrase is too short...); no sensitive flag marks a key.
    root = _laid_out(tmp_path / "root", layout)
    shown = f'4:       passphrase = "{_KEY}-${{var.tail}}"; var.passphrase, key_provider.pbkdf2.k, alias/state, 32'
    scrubbed = input_secrets(root, [], [], {}).scrub(shown)
    expected = shown if secret is None else shown.replace(secret, "(sensitive)")
    assert scrubbed == expected
    assert secret is None or _KEY not in scrubbed


@pytest.mark.parametrize("name", ["v.tofu", "v.tofu.json"])
def test_a_sensitive_default_in_an_opentofu_file_is_scrubbed(tmp_path: Path, name: str) -> None:
    """OpenTofu reads .tofu and .tofu.json files (a module planned with tofu shows their defaults in its errors).
    Before: .tf and .tf.json files alone were read for flags and defaults."""
    text = ('{"variable": {"pw": {"sensitive": true, "default": "hunter2-TOFU25"}}}' if name.endswith(".json")
            else 'variable "pw" {\n  sensitive = true\n  default   = "hunter2-TOFU25"\n}\n')
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert declared_sensitive(tmp_path) == {"pw"}
    assert input_secrets(tmp_path, [], [], {}).scrub('var.pw is "hunter2-TOFU25"') == 'var.pw is "(sensitive)"'
