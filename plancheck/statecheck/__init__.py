"""statecheck: checks on a Terraform state, a port of Go's terraform-plugin-testing ``statecheck``.

Load a state (``terraform show -json`` of a state) with :func:`plancheck.load_state`,
then run checks on it; :func:`assert_state` runs several and reports every failure.

>>> from plancheck import State, compare, knownvalue as kv, statecheck
>>> from tfjsonpath import New
>>> state = State.from_dict({"format_version": "1.0", "values": {
...     "outputs": {"ip": {"value": "10.0.0.1", "type": "string"}},
...     "root_module": {"resources": [{"address": "aws_instance.web", "values": {"ami": "ami-1", "private_ip": "10.0.0.1",
...         "password": "hunter2"}, "sensitive_values": {"password": True}}]}}})
>>> statecheck.assert_state(state,
...     statecheck.ExpectKnownValue("aws_instance.web", New("ami"), kv.StringRegexp("^ami-")),
...     statecheck.ExpectSensitiveValue("aws_instance.web", New("password")),
...     statecheck.ExpectKnownOutputValue("ip", kv.StringExact("10.0.0.1")),
...     statecheck.CompareValuePairs("aws_instance.web", New("private_ip"), "aws_instance.web", New("ami"),
...                                  compare.ValuesDiffer()))
>>> statecheck.ExpectKnownValue("aws_instance.web", New("password"), kv.StringExact("hunter3")).CheckState(state)
Traceback (most recent call last):
...
plancheck.StateCheckError: ExpectKnownValue: aws_instance.web: password: expected value (sensitive) for StringExact check, got: (sensitive)

Unlike Go: resources in child modules are found by their full address; a sensitive
mark on an ancestor covers the path; a missing attribute fails saying so, apart from
a null one; ``CompareValue`` is an explicit collector whose checks each know their own
address; ``CompareValueCollection`` fails on an empty collection.

Whole-state checks: ``ExpectEachKnownValue(selector, path, matcher)`` over every resource a
``plancheck.Resources`` selector (or an address glob) selects, in every module.

Resource identity (Terraform 1.12+): ``ExpectIdentity``, ``ExpectIdentityValue``,
``ExpectIdentityValueMatchesState`` and ``ExpectIdentityValueMatchesStateAtPath``.
Every check runs by Go's method name, the only one: ``check.CheckState(state)``.
"""

from ._base import StateCheck
from ._checks import (
    ExpectEachKnownValue,
    ExpectIdentity,
    ExpectIdentityValue,
    ExpectIdentityValueMatchesState,
    ExpectIdentityValueMatchesStateAtPath,
    ExpectKnownOutputValue,
    ExpectKnownOutputValueAtPath,
    ExpectKnownValue,
    ExpectSensitiveValue,
    assert_state,
)
from ._compare import CompareValue, CompareValueCheck, CompareValueCollection, CompareValuePairs

__all__ = [
    "CompareValue",
    "CompareValueCheck",
    "CompareValueCollection",
    "CompareValuePairs",
    "ExpectEachKnownValue",
    "ExpectIdentity",
    "ExpectIdentityValue",
    "ExpectIdentityValueMatchesState",
    "ExpectIdentityValueMatchesStateAtPath",
    "ExpectKnownOutputValue",
    "ExpectKnownOutputValueAtPath",
    "ExpectKnownValue",
    "ExpectSensitiveValue",
    "StateCheck",
    "assert_state",
]
