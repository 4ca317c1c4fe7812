"""Human-readable reasons for a refusal verdict: which phrase, where, and what followed it."""

from __future__ import annotations

from failproof.detect._features import RefusalEvidence
from failproof.detect._types import RefusalLabel
from failproof.signals._types import SignalHit

__all__ = ["explain"]

_SNIPPET_CHARS = 48
#: A decline phrase weaker than this is a hedge that often opens a helpful answer.
_HEDGE = 0.5
#: Fewer characters than this after the refusal sentence count as "no help follows".
_LITTLE_HELP = 120
#: Below this overlap with the prompt's content words an answer reads as off-topic.
_OFF_TOPIC = 0.2


def _quote(evidence: RefusalEvidence, hit: SignalHit) -> str:
    snippet = " ".join(evidence.text[hit.start : hit.end].split())
    if len(snippet) > _SNIPPET_CHARS:
        snippet = snippet[: _SNIPPET_CHARS - 1] + "…"
    return repr(snippet)


def _what_follows(evidence: RefusalEvidence) -> str:
    profile = evidence.profile
    end = evidence.decline_end
    blocks = profile.blocks_between(end, profile.length)
    if blocks:
        return f"help follows: {blocks} list item(s) or code block(s) after it"
    remainder = profile.length - end
    if remainder >= _LITTLE_HELP:
        return f"{remainder} more characters follow it"
    return "no help follows"


def _decline_reasons(evidence: RefusalEvidence) -> list[str]:
    # The first decline phrase speaks for the refusal, unless it is only a hedge ("As an AI").
    first = next((h for h in evidence.declines if h.weight >= _HEDGE), evidence.declines[0])
    lead = f"refusal phrase {_quote(evidence, first)} at char {first.start}"
    if first.start >= evidence.opening_end:
        lead += f" (after {first.start - evidence.profile.lead} characters of answer)"
    reasons = [f"{lead}; {_what_follows(evidence)}"]
    others = len({h.label for h in evidence.declines}) - 1
    if others:
        reasons.append(f"{others} more refusal phrase(s)")
    return reasons


def _topic_reasons(evidence: RefusalEvidence) -> list[str]:
    reasons = []
    overlap = evidence.prompt_overlap
    if overlap is not None and evidence.features["off_topic"] and overlap < _OFF_TOPIC:
        reasons.append(f"off-topic: shares {overlap:.0%} of the prompt's content words")
    return reasons


def explain(evidence: RefusalEvidence, label: RefusalLabel) -> tuple[str, ...]:
    """Short reasons, the strongest first."""
    reasons: list[str] = []
    if evidence.declines:
        reasons += _decline_reasons(evidence)
    else:
        reasons.append("no refusal phrase")
    if evidence.redirections:
        reasons.append(f"redirects: {_quote(evidence, evidence.redirections[0])}")
    for hit in evidence.deliveries[:1]:
        reasons.append(f"then delivers: {_quote(evidence, hit)} at char {hit.start}")
    reasons += _topic_reasons(evidence)
    for hit in evidence.quoted[:1]:
        reasons.append(f"quoted {_quote(evidence, hit)} at char {hit.start} ignored (dialogue)")
    if label == "compliance" and evidence.declines:
        reasons.append("judged a hedge: the answer still helps")
    elif label == "partial_refusal":
        reasons.append("refuses part of the request and helps with the rest")
    return tuple(reasons)
