"""What plan, state and configuration checks share: running many checks and raising every failure
(``run``), validating check arguments (``fields``) and describing a resolved value in a message
(``describe``).
"""
