"""The tf_state fixture: resolution, errors, caching and secrets, through real pytest sessions."""

from __future__ import annotations

from typing import Any

import pytest
from plugin_support import run, write_json

STATE_SECRET_OUT = "st4te-output-secret-51"
STATE_SECRET_ATTR = "st4te-attribute-secret-73"


def state_document(resource_id: str = "123") -> dict[str, Any]:
    return {
        "format_version": "1.0",
        "terraform_version": "1.11.4",
        "values": {
            "outputs": {"pw": {"value": STATE_SECRET_OUT, "type": "string", "sensitive": True}},
            "root_module": {
                "resources": [
                    {
                        "address": "null_resource.a",
                        "mode": "managed",
                        "type": "null_resource",
                        "name": "a",
                        "provider_name": "registry.terraform.io/hashicorp/null",
                        "schema_version": 0,
                        "values": {"id": resource_id, "triggers": {"secret": STATE_SECRET_ATTR}},
                        "sensitive_values": {"triggers": {"secret": True}},
                    }
                ]
            },
        },
    }


@pytest.mark.parametrize(
    ("decorator", "args", "ini", "expected_id"),
    [
        pytest.param('@pytest.mark.tf_state("state.json")', [], "", "from-marker", id="marker"),
        pytest.param("", ["--tf-state", "cli/state.json"], "", "from-cli", id="cli"),
        pytest.param("", [], "tf_state = ini/state.json\n", "from-ini", id="ini"),
        pytest.param(
            '@pytest.mark.tf_state("state.json")', ["--tf-state", "cli/state.json"], "tf_state = ini/state.json\n",
            "from-marker", id="marker-beats-cli-and-ini",
        ),
        pytest.param("", ["--tf-state", "cli/state.json"], "tf_state = ini/state.json\n", "from-cli", id="cli-beats-ini"),
    ],
)
def test_state_path_resolution(
    pytester: pytest.Pytester, decorator: str, args: list[str], ini: str, expected_id: str
) -> None:
    write_json(pytester.path / "tests" / "state.json", state_document("from-marker"))
    write_json(pytester.path / "cli" / "state.json", state_document("from-cli"))
    write_json(pytester.path / "ini" / "state.json", state_document("from-ini"))
    pytester.makeini("[pytest]\n" + ini)
    (pytester.path / "tests" / "test_state.py").write_text(
        f"import pytest\n\n{decorator}\ndef test_state(tf_state):\n"
        f"    assert tf_state.resource('null_resource.a').values['id'] == {expected_id!r}\n",
        encoding="utf-8",
    )
    run(pytester, "--strict-markers", *args).assert_outcomes(passed=1)


def test_malformed_state_is_a_test_error(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "state.json", {"format_version": "1.0", "values": {"root_module": {"resources": 3}}})
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.tf_state("state.json")
        def test_state(tf_state):
            pass
        """
    )
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of test_state*",
            "tf_state (from @pytest.mark.tf_state): */state.json: $.values.root_module.resources: "
            "expected an array of resources, found a number",
        ],
        consecutive=True,
    )


def test_state_is_cached_and_its_secrets_are_scrubbed(pytester: pytest.Pytester) -> None:
    write_json(pytester.path / "state.json", state_document())
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.tf_state("state.json")

        def test_output(tf_state):
            print("output:", tf_state.output("pw").value)
            assert tf_state.output("pw").value == "x"

        def test_attribute(tf_state, _plancheck_documents):
            assert _plancheck_documents.states.loads == 1
            assert tf_state.resource("null_resource.a").values["triggers"] == {}
        """
    )
    result = run(pytester, "-l", "-vv")
    result.assert_outcomes(failed=2)
    output = result.stdout.str() + result.stderr.str()
    assert STATE_SECRET_OUT not in output
    assert STATE_SECRET_ATTR not in output
    result.stdout.fnmatch_lines(["E       AssertionError: assert '(sensitive)' == 'x'", "output: (sensitive)"])
    result.stdout.fnmatch_lines(["E         Left contains 1 more item:", "E         {'secret': '(sensitive)'}"])
