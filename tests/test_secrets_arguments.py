"""Secrets given one str where it takes an iterable of them: the str was read as its characters, each too short
to scrub, so Secrets("hunter2") scrubbed nothing and the secret it was made for showed in clear. A TypeError. (A str as ``trusted`` only trusts less: no row.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from plancheck import Secrets


@pytest.mark.parametrize(("make", "message"), [
    pytest.param(lambda: Secrets("hunter2-zz"), "Secrets values must be an iterable of str (one: Secrets(['...'])), "
                 "got str", id="values-str"),
    pytest.param(lambda: Secrets(None), "Secrets values must be an iterable of str (one: Secrets(['...'])), "
                 "got NoneType", id="values-none"),
    pytest.param(lambda: Secrets(b"hunter2-zz"), "Secrets values must be an iterable of str (one: Secrets(['...'])), "
                 "got bytes", id="values-bytes"),
    # A mapping iterates its keys: Secrets({"db_password": "hunter2-zz"}) scrubbed the name and showed the secret.
    pytest.param(lambda: Secrets({"db_password": "hunter2-zz"}), "Secrets values must be an iterable of str (one: "
                 "Secrets(['...'])), got dict", id="values-mapping"),
])
def test_a_value_that_is_no_iterable_of_str_is_a_type_error(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == message


def test_a_list_of_one_secret_still_scrubs_it() -> None:
    assert Secrets(["hunter2-zz"]).scrub("the password is hunter2-zz") == "the password is (sensitive)"
