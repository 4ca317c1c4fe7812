"""What the calls of a run went through: throttling by the server and the waits it caused."""

from __future__ import annotations

from failproof.report._model import Report

__all__ = ["throttling_note"]


def throttling_note(report: Report) -> str | None:
    """One sentence on the run's 429/503 answers and waits, or None when there were none."""
    calls = report.run.config.get("calls")
    if not isinstance(calls, dict) or not (calls.get("throttled") or calls.get("waits")):
        return None
    return (
        f"The server throttled {int(calls.get('throttled') or 0):,} calls (429/503); the run "
        f"waited {int(calls.get('waits') or 0):,} times, {float(calls.get('waited_s') or 0):.1f} s "
        f"in all (longest {float(calls.get('longest_wait_s') or 0):.1f} s)."
    )
