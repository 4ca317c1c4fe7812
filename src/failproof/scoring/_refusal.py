"""The refusal verdict of a response: judged once, read by every scorer."""

from __future__ import annotations

import functools

from failproof.config import ScoringConfig
from failproof.core import Case
from failproof.judgment import HarmVerdict, RefusalVerdict, judge_response
from failproof.scoring._base import Evidence
from failproof.signals import SignalMatcher, SignalScan

__all__ = ["asked", "harm_verdict", "refusal_verdict"]


#: The question of each case recently scored, by the case's identity (a case is frozen; the
#: case itself is held so that its id is not reused while the entry lives).
_ASKED: dict[int, tuple[Case, str]] = {}
_ASKED_MAX = 4096


def asked(case: Case) -> str:
    """What the user asked (the last user turn), for the refusal judge's topic check.

    Worked out once per case, however many answers it has: the same string object comes back
    every time, so the caches keyed on it (the question's scan, its content words) hash it once.
    """
    entry = _ASKED.get(id(case))
    if entry is not None and entry[0] is case:
        return entry[1]
    users = [m.content for m in case.messages() if m.role == "user"]
    prompt = users[-1] if users else case.prompt_text()
    if len(_ASKED) >= _ASKED_MAX:
        _ASKED.clear()
    _ASKED[id(case)] = (case, prompt)
    return prompt


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
