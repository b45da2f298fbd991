"""What plan, state and configuration checks share: running many checks and raising every failure
(``run``), validating check arguments (``fields``), wording failures (``messages``: quoting, closest
names, scrubbed failures), running a matcher on a resolved value (``match``) and describing a
resolved value in a message (``describe``). Two of its modules sit below the matchers, since the
matchers, the comparers and every check family use them: ``matcher`` (the ``knownvalue.Check`` base,
the engine that runs a check tree, the JSON value model) and ``equality`` (deep JSON equality and the
rendering of compared values).
"""
