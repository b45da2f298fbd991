"""What plan, state and configuration checks share: running many checks and raising every failure
(``run``), validating check arguments (``fields``), wording failures (``messages``: quoting, closest
names, scrubbed failures), running a matcher on a resolved value (``match``) and describing a
resolved value in a message (``describe``).
"""
