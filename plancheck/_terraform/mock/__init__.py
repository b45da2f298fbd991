"""Mock providers built from a provider schema, served in the test process (no cloud, no credentials).

``schema`` reads the provider schema, ``values`` walks the values the protocol carries along it,
``addresses`` reads the keys of per-address defaults, ``instances`` tells which instance a call is
about, ``provider`` is the provider object (:class:`~plancheck.acceptance.MockProvider`) and
``plan`` plans a module directory with mocks alone (``mock_plan``, ``tfplancheck mock-plan``).
"""
