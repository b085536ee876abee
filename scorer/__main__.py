"""``python -m scorer`` runs the ``deploysheet`` command line."""

import sys

from .cli import main

sys.exit(main())
