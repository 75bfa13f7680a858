"""``python -m replay``: the engine's command line without Django."""

import sys

from .cli import main

sys.exit(main())
