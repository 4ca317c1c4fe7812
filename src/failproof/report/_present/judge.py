"""Who gave a case's verdict, before its reason: ``by judge: `` when a judge took part."""

from __future__ import annotations

from failproof.core import CaseResult

__all__ = ["decided_note"]


def decided_note(result: CaseResult) -> str:
    """``by judge: `` before a verdict a judge took part in (nothing for a rules-only run)."""
    found = result.classification
    if found is None or (found.decided_by == "rules" and not found.decided_why):
        return ""
    return f"by {found.decided_by.replace('_', ' ')}: "
