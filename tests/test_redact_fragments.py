"""Fragments of a secret are scrubbed where a renderer cuts a value, and names that merely share characters are not."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from plancheck._documents.sensitive import shown_address
from plancheck._redact import SENSITIVE, SUBSTRING_WINDOW, Secrets

SECRET = "my-client_secret-v2"
LONG = "hunter2-correct-horse-battery-staple-9f3k"


@pytest.mark.parametrize(
    ("secrets", "text", "shown"),
    [
        # Cut by a renderer: scrubbed.
        pytest.param([LONG], f"'{LONG[:14]}...'", "'(sensitive)...'", id="truncated-head"),
        pytest.param([LONG], f"'...{LONG[-10:]}'", "'...(sensitive)'", id="truncated-tail"),
        pytest.param([LONG], f"x = '{LONG[:12]}…", "x = '(sensitive)…", id="unicode-ellipsis"),
        pytest.param([LONG], f"E   - {LONG[5:30]}", "E   - (sensitive)", id="diff-line-remainder"),
        pytest.param([LONG], f"│ {LONG[:20]}\n│ {LONG[20:]}", "│ (sensitive)\n│ (sensitive)", id="wrapped-at-a-width"),
        pytest.param(["line-one-secret\nline-two-secret"], "'line-one-secret\\nline-two...'",
                     "'(sensitive)...'", id="escaped-line-break"),
        pytest.param([LONG], f"prefix{LONG}suffix", "prefix(sensitive)suffix", id="whole-inside-a-word"),
        pytest.param(["abc"], "pw=abc;", "pw=(sensitive);", id="short-secret-as-a-value"),
        # Sharing 8 characters with a secret, with nothing cut: left alone.
        pytest.param([SECRET], "azurerm_key_vault_secret.main", "azurerm_key_vault_secret.main", id="shared-run-in-a-name"),
        pytest.param([SECRET], "ExpectResourceAction: azurerm_key_vault_secret.main: expected Update",
                     "ExpectResourceAction: azurerm_key_vault_secret.main: expected Update", id="shared-run-in-a-message"),
        pytest.param([LONG], "the_horse-battery-stables.example", "the_horse-battery-stables.example", id="run-inside-a-name"),
    ],
)
def test_fragments_are_scrubbed_only_where_a_value_is_cut(secrets: list[str], text: str, shown: str) -> None:
    assert Secrets(secrets).scrub(text) == shown
    assert Secrets(secrets).touches(text) is (shown != text)


DSN = "postgres://app:pw@db.internal/app?sslmode=require&application_name=zzmiddlefragment42&connect_timeout=10"
SVC = "CORP\\svcdeployaccount42\\Zq9"
UMLAUT = "Grüße-Zq9LongMiddlePart-für-dich"


def _json_of_json(value: str) -> str:
    return json.dumps({"event": "login", "payload": json.dumps({"user": value})})


@pytest.mark.parametrize(
    ("secret", "text"),
    [
        # Renderings a red-team pass found between escapes: Go's JSON (Terraform's show -json, jsonencode()) ...
        pytest.param(DSN, '{"dsn":"' + json.dumps(DSN)[1:-1].replace("&", "\\u0026") + '"}', id="go-json"),
        pytest.param(DSN, 'E  {"dsn":"(sensitive)\\u0026application_name=zzmiddlefragment42\\u0026(sensitive)"}',
                     id="go-json-around-scrubbed-ends"),
        # ... JSON inside a repr, JSON inside JSON (a log line), and the repr of UTF-8 bytes.
        pytest.param(SVC, repr(json.dumps({"run_as": SVC})), id="repr-of-json"),
        pytest.param(SVC, _json_of_json(SVC), id="json-of-json"),
        pytest.param(UMLAUT, repr(json.dumps({"v": UMLAUT}, ensure_ascii=False).encode()), id="bytes-repr"),
    ],
)
def test_fragments_between_escape_sequences_are_scrubbed(secret: str, text: str) -> None:
    shown = Secrets([secret]).scrub(text)
    windows = {secret[i : i + SUBSTRING_WINDOW] for i in range(len(secret) - SUBSTRING_WINDOW + 1)}
    inner = {w for w in windows if "\\" not in w and "&" not in w and not any(ord(c) > 127 for c in w)}
    assert not any(window in shown for window in inner), shown


@pytest.mark.parametrize(
    ("address", "secrets", "shown"),
    [
        pytest.param('null_resource.fe["hunter2-secret"]', ["hunter2-secret"], 'null_resource.fe["(sensitive)"]', id="key"),
        pytest.param('module.m["pw-1234"].a.b["x"]', ["pw-1234"], 'module.m["(sensitive)"].a.b["x"]', id="module-key"),
        pytest.param('a.b["k-\\"quoted\\"-1"]', ['k-"quoted"-1'], 'a.b["(sensitive)"]', id="escaped-key"),
        pytest.param("aws_instance.web", ["web"], "aws_instance.web", id="name-equal-to-a-secret"),
        pytest.param('module.web["prod"].aws_instance.web[0]', ["web"], 'module.web["prod"].aws_instance.web[0]',
                     id="names-and-count-index"),
        pytest.param("azurerm_key_vault_secret.main", [SECRET], "azurerm_key_vault_secret.main", id="shared-run"),
        pytest.param('a.b["xx-hunter2-secret-yy"]', ["hunter2-secret"], 'a.b["xx-(sensitive)-yy"]', id="secret-inside-a-key"),
        # Terraform quotes a key as HCL does, doubling a template's introducer: a short secret spelled otherwise there.
        pytest.param('terraform_data.fe["zz$${x}"]', ["zz${x}"], 'terraform_data.fe["(sensitive)"]', id="hcl-doubled-dollar"),
        pytest.param('a.b["%%{if}x"]', ["%{if}x"], 'a.b["(sensitive)"]', id="hcl-doubled-percent"),
        pytest.param('a.b["pa$${ss}-rest-of-it"]', ["pa${ss}-rest-of-it"], 'a.b["(sensitive)"]', id="hcl-doubled-in-a-long-key"),
        # A hand-made document's key left open (no closing bracket) is no key the pattern finds: all of it is scrubbed.
        pytest.param('aws_instance.a["hunter2', ["hunter2"], 'aws_instance.a["(sensitive)', id="key-left-open"),
        pytest.param('aws_instance.a["hunter2"', ["hunter2"], 'aws_instance.a["(sensitive)"', id="key-without-its-bracket"),
        pytest.param('aws_instance.a["x\\"hunter2-secret', ["hunter2-secret"], 'aws_instance.a["x\\"(sensitive)',
                     id="key-left-open-after-an-escaped-quote"),
        pytest.param('aws_instance.a["hunter2\\', ["hunter2"], 'aws_instance.a["(sensitive)\\', id="key-left-open-on-a-backslash"),
        pytest.param('module.m["hunter2"].a.b["hunter2', ["hunter2"], 'module.m["(sensitive)"].a.b["(sensitive)',
                     id="closed-key-then-open-key"),
        pytest.param('aws_instance.a["ok"]["hunter2', ["hunter2"], 'aws_instance.a["ok"]["(sensitive)', id="open-key-after-a-closed-one"),
        pytest.param("aws_instance.a[hunter2]", ["hunter2"], "aws_instance.a[(sensitive)]", id="unquoted-key"),
        # No part of it is known to be a name: one spelled as a secret is scrubbed, as in any message.
        pytest.param('aws_instance.web["x', ["web"], 'aws_instance.(sensitive)["x', id="open-key-names-are-not-spared"),
    ],
)
def test_addresses_show_names_and_scrub_instance_keys(address: str, secrets: list[str], shown: str) -> None:
    assert shown_address(address, Secrets(secrets)) == shown


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\\'\"`"), min_size=12, max_size=40)
    .filter(lambda s: not any(c.isspace() for c in s)),
    st.data(),
)
def test_property_a_cut_secret_leaves_no_window_behind(secret: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(secret) - SUBSTRING_WINDOW))
    end = data.draw(st.integers(start + SUBSTRING_WINDOW, len(secret)))
    shown = Secrets([secret]).scrub(f"value: '{secret[start:end]}...' (truncated)")
    windows = {secret[i : i + SUBSTRING_WINDOW] for i in range(len(secret) - SUBSTRING_WINDOW + 1)}
    # The marker itself is no leak: a secret such as "0000sensitiv" shares a window with "(sensitive)".
    outside = shown.replace(SENSITIVE, "\x00")
    assert not any(window in outside for window in windows), shown


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=3, max_size=30), min_size=1, max_size=5), st.data())
def test_property_a_text_that_is_a_piece_is_scrubbed_whole_as_the_scan_would(secrets: list[str], data: st.DataObject) -> None:
    # scrub() answers a text that is itself a piece (a secret, one of its lines or words) in one look-up:
    # the scan of the text finds spans covering all of it, so the answer is the same.
    found = Secrets(secrets)
    scanner = found._scanner
    piece = data.draw(st.sampled_from(sorted(scanner.whole)))
    spans = scanner.spans(piece)
    assert spans
    assert min(s for s, _ in spans) == 0
    assert max(e for _, e in spans) == len(piece)
    assert found.scrub(piece) == SENSITIVE


@pytest.mark.parametrize("block", [range(0, 0x800), range(0x800, 0x3000), range(0x1F300, 0x1F400)],
                         ids=["ascii-latin", "bmp-scripts", "emoji"])
def test_the_as_is_shortcut_gives_every_spelling_the_encoders_give(block: range) -> None:
    from plancheck._text import encoded_spellings, spellings

    wrong = [hex(c) for c in block if spellings(f"pw{chr(c)}x") != encoded_spellings(f"pw{chr(c)}x")]
    assert wrong == []


_CREDENTIALS = '{"user":"admin","password":"hunt3r2","port":5432}'
# Terraform's plan shows a JSON text as the value it encodes, one member a line (an unmarked copy: nonsensitive()).
_JSONENCODED = (
    '  + input  = jsonencode(\n        {\n          + password = "hunt3r2"\n          + port     = 5432\n'
    '          + user     = "admin"\n        }\n    )'
)


@pytest.mark.parametrize(
    ("secret", "text", "shown"),
    [
        pytest.param(_CREDENTIALS, _JSONENCODED,
                     "  + input  = jsonencode(\n        {\n          + (sensitive) = (sensitive)\n          + (sensitive)     = (sensitive)\n"
                     '          + (sensitive)     = "(sensitive)"\n        }\n    )', id="jsonencode-object"),
        pytest.param(' ["adm1n", "r3ad"]', '  + input  = jsonencode(\n        [\n          + "adm1n",\n          + "r3ad",\n        ]\n    )',
                     '  + input  = jsonencode(\n        [\n          + (sensitive)\n          + "(sensitive)",\n        ]\n    )',
                     id="jsonencode-array"),
        # No JSON object or array: nothing but the text's own pieces (a member this short would not be one).
        pytest.param("{not-json-adm1n", "x adm1n y", "x adm1n y", id="not-json-text"),
        pytest.param('"adm1n"', "x adm1n y", "x adm1n y", id="json-string-text"),
    ],
)
def test_a_json_text_is_scrubbed_as_terraform_renders_it(secret: str, text: str, shown: str) -> None:
    assert Secrets([secret]).scrub(text) == shown
