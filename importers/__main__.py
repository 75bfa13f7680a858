"""``python -m importers``: the ``raspis`` command from a checkout, ``import`` included."""

import sys

from .cli import main

sys.exit(main())
