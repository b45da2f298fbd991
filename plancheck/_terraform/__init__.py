"""Terraform outside the process: the binary, and the providers it plugs in.

``binary`` finds and runs a Terraform (or OpenTofu) binary (discovery, the read-only provider
mirror, one command in a process group of its own); ``planfile`` shows a binary plan file as
JSON; ``lifecycle`` starts the ``--jobs`` worker processes; ``providers`` serves the providers
under test and ``mock`` builds mock providers from a provider schema.
"""
