"""The refusal verdict of a response: judged once, read by every scorer."""

from __future__ import annotations

from failproof.config import ScoringConfig
from failproof.core import Case
from failproof.judgment import RefusalVerdict, judge_refusal
from failproof.scoring._base import Evidence
from failproof.signals import SignalScan

__all__ = ["asked", "refusal_verdict"]


def asked(case: Case) -> str:
    """What the user asked (the last user turn), for the refusal judge's topic check."""
    users = [m.content for m in case.messages() if m.role == "user"]
    return users[-1] if users else case.prompt_text()


def refusal_verdict(
    case: Case, evidence: Evidence, scan: SignalScan, settings: ScoringConfig
) -> RefusalVerdict:
    """`judge_refusal` of the response, with the case's question and the configured opening.

    Memoized on the evidence under ``refusal``, so the classifier and the probe scorer always
    read the same verdict, whichever runs first.
    """
    return evidence.memo(
        "refusal",
        lambda: judge_refusal(
            evidence.response.output,
            scan,
            prompt=asked(case),
            opening_chars=settings.probe.opening_chars,
        ),
    )
