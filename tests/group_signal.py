"""Whether this kernel signals a process group through a pidfd (``PIDFD_SIGNAL_PROCESS_GROUP``, Linux 6.9+).

The janitor sweeps a group whose leader died through such a signal, and falls back to ``killpg`` elsewhere; the rows
that need the group to be reached after its leader died can only pass where the kernel has it. A signal 0 to the
group this process would lead, through a pidfd of itself, asks the kernel without signalling anything: an unknown
flag is refused (EINVAL) before the group is looked for.

>>> isinstance(GROUP_SIGNAL, bool)
True
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable

import pytest

#: pidfd_send_signal's flag, as plancheck/_terraform/lifecycle.py writes it (<linux/pidfd.h>).
_PIDFD_GROUP = 4


def _group_signal() -> bool:
    if not hasattr(os, "pidfd_open"):
        return False
    try:
        pidfd = os.pidfd_open(os.getpid())
    except OSError:
        return False
    try:
        signal.pidfd_send_signal(pidfd, 0, None, _PIDFD_GROUP)
    except ProcessLookupError:  # the flag is known (the kernel tests flags first): this process leads no group
        return True
    except OSError:  # EINVAL: the flag is unknown to this kernel
        return False
    finally:
        os.close(pidfd)
    return True


GROUP_SIGNAL: bool = _group_signal()

#: The mark of a row that needs a group reached after its leader died.
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
