"""A configuration that breaks inside a sensitive variable's default (a sensitive output's value) says where,
but neither the keys of that value nor the text it quotes of it: both are secrets, as they are in every message.

The file is read again for the flags (a broken one cannot be: then any ``sensitive`` flag in it hides every
default and output value, failing closed). A value no sensitive block holds is located as before.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import pytest
from secret_shapes import leaks

from plancheck.tfconfig import ConfigFormatError, config_from_dict, dumps_config, load_config, parse_config

KEY = "zzcfg-key-5e2a"
WORD = "zzcfgword9d1"
SECRETS = {"key": KEY, "word": WORD}

ROWS = {
    "a repeated key of a sensitive default": (
        f'{{"variable": {{"pw": {{"sensitive": true, "default": {{"{KEY}": 1, "{KEY}": 2}}}}}}}}',
        '$.variable["pw"]["default"]["(sensitive)"]: expected unique property names in an object value '
        "(Terraform: Duplicate object attribute), found (sensitive) again"),
    "a number beyond Decimal in a sensitive default": (
        f'{{"variable": {{"pw": {{"default": {{"{KEY}": 1e99999999999999999999}}, "sensitive": true}}}}}}',
        '$.variable["pw"]["default"]["(sensitive)"]: expected a number that Python'),
    "an unquoted word in a sensitive default, the flag after it": (
        f'{{"variable": {{"pw": {{"default": {WORD}, "sensitive": true}}}}}}',
        '$.variable["pw"]["default"]: expected a JSON value, found (sensitive)'),
    "a repeated key of a sensitive output's value, blocks written as arrays": (
        f'{{"output": {{"o": [{{"sensitive": "true", "value": {{"{KEY}": 1, "{KEY}": 2}}}}]}}}}',
        '$.output["o"][0]["value"]["(sensitive)"]: expected unique property names'),
    "a sensitive flag given again as false after the broken default": (
        f'{{"variable": {{"pw": {{"default": {{"{KEY}": 1, "{KEY}": 2}}, "sensitive": true, "sensitive": false}}}}}}',
        '$.variable["pw"]["default"]["(sensitive)"]: expected unique property names'),
    "a sensitive variable's block, then another variable block": (
        f'{{"variable": {{"pw": {{"sensitive": true, "default": {{"{KEY}": 1, "{KEY}": 2}}}}}}, '
        '"variable": {"region": {}}}',
        '$.variable["pw"]["default"]["(sensitive)"]: expected unique property names'),
    # A key a secret is written under that is not the block's plain `default`/`value` (its closing quote
    # forgotten, misspelt) holds it all the same.
    "a sensitive default's key missing its closing quote": (
        f'{{"variable": {{"pw": {{"sensitive": true, "default: "{WORD}"}}}}}}',
        '$.variable["pw"]["default: "]: expected \':\' after a property name, found (sensitive)'),
    "a sensitive default's key misspelt": (
        f'{{"variable": {{"pw": {{"sensitive": true, "defualt": {{"{KEY}": {WORD}}}}}}}}}',
        '$.variable["pw"]["defualt"]["(sensitive)"]: expected a JSON value, found (sensitive)'),
    "a sensitive output's value key missing its closing quote": (
        f'{{"output": {{"o": {{"sensitive": true, "value: "{WORD}"}}}}}}',
        '$.output["o"]["value: "]: expected \':\' after a property name, found (sensitive)'),
    # A block type Terraform does not know has no schema that tells where a secret is: nothing below its name shows.
    "a misspelt block type's body, a key broken": (
        f'{{"varible": {{"pw": {{"sensitive": true, "default": {{"value: {WORD}" 1}}}}}}}}',
        '$.varible["(sensitive)"]["(sensitive)"]["(sensitive)"]: expected \':\' after a property name, found \'1\''),
    "a misspelt block type's body, a word unquoted": (
        f'{{"varible": {{"pw": {{"sensitive": true, "default": ["a" {WORD}]}}}}}}',
        '$.varible["(sensitive)"]["(sensitive)"][0]: expected \',\' or \']\' after an array element, found (sensitive)'),
    "a misspelt block type's body in an array of documents": (
        f'[{{"outptu": {{"o": {{"sensitive": true, "value": {{"{KEY}": {WORD}}}}}}}}}]',
        '$[0]["outptu"]["(sensitive)"]["(sensitive)"]["(sensitive)"]: expected a JSON value, found (sensitive)'),
    # A flag or a sensitive() call spelt with a JSON escape is the flag or the call Terraform reads: the broken file's
    # search for them reads escapes as Terraform does.
    **{
        f"a sensitive {block}'s flag spelt {flag}, its {body} broken": (
            f'{{"{block}": {{"pw": {{"{flag}": true, "{body}": {{"value: {WORD}" 1}}}}}}}}',
            f'$.{block}["pw"]["{body}"]["(sensitive)"]: expected \':\' after a property name, found \'1\'')
        for block, body in [("variable", "default"), ("output", "value")]
        for flag in ("\\u0073ensitive", "sensitiv\\u0065")
    },
    "a misspelt block type's body, its sensitive flag spelt with an escape": (
        f'{{"varible": {{"pw": {{"\\u0073ensitive": true, "default": {{"value: {WORD}" 1}}}}}}}}',
        '$.varible["(sensitive)"]["(sensitive)"]["(sensitive)"]: expected \':\' after a property name, found \'1\''),
    "a misspelt block type's body, a sensitive() call spelt with an escape before it": (
        '{"output": {"o": {"value": "${sensitiv\\u0065(var.pw)}"}}, '
        f'"varible": {{"pw": {{"default": {{"value: {WORD}" 1}}}}}}}}',
        '$.varible["(sensitive)"]["(sensitive)"]["(sensitive)"]: expected \':\' after a property name, found \'1\''),
    # Not over-hidden: a default no sensitive block holds, and a character of syntax.
    "a default of a variable that is not sensitive": (
        f'{{"variable": {{"pw": {{"sensitive": false, "default": {{"{KEY}": 1, "{KEY}": 2}}}}}}}}',
        f'$.variable["pw"]["default"]["{KEY}"]: expected unique property names in an object value '
        f'(Terraform: Duplicate object attribute), found "{KEY}" again'),
    # Not over-hidden: the arguments of a sensitive block that are not its secret (Terraform 1.15+, OpenTofu
    # 1.10+/1.12+: a variable's deprecated and const, an output's deprecated and type).
    **{
        f"a sensitive {block}'s {argument}": (
            f'{{"{block}": {{"pw": {{"sensitive": true, "{body}": "x", "{argument}": plainword9d1}}}}}}',
            f'$.{block}["pw"]["{argument}"]: expected a JSON value, found \'plainword9d1\'')
        for block, body, argument in [("variable", "default", "description"), ("variable", "default", "deprecated"),
                                      ("variable", "default", "const"), ("output", "value", "deprecated"),
                                      ("output", "value", "type")]
    },
    "a character of syntax in a sensitive default": (
        f'{{"variable": {{"pw": {{"sensitive": true, "default": {{"{KEY}": [1,}}}}}}}}',
        '$.variable["pw"]["default"]["(sensitive)"][1]: expected a JSON value, found \'}\''),
}


@pytest.mark.parametrize(("text", "message"), ROWS.values(), ids=ROWS.keys())
def test_a_location_inside_a_sensitive_value_hides_its_keys_and_quotes(text: str, message: str) -> None:
    with pytest.raises(ConfigFormatError) as info:
        parse_config(text, filename="main.tf.json")
    shown = str(info.value)
    assert message in shown, shown
    if '"sensitive": false' not in text:  # every other row's values are secrets
        assert leaks(shown, SECRETS) == []


#: A configuration given as Python values is checked to be JSON first: its errors name no key of a sensitive value.
DICTS: dict[str, tuple[Any, str]] = {
    "a number that is not finite in a sensitive default": (
        {"variable": {"pw": {"sensitive": True, "default": {KEY: math.nan}}}},
        '$.variable["pw"]["default"]["(sensitive)"]: expected a finite number, found nan'),
    "a value that is no JSON in a sensitive output's value": (
        {"output": {"o": {"sensitive": True, "value": {KEY: object()}}}},
        '$.output["o"]["value"]["(sensitive)"]: expected a JSON value'),
    "a key that is no str in a sensitive default": (
        {"variable": {"pw": {"sensitive": True, "default": {KEY: {1: 2}}}}},
        '$.variable["pw"]["default"]["(sensitive)"]: expected str property names, found a key of type int'),
    "a sensitive default in a list of files": (
        [{"variable": {"pw": {"sensitive": True, "default": {KEY: math.inf}}}}],
        '$[0]["variable"]["pw"]["default"]["(sensitive)"]: expected a finite number'),
    "a lone surrogate in a sensitive default": (
        {"variable": {"pw": {"sensitive": True, "default": {KEY: "s\ud800"}}}},
        '$.variable["pw"]["default"]["(sensitive)"]: expected UTF-8 text, found a lone surrogate'),
    "a misspelt block type's body": (
        {"varible": {"pw": {"sensitive": True, "default": {f"value: {KEY}": math.nan}}}},
        '$.varible["(sensitive)"]["(sensitive)"]["(sensitive)"]: expected a finite number, found nan'),
    # Not over-hidden: a default no sensitive block holds.
    "a default of a variable that is not sensitive": (
        {"variable": {"pw": {"default": {KEY: math.nan}}}},
        f'$.variable["pw"]["default"]["{KEY}"]: expected a finite number, found nan'),
}


@pytest.mark.parametrize(("config", "message", "make"), [
    pytest.param(config, message, make, id=f"{name}-{make.__name__}")
    for name, (config, message) in DICTS.items()
    for make in (config_from_dict, dumps_config)
    if make is config_from_dict or not isinstance(config, list)  # dumps_config takes one mapping
])
def test_a_python_value_inside_a_sensitive_value_hides_its_keys(config: Any, message: str, make: Any) -> None:
    with pytest.raises(ConfigFormatError) as info:
        make(config)
    assert str(info.value).startswith(message), str(info.value)


def test_the_block_types_a_location_is_shown_below_are_the_schemas() -> None:
    from plancheck.tfconfig._json_reader import BLOCK_TYPES
    from plancheck.tfconfig._model import TOP_LEVEL

    assert TOP_LEVEL.keys() == BLOCK_TYPES


@pytest.mark.parametrize(("files", "message"), [
    pytest.param({"main.tf.json": '{"variable": {"pw": {"sensitive": true}}}',
                  "override.tf.json": f'{{"variable": {{"pw": {{"default": {{"{KEY}" 1}}}}}}}}'},
                 'override.tf.json:1:51: $.variable["pw"]["default"]["(sensitive)"]: expected \':\' after a property name, '
                 "found '1'",
                 id="an-override-files-default-of-a-variable-another-file-declares-sensitive"),
    pytest.param({"a.tf.json": f'{{"varible": {{"pw": {{"default": "{WORD}" {WORD}}}}}}}',
                  "b.tf.json": '{"output": {"o": {"value": "x", "sensitive": true}}}'},
                 'a.tf.json:1:47: $.varible["(sensitive)"]["(sensitive)"]: expected \',\' or \'}\' after an object property, '
                 "found (sensitive)", id="a-misspelt-block-type-in-a-module-with-a-sensitive-flag-elsewhere"),
    pytest.param({"a.tf.json": f'{{"varible": {{"pw": {{"default": "{WORD}" {WORD}}}}}}}',
                  "b.tf.json": '{"output": {"o": {"value": "${sensitiv\\u0065(var.pw)}"}}}'},
                 'a.tf.json:1:47: $.varible["(sensitive)"]["(sensitive)"]: expected \',\' or \'}\' after an object property, '
                 "found (sensitive)", id="a-misspelt-block-type-in-a-module-with-a-sensitive-call-spelt-with-an-escape-elsewhere"),
])
def test_a_module_directorys_other_files_tell_what_is_sensitive(tmp_path: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigFormatError) as info:
        load_config(tmp_path)
    shown = str(info.value)
    assert shown == f"{tmp_path}{os.sep}{message}"
    assert leaks(shown, SECRETS) == []


def test_every_argument_the_reader_knows_but_the_secret_is_plain() -> None:
    """A new argument of a variable or output block (as const, deprecated and type were) is listed plain, or the
    message of an error at it hides its text: the specs the reader checks blocks by and the plain list agree."""
    from plancheck.tfconfig._json_reader import _PLAIN_ARGUMENTS
    from plancheck.tfconfig._model import _OUTPUT, _VARIABLE

    plain = {step.key: set(names) - {"//"} for step, names in _PLAIN_ARGUMENTS.items()}
    known = {spec.name: {*spec.args, *spec.nested} - {secret} for spec, secret in ((_VARIABLE, "default"), (_OUTPUT, "value"))}
    assert plain == known
