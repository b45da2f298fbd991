"""Whether this kernel signals a process group through a pidfd (``PIDFD_SIGNAL_PROCESS_GROUP``, Linux 6.9+).

The janitor sweeps a group through such a signal, and elsewhere by its id while a process known to be in it holds
the id; a row that needs a member that joined as the last known one ended to be reached can only pass where the
kernel has it. The answer is the janitor's own (``_GROUP_SIGNAL``, asked once as it is imported): the two never differ.

>>> isinstance(GROUP_SIGNAL, bool)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from plancheck._terraform.lifecycle import _GROUP_SIGNAL

GROUP_SIGNAL: bool = _GROUP_SIGNAL

#: The mark of a row that needs a member reached that joined the group as the last member known to the sweep ended.
needs_group_signal = pytest.mark.skipif(
    not GROUP_SIGNAL, reason="this kernel signals no process group through a pidfd (PIDFD_SIGNAL_PROCESS_GROUP, Linux 6.9+)"
)


def until(done: Callable[[], bool], what: str, within: float = 10.0) -> None:
    """Wait for ``done()`` (a process's state in /proc), failing with ``what`` after ``within`` seconds.

    >>> until(lambda: True, "at once")
    """
    deadline = time.monotonic() + within
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)
