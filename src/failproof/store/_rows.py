"""A result as the store keeps it: one JSON text, read back by the store and by its streams."""

from __future__ import annotations

import json

from failproof.core import CaseResult
from failproof.guard._text import clean_data

__all__ = ["load_result"]


def load_result(blob: str) -> CaseResult:
    """A stored result; text that is not valid Unicode (lone surrogates) is repaired, not fatal."""
    try:
        return CaseResult.model_validate_json(blob)
    except ValueError:
        return CaseResult.model_validate(clean_data(json.loads(blob))[0])
