"""plancheck: assertions on Terraform and OpenTofu JSON plans, states and configurations."""

__all__: list[str] = []
