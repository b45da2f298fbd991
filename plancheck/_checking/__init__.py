"""What plan, state and configuration checks share: running many checks, emitting their warnings and
raising every failure (``run``), validating check arguments and selectors (``fields``), wording
failures (``messages``: quoting, closest names, scrubbed failures), and running a matcher on what a
check found (``match``: a resolved value, each of many resources with its three verdicts, an
identity) and describing a resolved value in a message. Two of its modules sit below the matchers,
since the matchers, the comparers and every check family use them: ``matcher`` (the
``knownvalue.Check`` base, the engine that runs a check tree, the JSON value model) and ``equality``
(deep JSON equality and the rendering of compared values).
"""
