"""``python -m failproof``."""

from failproof.cli import entry

entry()
