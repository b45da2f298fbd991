"""What plan, state and configuration checks share: running many checks, emitting their warnings and
raising every failure (``run``), validating check arguments (``fields``), wording failures
(``messages``: quoting, closest names, scrubbed failures), running a matcher on a resolved value or an
identity and describing a resolved value in a message (``match``), and the selectors and three
verdicts of checks over many resources (``each``).
"""
