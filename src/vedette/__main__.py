"""``python -m vedette``: the ``vedette`` command."""

import sys

from vedette.cli.entry import main

if __name__ == "__main__":
    sys.exit(main())
