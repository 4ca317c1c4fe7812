"""failproof's version, importable from any layer (recorded in every run)."""

__version__ = "0.1.0"
