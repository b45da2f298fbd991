"""The template scanner: literal, single interpolation or template, and the references made."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck.tfconfig import ParsedTemplate, Reference, TemplateSyntaxError, parse_reference, parse_template
from plancheck.tfconfig._template import sensitive_literals

KINDS: list[tuple[str, str, str, list[str]]] = [
    ("plain", "hello", "literal", []),
    ("empty", "", "literal", []),
    ("dollar-alone", "costs $5 or 10%", "literal", []),
    ("escaped-interpolation", "$${var.x}", "literal", []),
    ("escaped-directive", "%%{ if x }", "literal", []),
    ("single-interpolation", "${var.x}", "interpolation", ["var.x"]),
    ("single-with-spaces", "${ var.x }", "interpolation", ["var.x"]),
    ("single-with-strip-markers", "${~ var.x ~}", "interpolation", ["var.x"]),
    ("leading-text", " ${var.x}", "template", ["var.x"]),
    ("two-interpolations", "${var.a}${var.b}", "template", ["var.a", "var.b"]),
    ("resource-attribute", "${aws_instance.example.id}", "interpolation", ["aws_instance.example.id"]),
    ("module-output", "${module.m.out}", "interpolation", ["module.m.out"]),
    ("local", "x-${local.y}", "template", ["local.y"]),
    ("data-source", "${data.a.b.c}", "interpolation", ["data.a.b.c"]),
    ("literal-indexes-kept", '${module.m.out[0]["k"].x}', "interpolation", ['module.m.out[0]["k"].x']),
    (
        "computed-index-stops",
        "${test_object.a[count.index].test_string}",
        "interpolation",
        ["test_object.a", "count.index"],
    ),
    (
        "legacy-splat",
        "${aws_security_group.firewall.*.id}",
        "interpolation",
        ["aws_security_group.firewall.*.id"],
    ),
    ("legacy-index", "${aws_instance.test.0.foo}", "interpolation", ["aws_instance.test.0.foo"]),
    ("function-call", "${upper(local.y)}", "interpolation", ["local.y"]),
    ("function-name-not-a-reference", "${upper(bar + baz[1])}", "interpolation", []),
    ("provider-function", "${provider::aws::arn_parse(var.arn).region}", "interpolation", ["var.arn"]),
    ("nested-braces", "${ {a = var.x, b = {c = local.d}} }", "interpolation", ["var.x", "local.d"]),
    ("quoted-brace", '${lookup(var.m, "k}", 1)}', "interpolation", ["var.m"]),
    ("nested-template-in-string", '${"a${var.q}b"}', "interpolation", ["var.q"]),
    (
        "for-iterators-are-not-references",
        "${[for s in var.list : upper(s.name)]}",
        "interpolation",
        ["var.list"],
    ),
    ("for-key-value", "${ {for k, v in var.m : k => v.id} }", "interpolation", ["var.m"]),
    ("directives", "%{ if var.a }x%{ else }y%{ endif }", "template", ["var.a"]),
    ("for-directive", "%{ for n in var.names }${n.first} %{ endfor }", "template", ["var.names"]),
    (
        "path-and-terraform",
        "${path.module}/${terraform.workspace}",
        "template",
        ["path.module", "terraform.workspace"],
    ),
    ("each-and-count", "${each.key}-${count.index}", "template", ["each.key", "count.index"]),
    ("block-comment", "${var.a /* } */ + var.b}", "interpolation", ["var.a", "var.b"]),
    ("unicode-identifiers", "${var.π}", "interpolation", ["var.π"]),
    ("number-attribute-access", "${1.5 + var.x}", "interpolation", ["var.x"]),
    ("bare-identifier-not-a-reference", "${foo}", "interpolation", []),
]


@pytest.mark.parametrize(
    ("text", "kind", "refs"), [(t, k, r) for _, t, k, r in KINDS], ids=[i for i, *_ in KINDS]
)
def test_templates_are_classified_and_references_found(text: str, kind: str, refs: list[str]) -> None:
    parsed = parse_template(text)
    assert parsed.kind == kind
    assert [r.text for r in parsed.references] == refs


def test_literal_and_expression_parts() -> None:
    assert parse_template("a $${b} %%{c}").literal == "a ${b} %{c}"
    assert parse_template("${ var.x }").expression == "var.x"
    assert parse_template("${~ var.x ~}").expression == "var.x"
    assert parse_template("x ${var.x}").literal is None


REFERENCE_KINDS: list[tuple[str, str, str]] = [
    ("var.x", "var", "var.x"),
    ("local.y", "local", "local.y"),
    ("module.m.out", "module", "module.m"),
    ("data.aws_ami.u.id", "data", "data.aws_ami.u"),
    ("ephemeral.random_password.p.result", "ephemeral", "ephemeral.random_password.p"),
    ("aws_instance.web.id", "resource", "aws_instance.web"),
    ("path.module", "path", "path.module"),
    ("terraform.workspace", "terraform", "terraform.workspace"),
    ("count.index", "count", "count.index"),
    ("each.value", "each", "each.value"),
    ("self.private_ip", "self", "self.private_ip"),
]


@pytest.mark.parametrize(("text", "kind", "subject"), REFERENCE_KINDS, ids=[t for t, _, _ in REFERENCE_KINDS])
def test_reference_kinds_and_subjects(text: str, kind: str, subject: str) -> None:
    ref = parse_template("${" + text + "}").references[0]
    assert (ref.text, ref.kind, ref.subject) == (text, kind, subject)
    assert parse_reference(text) == ref


SYNTAX_ERRORS: list[tuple[str, str, str]] = [
    (
        "unclosed-interpolation",
        "Hello ${var.name",
        "at character 7: unclosed '${': no '}' ends this interpolation",
    ),
    ("unclosed-directive", "%{ if var.x", "at character 1: unclosed '%{': no '}' ends this directive"),
    ("unclosed-quote", '${"abc}', "at character 3: unclosed quoted string inside an interpolation"),
    ("unclosed-comment", "${var.x /* }", "at character 9: unclosed '/*' comment inside an interpolation"),
    ("if-without-endif", "%{ if x }y", "at character 1: '%{ if }' has no matching '%{ endif }'"),
    ("endif-alone", "%{ endif }", "at character 1: '%{ endif }' without an open '%{ if }'"),
    ("else-alone", "%{ else }", "at character 1: '%{ else }' outside of '%{ if }'"),
    (
        "mismatched-end",
        "%{ for a in b }x%{ endif }",
        "at character 17: '%{ endif }' without an open '%{ if }'",
    ),
    (
        "unknown-directive",
        "%{ while x }",
        "at character 1: a directive must be one of if, else, endif, for, endfor; found 'while'",
    ),
]


@pytest.mark.parametrize(
    ("text", "message"), [(t, m) for _, t, m in SYNTAX_ERRORS], ids=[i for i, *_ in SYNTAX_ERRORS]
)
def test_template_syntax_errors(text: str, message: str) -> None:
    with pytest.raises(TemplateSyntaxError) as info:
        parse_template(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "text", ["x", "${aws_instance.web}", "aws_instance.web[count.index]", "", "a b", "1.a"]
)
def test_parse_reference_refuses_non_references(text: str) -> None:
    with pytest.raises(
        TemplateSyntaxError, match=r"expected a reference such as aws_instance\.web or module\.m"
    ):
        parse_reference(text)


def test_value_semantics() -> None:
    a = parse_template("${var.x}-${local.y}")
    assert a == parse_template("${var.x}-${local.y}")
    assert hash(a) == hash(parse_template("${var.x}-${local.y}"))
    assert a.__eq__("x") is NotImplemented
    assert pickle.loads(pickle.dumps(a)) == a
    assert repr(a.references[0]) == "Reference('var.x', kind='var', subject='var.x')"
    assert isinstance(a, ParsedTemplate)
    ref = a.references[1]
    assert isinstance(ref, Reference)
    assert pickle.loads(pickle.dumps(ref)) == ref
    with pytest.raises(AttributeError):
        ref.text = "y"  # type: ignore[misc]
    with pytest.raises(TypeError, match="parse_template expects a str, got int"):
        parse_template(1)  # type: ignore[arg-type]


def test_reference_matching_is_by_whole_steps() -> None:
    ref = parse_reference('module.net.subnets["a"]')
    assert ref.matches("module.net")
    assert ref.matches("module.net.subnets")
    assert ref.matches('module.net.subnets["a"]')
    assert not ref.matches("module.ne")
    assert not ref.matches("module.net.subnet")


_NO_OPENERS = st.text(
    alphabet=st.characters(blacklist_characters="$%", blacklist_categories=("Cs",)), max_size=30
)


@settings(max_examples=200, deadline=None)
@given(_NO_OPENERS)
def test_text_without_openers_is_literal_and_unchanged(text: str) -> None:
    parsed = parse_template(text)
    assert parsed.kind == "literal"
    assert parsed.literal == text


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(_NO_OPENERS, st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)), min_size=1, max_size=4
    )
)
def test_interpolated_variables_are_all_found(parts: list[tuple[str, str]]) -> None:
    text = "".join(f"{lit}${{var.{name}}}" for lit, name in parts)
    assert [r.text for r in parse_template(text).references] == [f"var.{name}" for _, name in parts]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_any_text_either_parses_or_raises_a_template_error(text: str) -> None:
    offset: int | None = None
    kind = None
    try:
        kind = parse_template(text).kind
    except TemplateSyntaxError as exc:
        offset = exc.offset
    if offset is None:
        assert kind in ("literal", "interpolation", "template")
    else:
        assert 0 <= offset < max(len(text), 1)


#: Where an expression may give a quoted string (``Q``) to sensitive(): alone, in parentheses, inside another call
#: inside it, beside template text, inside an object, with whitespace and a comment in the call.
_SENSITIVE_PLACES = (
    "${sensitive(Q)}",
    "${sensitive((Q))}",
    '${upper(sensitive(format("%s-${var.x}", Q)))}',
    "a-${var.y}-${sensitive( Q )}-b",
    "${jsonencode({k = sensitive(Q), n = nonsensitive(var.z)})}",
    "${sensitive(/* why */ Q\n)}",
)


def _hcl_quoted(value: str) -> str:
    """``value`` as an HCL quoted string: JSON's escapes, and a template's openers doubled."""
    return json.dumps(value, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=20), st.sampled_from(_SENSITIVE_PLACES))
def test_every_string_given_to_sensitive_is_found_wherever_it_stands(value: str, place: str) -> None:
    # The law: a string literal inside sensitive()'s argument is found, as Terraform reads it, however it is nested.
    assert value in sensitive_literals(place.replace("Q", _hcl_quoted(value)))


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=20))
def test_a_string_given_to_nonsensitive_or_a_providers_function_is_not_a_secret(value: str) -> None:
    quoted = _hcl_quoted(value)
    assert sensitive_literals(f"${{nonsensitive({quoted})}}-${{provider::p::sensitive({quoted})}}") == []
