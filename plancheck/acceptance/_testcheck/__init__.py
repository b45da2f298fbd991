"""Go's legacy check functions (``resource.TestCheckResourceAttr`` and its kin) over a :class:`plancheck.State`.

Go's ``TestStep.Check`` functions read each resource's attributes as Terraform 0.11's flatmap
(``tags.env``, ``rule.0.port``, ``rule.#``, ``tags.%``); :mod:`.flatmap` builds that view
from the ``terraform show -json`` state exactly as Go's ``shimStateFromJson`` does, :mod:`.funcs`
holds the functions, which :mod:`plancheck.acceptance` exports. Each function returns a
:class:`CheckFunc`: call it with the state; it raises :class:`TestCheckFuncError` (an ``AssertionError``)
worded as Go's error. Go's names are the only names. Values under a sensitive mark show as
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
  need every expected value in one element (see :mod:`.funcs`);
* a number written with an exponent shows in fixed point (Terraform never writes one);
* ``TestCheckOutput`` shows the output as ``&terraform.OutputState{...}`` without Go's lock.

>>> from plancheck import State
>>> from plancheck.acceptance import ComposeAggregateTestCheckFunc, TestCheckResourceAttr
>>> state = State.from_dict({"format_version": "1.0", "values": {"root_module": {"resources": [
...     {"address": "null_resource.a", "values": {"id": "7", "triggers": {"k": "v"}}}]}}})
>>> ComposeAggregateTestCheckFunc(
...     TestCheckResourceAttr("null_resource.a", "triggers.%", "1"),
...     TestCheckResourceAttr("null_resource.a", "triggers.k", "w"),
... )(state)
Traceback (most recent call last):
...
plancheck.acceptance.ComposedCheckError: Check 2/2 error: null_resource.a: Attribute 'triggers.k' expected "w", got "v"
"""
