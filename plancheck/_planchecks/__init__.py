"""Plan checks: ports of Go's ``terraform-plugin-testing/plancheck``, without its faults.

Users import them from :mod:`plancheck`, where each is listed once; the modules here are
``base`` (:class:`~plancheck.PlanCheck`, :func:`~plancheck.assert_plan` and the plan lookups every
check shares), ``changes`` (planned actions, the plan's scope, deferred changes), ``drift``,
``values`` (one planned value: known, unknown, sensitive, null, absent) and ``each`` (one value
question asked of every selected resource).

>>> from plancheck import ExpectResourceAction, ExpectUnknownValue, Plan, ResourceAction, assert_plan
>>> from tfjsonpath import New
>>> plan = Plan.from_dict({"format_version": "1.2", "resource_changes": [{"address": "null_resource.a",
...     "change": {"actions": ["create"], "after": {}, "after_unknown": {"id": True, "triggers": True}}}]})
>>> assert_plan(plan, ExpectResourceAction("null_resource.a", ResourceAction.Create),
...             ExpectUnknownValue("null_resource.a", New("triggers").AtMapKey("dep")))
"""
