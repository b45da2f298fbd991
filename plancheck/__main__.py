"""``python -m plancheck``: the same program as the ``tfplancheck`` console script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
