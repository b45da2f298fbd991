"""Read-only models of loaded documents: plans (``plan``), states (``state``), their shared resource
fields (``fields``), value resolution with unknown/sensitive marks (``resolve``) and the
collection of their secret strings (``sensitive``). Built on :mod:`plancheck._loading`.
"""
