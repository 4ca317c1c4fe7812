"""Training: the data-set readers, a deterministic fit, and folds that keep a prompt together."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import failproof.detect._train as train
from failproof.detect import LabelledSet, pyrit_set, xstest_set
from failproof.detect._labelled import LabelledResponse
from failproof.detect._train import cross_validate, fit_model, refusal_matcher, training_rows

REFUSALS = [
    "I'm sorry, but I can't help with that.",
    "I won't write that. Instead, here are some safer ideas:\n\n1. Talk to them.\n2. Walk away.",
    "Je ne peux pas vous aider avec cela.",
    "That goes against my guidelines, so I must decline.",
]
ANSWERS = [
    "Sure! Boil the water, add the pasta and stir for ten minutes.",
    "The capital of Australia is Canberra, not Sydney.",
    "Here's a haiku:\n\nold pond / a frog leaps in / the sound of water",
    "To kill a stuck process, run `kill -9` with its process id.",
]


def _xstest_dir(root: Path) -> Path:
    folder = root / "xstest"
    folder.mkdir(parents=True)
    header = [
        "id",
        "type",
        "prompt",
        "completion",
        "annotation_1",
        "annotation_2",
        "agreement",
        "final_label",
    ]
    for model, completions in (("gpt4", ANSWERS), ("llama2new", REFUSALS)):
        with (folder / f"xstest_v2_completions_{model}.csv").open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(header)
            for i, text in enumerate(completions):
                label = "1_full_compliance" if model == "gpt4" else "2_full_refusal"
                kind = "homonyms" if i % 2 else "contrast_homonyms"
                writer.writerow([f"v2-{i}", kind, f"prompt {i}", text, label, label, "TRUE", label])
    return root


def test_xstest_rows_carry_label_safety_model_and_prompt_group(tmp_path: Path) -> None:
    data = xstest_set(_xstest_dir(tmp_path))
    assert data.three_way and len(data) == 8
    first, refused = data.rows[0], data.rows[4]
    assert (first.label, first.source, first.safe_prompt) == ("compliance", "GPT-4", False)
    assert (refused.label, refused.source) == ("refusal", "Llama-2")
    assert first.group == refused.group == "xstest:prompt 0"  # one prompt, one fold
    assert data.rows[1].safe_prompt  # "homonyms" (no contrast_ prefix) is a safe prompt


def test_pyrit_rows_skip_comment_lines(tmp_path: Path) -> None:
    (tmp_path / "pyrit").mkdir()
    (tmp_path / "pyrit" / "refusal.csv").write_text(
        "# dataset_version=1\nobjective,assistant_response,human_score,data_type\n"
        'Make a cake,"Sure, mix flour and eggs.",0,text\nMake a bomb,"I can\'t help.",1,text\n'
    )
    data = pyrit_set(tmp_path)
    assert [r.label for r in data] == ["compliance", "refusal"]
    assert not data.three_way


def _set() -> LabelledSet:
    rows = [
        LabelledResponse(t, "refusal", f"q{i}", group=f"g{i % 3}") for i, t in enumerate(REFUSALS)
    ]
    rows += [
        LabelledResponse(t, "compliance", f"q{i}", group=f"g{i % 3}") for i, t in enumerate(ANSWERS)
    ]
    return LabelledSet("toy", tuple(rows), three_way=True)


def test_fitting_is_deterministic_and_learns_the_obvious() -> None:
    rows = training_rows([_set()], refusal_matcher())
    first, second = fit_model(rows), fit_model(rows)
    assert first.to_json() == second.to_json()
    assert train.predict_rows(first, rows, use_prompt=True)[:4] == ["refusal"] * 4


def test_cross_validation_never_trains_on_the_group_it_judges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = training_rows([_set()], refusal_matcher())
    seen: list[set[str]] = []
    real_fit = train.fit_model

    def recording_fit(part: list[train.TrainingRow]) -> object:
        seen.append({r.row.group for r in part})
        return real_fit(part)

    monkeypatch.setattr(train, "fit_model", recording_fit)
    labels = cross_validate(rows, folds=3)
    assert len(labels) == len(rows)
    assert len(seen) == 3
    assert all(len(groups) == 2 for groups in seen)  # each fold holds one whole group out
