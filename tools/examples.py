"""Where the bundled examples live in the source tree."""

from __future__ import annotations

from pathlib import Path

__all__ = ["example_dir"]


def example_dir() -> Path:
    """The bundled example configuration (``examples/null`` of the source tree).

    >>> (example_dir() / "main.tf").is_file()
    True
    """
    return Path(__file__).resolve().parents[1] / "examples" / "null"
