"""Test coverage of Terraform modules (``pytest --tf-cov``): what the tests planned, asserted and tried both ways.

``scan`` reads what a module's files declare, ``data`` collects what the session's plans and checks
exercised (and merges the data of several sessions), ``report`` writes the term and JSON reports,
``html`` the HTML one.
"""
