"""Run identifiers."""

from __future__ import annotations

import secrets

from failproof.core._result import utc_now

__all__ = ["new_run_id"]


def new_run_id() -> str:
    """A sortable, unique run id: ``20261121-081500-3f9a1c``."""
    return utc_now().strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)
