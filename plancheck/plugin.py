"""The pytest plugin (entry point ``pytest11``: ``plancheck``), loaded automatically once installed.

Fixtures: ``tf_plan`` and ``tf_state`` (documents chosen by marker, option or ini key, each
file loaded once per session), ``assert_plan``, ``plan_checks``, ``tf_secrets`` (the test's own secrets, scrubbed
from its reports), ``tf_config``,
``tf_acceptance`` and ``tf_mock_plan`` (a module planned with mocked providers). Options: ``--tf-plan``, ``--tf-state``, ``--tf-show-sensitive`` and
``--terraform``, ``--tf-sweep``, ``--tf-sweep-run``, ``--tf-sweep-allow-failures`` (ini keys ``tf_plan``, ``tf_state``, ``tf_show_sensitive``,
``tf_terraform``). Markers: ``tf_plan(path)``, ``tf_state(path)``, ``tf_config(path)``.
Disable it with ``pytest -p no:plancheck``.

Nothing here is meant to be imported: pytest finds the hooks and fixtures below by name.
Example test::

    @pytest.mark.tf_plan("plan.json")
    def test_plan(tf_plan, assert_plan):
        assert_plan(tf_plan, ExpectUnknownValue("null_resource.a", New("id")))
"""

# pytest registers every hook and fixture found by name in this module, imported ones included.
from ._plugin.hooks import (  # noqa: F401
    assert_plan,
    plan_checks,
    plancheck_documents,
    pytest_addoption,
    pytest_assertrepr_compare,
    pytest_assertrepr_compare_plan_snapshot,
    pytest_configure,
    pytest_configure_node,
    pytest_ignore_collect,
    pytest_load_initial_conftests,
    pytest_make_collect_report,
    pytest_pyfunc_call,
    pytest_report_header,
    pytest_runtest_makereport,
    pytest_runtestloop,
    pytest_terminal_summary,
    pytest_unconfigure,
    tf_acceptance,
    tf_acceptance_binary,
    tf_acceptance_cli_config,
    tf_config,
    tf_mock_plan,
    tf_plan,
    tf_secrets,
    tf_state,
)

__all__: list[str] = []
