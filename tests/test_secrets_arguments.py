"""Secrets given one str where it takes an iterable of them: the str was read as its characters, each too short
to scrub, so Secrets("hunter2") scrubbed nothing and the secret it was made for showed in clear. A TypeError.

So is an item that is no str (a secret read as bytes, a number): it was left out as silently, and shown. The error
names where it stands, never what it is. ``trusted`` is held to the same rule (a bare "'int' object is not
iterable" said nothing of which argument; a str trusted its characters, none of them long enough to count), and
so is each of its items, given to Secrets or trusting() or returned by a trusted function: one that is no str was
dropped, and what it was meant to trust scrubbed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from plancheck import Secrets, revealing_sensitive
from plancheck._redact import render_value


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
    pytest.param(lambda: Secrets(["hunter2-zz", b"hunter2-zz"]), "Secrets values[1] must be a str, got bytes",
                 id="item-bytes"),
    pytest.param(lambda: Secrets(iter(["hunter2-zz", 31337])), "Secrets values[1] must be a str, got int",
                 id="item-number-of-an-iterator"),
    pytest.param(lambda: Secrets([None]), "Secrets values[0] must be a str, got NoneType", id="item-none"),
    pytest.param(lambda: Secrets(["hunter2-zz"], trusted=5), "Secrets trusted must be an iterable of str (one: "
                 "trusted=['...']), got int", id="trusted-int"),
    pytest.param(lambda: Secrets(["hunter2-zz"], "output.password"), "Secrets trusted must be an iterable of str "
                 "(one: trusted=['...']), got str", id="trusted-str"),
    # An item of trusted that is no str was left out as silently as a secret's: what it was to trust was scrubbed.
    pytest.param(lambda: Secrets(["hunter2-zz"], trusted=[1]), "Secrets trusted[0] must be a str, got int",
                 id="trusted-item-int"),
    pytest.param(lambda: Secrets(["hunter2-zz"], trusted=iter(["output.password", b"hunter2-zz"])),
                 "Secrets trusted[1] must be a str, got bytes", id="trusted-item-bytes-of-an-iterator"),
    pytest.param(lambda: Secrets(["hunter2-zz"], trusted=("output.password", None)),
                 "Secrets trusted[1] must be a str, got NoneType", id="trusted-item-none"),
])
def test_a_value_that_is_no_iterable_of_str_is_a_type_error(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == message


def test_a_list_of_one_secret_still_scrubs_it() -> None:
    assert Secrets(["hunter2-zz"]).scrub("the password is hunter2-zz") == "the password is (sensitive)"


def test_the_refusal_never_shows_the_secret() -> None:
    with pytest.raises(TypeError) as caught:
        Secrets([b"hunter2-zz"])
    assert "hunter2" not in str(caught.value)
    assert "hunter2" not in repr(caught.value.args)


@pytest.mark.parametrize("trusted", [
    pytest.param(["terraform_data.tags"], id="list"),
    pytest.param(lambda: ["terraform_data.tags"], id="function"),
    pytest.param((), id="none"),
])
def test_trusted_given_as_texts_or_a_function_still_trusts(trusted: Any) -> None:
    shown = Secrets(["tags"], trusted).scrub("terraform_data.tags: tags")
    assert shown == ("terraform_data.tags: (sensitive)" if trusted else "terraform_data.(sensitive): (sensitive)")


@pytest.mark.parametrize("reveal", [pytest.param("no", id="str-no"), pytest.param("false", id="str-false"),
                                    pytest.param(None, id="none")])
def test_revealing_sensitive_takes_only_a_bool(reveal: Any) -> None:
    """Any truthy value revealed: revealing_sensitive(reveal="no") showed every sensitive value in its block."""
    with pytest.raises(TypeError) as caught, revealing_sensitive(reveal):
        pass
    assert str(caught.value) == f"revealing_sensitive: reveal must be a bool, got {type(reveal).__name__}"
    assert render_value("hunter2-zz", True) == "(sensitive)"


def _trusting(texts: Any) -> Any:
    return lambda: Secrets(["hunter2-zz"]).trusting(texts)


def _asked(trusted: Any) -> Any:
    # What a function given as trusted returns is known only when trust matters: a scrub that finds a secret.
    return lambda: Secrets(["tags"], trusted).scrub("terraform_data.tags: tags")


@pytest.mark.parametrize(("make", "message"), [
    # A str trusted its characters (none long enough to count): trusting("output.password") trusted nothing.
    pytest.param(_trusting("output.password"), "Secrets.trusting texts must be an iterable of str (one: "
                 "trusting(['...'])), got str", id="trusting-str"),
    pytest.param(_trusting(b"output.password"), "Secrets.trusting texts must be an iterable of str (one: "
                 "trusting(['...'])), got bytes", id="trusting-bytes"),
    pytest.param(_trusting({"output.password": True}), "Secrets.trusting texts must be an iterable of str (one: "
                 "trusting(['...'])), got dict", id="trusting-mapping"),
    pytest.param(_trusting(5), "Secrets.trusting texts must be an iterable of str (one: trusting(['...'])), got int",
                 id="trusting-int"),
    pytest.param(_trusting(["output.password", 1]), "Secrets.trusting texts[1] must be a str, got int",
                 id="trusting-item-int"),
    # Refused when given, also where the texts it adds to are a function's, asked only when trust matters.
    pytest.param(lambda: Secrets(["hunter2-zz"], lambda: ["output.password"]).trusting([b"hunter2-zz"]),
                 "Secrets.trusting texts[0] must be a str, got bytes", id="trusting-item-bytes-after-a-function"),
    # A function that cannot be asked was refused by a bare TypeError of its own, in the middle of a scrub.
    pytest.param(_asked(lambda name: [name]), "Secrets trusted must be an iterable of str or a function of no "
                 "argument returning one: asked with no argument, the function raised TypeError",
                 id="trusted-function-of-one"),
    pytest.param(lambda: Secrets(["tags"]).trusting(lambda name: [name]).scrub("terraform_data.tags: tags"),
                 "Secrets trusted must be an iterable of str or a function of no argument returning one: asked with "
                 "no argument, the function raised TypeError", id="trusting-function-of-one"),
    pytest.param(_asked(lambda: "terraform_data.tags"), "Secrets trusted function must return an iterable of str, "
                 "got str", id="trusted-function-returning-str"),
    pytest.param(_asked(lambda: 5), "Secrets trusted function must return an iterable of str, got int",
                 id="trusted-function-returning-int"),
    pytest.param(lambda: Secrets(["tags"]).trusting(lambda: b"terraform_data.tags").scrub("terraform_data.tags: tags"),
                 "Secrets trusted function must return an iterable of str, got bytes",
                 id="trusting-function-returning-bytes"),
    pytest.param(_asked(lambda: ["terraform_data.tags", 7]), "Secrets trusted function's result[1] must be a str, "
                 "got int", id="trusted-function-returning-an-int-item"),
    pytest.param(lambda: Secrets(["tags"]).trusting(lambda: [b"terraform_data.tags"]).scrub("terraform_data.tags: tags"),
                 "Secrets trusted function's result[0] must be a str, got bytes",
                 id="trusting-function-returning-a-bytes-item"),
])
def test_trusted_texts_that_are_no_iterable_of_str_are_a_type_error(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as caught:
        make()
    assert str(caught.value) == message


@pytest.mark.parametrize("trusted", [
    pytest.param(["terraform_data.tags"], id="list"),
    pytest.param(lambda: ["terraform_data.tags"], id="function"),
    pytest.param(lambda *names: ["terraform_data.tags"], id="function-of-any-number"),
])
def test_trusting_texts_or_a_function_still_trusts(trusted: Any) -> None:
    assert Secrets(["tags"]).trusting(trusted).scrub("terraform_data.tags: tags") == "terraform_data.tags: (sensitive)"
