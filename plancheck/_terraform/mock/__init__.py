"""Mock providers built from a provider schema, served in the test process (no cloud, no credentials).

``schema`` reads the provider schema, ``values`` makes the values a mock answers with, ``addresses``
matches per-address defaults, ``instances`` keeps what each resource instance holds, ``provider``
is the provider object (:class:`~plancheck.acceptance.MockProvider`) and ``plan`` plans a module
with mocks alone (``tfplancheck mock-plan``, ``tf_mock_plan``).
"""
