"""Root conftest: shared test configuration. The plancheck plugin is loaded by its entry point, not here."""
