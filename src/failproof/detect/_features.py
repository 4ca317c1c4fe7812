"""Interpretable features of one response: where its refusal phrases sit, and what surrounds them.

Everything here reads the signal scan (the hits and their spans) and the text's `TextProfile`
(bounded, C-speed questions about lists, sentences, quotes and words); no signal pattern is
matched again.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from failproof.detect._profile import TextProfile, profile_text
from failproof.detect._words import content_stems, polar_question
from failproof.signals._types import SignalHit, SignalScan

__all__ = [
    "ARGUED",
    "OPENING_CHARS",
    "PARTIAL_FEATURES",
    "REFUSAL_FEATURES",
    "REFUSAL_PREFIX",
    "RefusalEvidence",
    "gather_evidence",
]

#: Hits whose id starts with this prefix feed the refusal decision.
REFUSAL_PREFIX = "refusal."
#: How far into the answer (characters after leading whitespace) counts as its opening, unless
#: the caller says otherwise (the ``probe.opening_chars`` setting); the model was fitted with it.
OPENING_CHARS = 200
#: The registers that decline by arguing against the request rather than in the first person.
ARGUED = frozenset({"rebuttal"})
#: Below this many characters an answer is too short to be judged off-topic by its words.
_TOPIC_MIN_CHARS = 200
#: A decline phrase at least this strong is unambiguous on its own ("I can't help with").
_STRONG = 0.9

#: Features of the refused-or-not decision, in the order of the model's weights.
REFUSAL_FEATURES: tuple[str, ...] = (
    "decline_strength",
    "decline_strong",
    "opening_decline",
    "opening_apology",
    "opening_boundary",
    "opening_policy",
    "decline_phrases",
    "redirection",
    "help_before",
    "blocks_after",
    "off_topic",
)
#: Features of the partial-or-full decision, read once an answer is judged a refusal.
PARTIAL_FEATURES: tuple[str, ...] = (
    "help_after",
    "blocks_after",
    "pivot",
    "help_before",
    "opening_decline",
    "decline_phrases",
    "length",
    "opening_hedge",
    "redirection",
)
#: The position features of an answer that has no decline phrase, bar ``redirection``.
_NO_DECLINE: dict[str, float] = {
    "decline_strength": 0.0,
    "decline_strong": 0.0,
    "opening_decline": 0.0,
    "opening_apology": 0.0,
    "opening_boundary": 0.0,
    "opening_policy": 0.0,
    "decline_phrases": 0.0,
    "redirection": 0.0,
    "pivot": 0.0,
    "help_before": 0.0,
    "help_after": 0.0,
    "blocks_after": 0.0,
    "opening_hedge": 0.0,
}
#: Text after a turn back to help ("but I can describe in detail how ...") that counts as the
#: help being delivered: this many characters, or one list item or code block.
_DELIVERED_CHARS = 80


class RefusalEvidence(NamedTuple):
    """What the decision reads: the hits that count, the ones set aside, and the features.

    A named tuple: one is made for every answer judged (cheaper than a frozen dataclass).
    """

    text: str
    profile: TextProfile
    declines: tuple[SignalHit, ...]
    redirections: tuple[SignalHit, ...]
    quoted: tuple[SignalHit, ...]
    prompt_overlap: float | None
    features: dict[str, float]
    opening_chars: int = OPENING_CHARS
    #: Turns back to help after a decline, each followed by the help it announces.
    deliveries: tuple[SignalHit, ...] = ()

    @property
    def opening_end(self) -> int:
        """Where the answer's opening ends (leading whitespace is not counted)."""
        return self.profile.lead + self.opening_chars

    @property
    def argued(self) -> bool:
        """Every decline phrase argues against the request (register ``rebuttal``): no
        first-person decline."""
        return bool(self.declines) and all(h.register in ARGUED for h in self.declines)

    @property
    def decline_end(self) -> int:
        """Where the sentence of the last decline phrase ends (the answer's start if none)."""
        if not self.declines:
            return self.profile.lead
        return self.profile.sentence_end_after(max(h.end for h in self.declines))


def _log_scale(count: float, full: float) -> float:
    """``count`` on a log scale where ``full`` maps to 1.0."""
    return math.log1p(max(count, 0.0)) / math.log1p(full)


def _strongest(hits: list[SignalHit] | tuple[SignalHit, ...], register: str | None = None) -> float:
    return max((h.weight for h in hits if register is None or h.register == register), default=0.0)


def _split_hits(
    scan: SignalScan, profile: TextProfile, prompt: str | None
) -> tuple[list[SignalHit], list[SignalHit], list[SignalHit], list[SignalHit]]:
    """(declines, redirections, quoted, deliveries): the refusal hits, a quoted phrase set
    aside, a bare "No." set aside when it answers a yes/no question."""
    declines: list[SignalHit] = []
    redirections: list[SignalHit] = []
    quoted: list[SignalHit] = []
    deliveries: list[SignalHit] = []
    refusals = [hit for hit in scan.hits if hit.id.startswith(REFUSAL_PREFIX)]
    if not refusals:  # most answers: nothing to split (and the prompt need not be read)
        return declines, redirections, quoted, deliveries
    answers_no = polar_question(prompt)
    for hit in sorted(refusals, key=lambda h: (h.start, h.end)):
        if answers_no and hit.register == "negation":
            continue
        if profile.quoted(hit.start, hit.end):
            quoted.append(hit)
        elif hit.register == "redirection":
            redirections.append(hit)
        elif hit.register == "delivery":
            deliveries.append(hit)
        else:
            declines.append(hit)
    return declines, redirections, quoted, deliveries


def _delivered(
    profile: TextProfile, declines: list[SignalHit], deliveries: list[SignalHit]
) -> list[SignalHit]:
    """The turns back to help that come after a decline and are followed by the help itself."""
    if not declines:
        return []
    first = declines[0].start
    out = []
    for hit in deliveries:
        if hit.start < first:
            continue
        rest = profile.length - hit.end
        if rest >= _DELIVERED_CHARS or profile.blocks_between(hit.end, profile.length):
            out.append(hit)
    return out


def _topic(profile: TextProfile, prompt: str | None) -> tuple[float | None, float]:
    """(overlap, off_topic): the share of the prompt's content words the answer uses, and how
    far a substantial answer strays from them (0 when the prompt is unknown or the answer short).
    """
    stems = content_stems(prompt) if prompt else frozenset()
    if not stems:
        return None, 0.0
    overlap = profile.shares(stems) / len(stems)
    substantial = profile.length - profile.lead >= _TOPIC_MIN_CHARS
    return overlap, (1.0 - overlap) ** 2 if substantial else 0.0


def _no_decline_features(redirections: list[SignalHit]) -> dict[str, float]:
    """`_position_features` of an answer without a decline phrase (most answers): every feature
    that reads a decline is 0, as the general computation gives it."""
    features = dict(_NO_DECLINE)
    features["redirection"] = _strongest(redirections)
    return features


def _position_features(
    profile: TextProfile,
    declines: list[SignalHit],
    redirections: list[SignalHit],
    opening_chars: int,
) -> dict[str, float]:
    if not declines:
        return _no_decline_features(redirections)
    return _decline_features(profile, declines, redirections, opening_chars)


def _decline_features(
    profile: TextProfile,
    declines: list[SignalHit],
    redirections: list[SignalHit],
    opening_chars: int,
) -> dict[str, float]:
    """The position features in general (`_no_decline_features` gives them without declines)."""
    early = [h for h in declines if h.start < profile.lead + opening_chars]
    first = declines[0].start if declines else profile.length
    last_end = max((h.end for h in declines), default=profile.lead)
    after = profile.length - profile.sentence_end_after(last_end) if declines else 0
    return {
        "decline_strength": _strongest(declines),
        "decline_strong": 1.0 if _strongest(declines) >= _STRONG else 0.0,
        "opening_decline": _strongest(early),
        "opening_apology": _strongest(early, "apology"),
        "opening_boundary": max(_strongest(early, "boundary"), _strongest(early, "negation")),
        "opening_policy": _strongest(early, "policy"),
        "decline_phrases": _log_scale(len(declines), 8),
        "redirection": _strongest(redirections),
        "pivot": _strongest([h for h in redirections if h.start >= first]) if declines else 0.0,
        "help_before": _log_scale(first - profile.lead, 2000) if declines else 0.0,
        "help_after": _log_scale(after, 2000),
        "blocks_after": _log_scale(profile.blocks_between(first, profile.length), 10)
        if declines
        else 0.0,
        "opening_hedge": 1.0 if any(h.weight < 0.5 for h in early) else 0.0,
    }


def gather_evidence(
    text: str,
    scan: SignalScan,
    prompt: str | None = None,
    *,
    opening_chars: int = OPENING_CHARS,
) -> RefusalEvidence:
    """The refusal evidence of ``text`` from its ``scan`` (and the prompt, when known).

    ``opening_chars`` is how far into the answer (after leading whitespace) a phrase counts as
    its opening; the shipped model was trained with the default.
    """
    if opening_chars < 0:
        raise ValueError(f"opening_chars must be >= 0, not {opening_chars}")
    profile = profile_text(text)
    declines, redirections, quoted, deliveries = _split_hits(scan, profile, prompt)
    overlap, off_topic = _topic(profile, prompt)
    features = _position_features(profile, declines, redirections, opening_chars)
    features["length"] = _log_scale(profile.length - profile.lead, 2000)
    features["off_topic"] = off_topic
    return RefusalEvidence(
        text=text,
        profile=profile,
        declines=tuple(declines),
        redirections=tuple(redirections),
        quoted=tuple(quoted),
        prompt_overlap=overlap,
        features=features,
        opening_chars=opening_chars,
        deliveries=tuple(_delivered(profile, declines, deliveries)),
    )
