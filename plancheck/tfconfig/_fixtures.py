"""Loading a configuration for a test (the pytest-free part of the ``tf_config`` fixture)."""

from __future__ import annotations

import os
from pathlib import Path as FsPath

from .._frozen import public
from ._load import Flavor, load_config
from ._model import Config

__all__ = ["load_config_for_test"]


@public("plancheck.tfconfig")
def load_config_for_test(
    target: str | os.PathLike[str],
    *,
    relative_to: str | os.PathLike[str] | None = None,
    flavor: Flavor = "terraform",
    strict: bool = False,
) -> Config:
    """Load the configuration a test names: a ``.tf.json``/``.tofu.json`` file or a module directory.

    A relative ``target`` is taken from ``relative_to`` (a test file, or a directory);
    this is what ``@pytest.mark.tf_config("dir_or_file")`` resolves against the test's
    file. A missing target is a ``FileNotFoundError`` naming the resolved path.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = pathlib.Path(d, "fixtures").mkdir()
    ...     _ = pathlib.Path(d, "fixtures", "main.tf.json").write_text('{"locals": {"a": 1}}')
    ...     load_config_for_test("fixtures", relative_to=pathlib.Path(d, "test_x.py")).locals
    {'a': 1}
    """
    path = FsPath(target)
    if not path.is_absolute() and relative_to is not None:
        base = FsPath(relative_to)
        if not base.is_dir():
            base = base.parent
        path = base / path
    if not path.exists():
        raise FileNotFoundError(f"tf_config: no configuration file or directory at {path}")
    return load_config(path, flavor=flavor, strict=strict)
