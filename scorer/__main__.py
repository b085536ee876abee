"""``python -m scorer`` runs the ``deploysheet`` command line."""

from .cli import entry

entry()
