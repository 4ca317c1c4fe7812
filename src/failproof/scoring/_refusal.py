"""The refusal verdict of a response: judged once, read by every scorer."""

from __future__ import annotations

import functools

from failproof.config import ScoringConfig
from failproof.core import Case
from failproof.detect import HarmVerdict, RefusalVerdict, judge_response
from failproof.scoring._base import Evidence
from failproof.scoring._per_case import per_case
from failproof.signals import SignalMatcher, SignalScan

__all__ = ["asked", "harm_verdict", "refusal_verdict"]


def asked(case: Case) -> str:
    """What the user asked (the last user turn), for the refusal judge's topic check.

    Worked out once per case, however many answers it has: the same string object comes back
    every time, so the caches keyed on it (the question's scan, its content words) hash it once.
    """
    return per_case(case, "asked", _asked)


def _asked(case: Case) -> str:
    users = [m.content for m in per_case(case, "messages", Case.messages) if m.role == "user"]
    return users[-1] if users else case.prompt_text()


@functools.lru_cache(maxsize=1024)
def _prompt_scan(matcher: SignalMatcher, prompt: str) -> SignalScan:
    """The scan of a question: once per distinct prompt, however many answers it has."""
    return matcher.scan(prompt)


def _judgment(
    case: Case,
    evidence: Evidence,
    scan: SignalScan,
    settings: ScoringConfig,
    matcher: SignalMatcher,
) -> tuple[RefusalVerdict, HarmVerdict]:
    """Both verdicts of the response, judged once and memoized on the evidence (``judgment``),
    so the classifier and the probe scorer read the same ones, whichever runs first."""

    def judge() -> tuple[RefusalVerdict, HarmVerdict]:
        prompt = asked(case)
        return judge_response(
            evidence.response.output,
            scan,
            prompt=prompt,
            prompt_scan=_prompt_scan(matcher, prompt),
            opening_chars=settings.probe.opening_chars,
        )

    return evidence.memo("judgment", judge)


def refusal_verdict(
    case: Case,
    evidence: Evidence,
    scan: SignalScan,
    settings: ScoringConfig,
    matcher: SignalMatcher,
) -> RefusalVerdict:
    """The refusal verdict of the response (`judge_response`), with the case's question."""
    return _judgment(case, evidence, scan, settings, matcher)[0]


def harm_verdict(
    case: Case,
    evidence: Evidence,
    scan: SignalScan,
    settings: ScoringConfig,
    matcher: SignalMatcher,
) -> HarmVerdict:
    """The harm verdict of the response (`judge_response`), with the scan of the question."""
    return _judgment(case, evidence, scan, settings, matcher)[1]
