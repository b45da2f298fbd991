"""Reading plan and state text into validated documents: the loading engine behind ``load_plan``/``load_state``.

Bytes come from a path, a stream or memory (``source``, size-limited), are parsed as exact
JSON (``jsontext``: Decimal numbers, big integers, deep nesting), split so that what no check
reads is parsed only on first access (``split``, ``lazy``; ``parallel`` checks the syntax of
large plans in a helper process that runs ``members``), and validated against the shipped JSON
Schemas (``validate``). ``load`` is the route that chooses among them. Nothing here knows the
document models: it imports only :mod:`plancheck._errors`.
"""
