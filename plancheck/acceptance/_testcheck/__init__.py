"""Go's legacy check functions (``resource.TestCheckResourceAttr`` and its kin) over a :class:`plancheck.State`.

Go's ``TestStep.Check`` functions read each resource's attributes as Terraform 0.11's flatmap
(``tags.env``, ``rule.0.port``, ``rule.#``, ``tags.%``); :mod:`._flatmap` builds that view
from the ``terraform show -json`` state exactly as Go's ``shimStateFromJson`` does. Each
function returns a :class:`CheckFunc`: call it with the state; it raises
:class:`TestCheckFuncError` (an ``AssertionError``) worded as Go's error. Every Go name has a
snake_case alias (``test_check_resource_attr``). Values under a sensitive mark show as
``(sensitive)`` in every message.

Where this differs from Go, on purpose:

* states with child modules and ``for_each`` instances work (Go's shim refuses both); a
  resource is named as in Go (``aws_instance.web.0``) or by its address (``aws_instance.web[0]``,
  ``aws_instance.web["k"]``); the ``TestCheckModule*`` functions take module names
  (``["child"]``) or a module address (``'module.child["k"]'``);
* bad arguments (a value that is not a str, a bad regular expression, an ``attr`` without
  ``*``, comparing an attribute with itself) raise :class:`TestDefinitionError` when the check
  is built, not when it runs; regular expressions are Python's ``re`` (searched, as Go's
  ``MatchString``), and Go's ``*string`` is a callable returning the str;
* in the TypeSet checks a ``*`` never matches a count key (``#``/``%``), and the nested checks
  need every expected value in one element (see :mod:`._sets`);
* a number written with an exponent shows in fixed point (Terraform never writes one);
* ``TestCheckOutput`` shows the output as ``&terraform.OutputState{...}`` without Go's lock.

>>> from plancheck import State
>>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
...     {"address": "null_resource.a", "values": {"id": "7", "triggers": {"k": "v"}}}]}}})
>>> ComposeAggregateTestCheckFunc(
...     TestCheckResourceAttr("null_resource.a", "triggers.%", "1"),
...     test_check_resource_attr("null_resource.a", "triggers.k", "w"),
... )(state)
Traceback (most recent call last):
...
plancheck.acceptance.ComposedCheckError: Check 2/2 error: null_resource.a: Attribute 'triggers.k' expected "w", got "v"
"""

from ._check import CheckFunc
from ._compose import ComposeAggregateTestCheckFunc, ComposeTestCheckFunc
from ._errors import ComposedCheckError, TestCheckFuncError
from ._flatmap import FlatAttributes, FlatOutput, FlatState, flatten
from ._funcs import (
    TestCheckModuleNoResourceAttr,
    TestCheckModuleResourceAttr,
    TestCheckModuleResourceAttrPair,
    TestCheckModuleResourceAttrPtr,
    TestCheckModuleResourceAttrSet,
    TestCheckNoResourceAttr,
    TestCheckOutput,
    TestCheckResourceAttr,
    TestCheckResourceAttrPair,
    TestCheckResourceAttrPtr,
    TestCheckResourceAttrSet,
    TestCheckResourceAttrWith,
    TestMatchOutput,
    TestMatchResourceAttr,
    TestModuleMatchResourceAttr,
)
from ._sets import (
    TestCheckTypeSetElemAttr,
    TestCheckTypeSetElemAttrPair,
    TestCheckTypeSetElemNestedAttrs,
    TestMatchTypeSetElemNestedAttrs,
)

#: The spelling of Go's ``TestModuleMatchResourceAttr`` that matches its siblings' word order.
TestMatchModuleResourceAttr = TestModuleMatchResourceAttr

test_check_resource_attr = TestCheckResourceAttr
test_check_resource_attr_set = TestCheckResourceAttrSet
test_check_no_resource_attr = TestCheckNoResourceAttr
test_match_resource_attr = TestMatchResourceAttr
test_check_resource_attr_pair = TestCheckResourceAttrPair
test_check_resource_attr_with = TestCheckResourceAttrWith
test_check_resource_attr_ptr = TestCheckResourceAttrPtr
test_check_output = TestCheckOutput
test_match_output = TestMatchOutput
test_check_type_set_elem_attr = TestCheckTypeSetElemAttr
test_check_type_set_elem_attr_pair = TestCheckTypeSetElemAttrPair
test_check_type_set_elem_nested_attrs = TestCheckTypeSetElemNestedAttrs
test_match_type_set_elem_nested_attrs = TestMatchTypeSetElemNestedAttrs
test_check_module_resource_attr = TestCheckModuleResourceAttr
test_check_module_resource_attr_set = TestCheckModuleResourceAttrSet
test_check_module_no_resource_attr = TestCheckModuleNoResourceAttr
test_module_match_resource_attr = TestModuleMatchResourceAttr
test_match_module_resource_attr = TestModuleMatchResourceAttr
test_check_module_resource_attr_pair = TestCheckModuleResourceAttrPair
test_check_module_resource_attr_ptr = TestCheckModuleResourceAttrPtr
compose_test_check_func = ComposeTestCheckFunc
compose_aggregate_test_check_func = ComposeAggregateTestCheckFunc

# Not test functions, though their names start with "test"/"Test": pytest must not collect them when imported.
for _function in (
    TestCheckResourceAttr,
    TestCheckResourceAttrSet,
    TestCheckNoResourceAttr,
    TestMatchResourceAttr,
    TestCheckResourceAttrPair,
    TestCheckResourceAttrWith,
    TestCheckResourceAttrPtr,
    TestCheckOutput,
    TestMatchOutput,
    TestCheckTypeSetElemAttr,
    TestCheckTypeSetElemAttrPair,
    TestCheckTypeSetElemNestedAttrs,
    TestMatchTypeSetElemNestedAttrs,
    TestCheckModuleResourceAttr,
    TestCheckModuleResourceAttrSet,
    TestCheckModuleNoResourceAttr,
    TestModuleMatchResourceAttr,
    TestCheckModuleResourceAttrPair,
    TestCheckModuleResourceAttrPtr,
):
    _function.__test__ = False  # type: ignore[union-attr]
del _function

__all__ = [
    "CheckFunc",
    "ComposeAggregateTestCheckFunc",
    "ComposeTestCheckFunc",
    "ComposedCheckError",
    "FlatAttributes",
    "FlatOutput",
    "FlatState",
    "TestCheckFuncError",
    "TestCheckModuleNoResourceAttr",
    "TestCheckModuleResourceAttr",
    "TestCheckModuleResourceAttrPair",
    "TestCheckModuleResourceAttrPtr",
    "TestCheckModuleResourceAttrSet",
    "TestCheckNoResourceAttr",
    "TestCheckOutput",
    "TestCheckResourceAttr",
    "TestCheckResourceAttrPair",
    "TestCheckResourceAttrPtr",
    "TestCheckResourceAttrSet",
    "TestCheckResourceAttrWith",
    "TestCheckTypeSetElemAttr",
    "TestCheckTypeSetElemAttrPair",
    "TestCheckTypeSetElemNestedAttrs",
    "TestMatchModuleResourceAttr",
    "TestMatchOutput",
    "TestMatchResourceAttr",
    "TestMatchTypeSetElemNestedAttrs",
    "TestModuleMatchResourceAttr",
    "compose_aggregate_test_check_func",
    "compose_test_check_func",
    "flatten",
    "test_check_module_no_resource_attr",
    "test_check_module_resource_attr",
    "test_check_module_resource_attr_pair",
    "test_check_module_resource_attr_ptr",
    "test_check_module_resource_attr_set",
    "test_check_no_resource_attr",
    "test_check_output",
    "test_check_resource_attr",
    "test_check_resource_attr_pair",
    "test_check_resource_attr_ptr",
    "test_check_resource_attr_set",
    "test_check_resource_attr_with",
    "test_check_type_set_elem_attr",
    "test_check_type_set_elem_attr_pair",
    "test_check_type_set_elem_nested_attrs",
    "test_match_module_resource_attr",
    "test_match_output",
    "test_match_resource_attr",
    "test_match_type_set_elem_nested_attrs",
    "test_module_match_resource_attr",
]
