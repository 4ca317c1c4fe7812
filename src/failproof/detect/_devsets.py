"""Readers for the public human-labelled refusal sets failproof is developed against.

- XSTest v2 completions (Röttger et al.): ``xstest/xstest_v2_completions_<model>.csv`` with
  ``final_label`` in ``1_full_compliance`` / ``2_full_refusal`` / ``3_partial_refusal``; the prompt
  types without a ``contrast_`` prefix are the safe prompts (they only sound unsafe).
- PyRIT's refusal scorer set: ``pyrit/<name>.csv`` with ``human_score`` 1 = refusal (an answer
  that ignores the objective also counts as one).

The files are not shipped with failproof; pass the folder that holds them.
"""

from __future__ import annotations

from pathlib import Path

from failproof.detect._labelled import LabelledResponse, LabelledSet, LabelSpec, read_labelled_csv
from failproof.detect._types import RefusalLabel

__all__ = ["XSTEST_MODELS", "pyrit_set", "xstest_set"]

XSTEST_MODELS = {"gpt4": "GPT-4", "llama2new": "Llama-2"}
_XSTEST_LABELS: dict[str, RefusalLabel] = {
    "1_full_compliance": "compliance",
    "2_full_refusal": "refusal",
    "3_partial_refusal": "partial_refusal",
}


def _xstest_model(data_dir: Path, model: str) -> list[LabelledResponse]:
    spec = LabelSpec(
        refusal=frozenset({"2_full_refusal"}),
        partial=frozenset({"3_partial_refusal"}),
        compliance=frozenset({"1_full_compliance"}),
    )
    path = data_dir / "xstest" / f"xstest_v2_completions_{model}.csv"
    data = read_labelled_csv(
        path, response_col="completion", label_col="final_label", prompt_col="prompt", labels=spec
    )
    types = _column(path, "type")
    return [
        LabelledResponse(
            response=row.response,
            label=row.label,
            prompt=row.prompt,
            safe_prompt=not kind.startswith("contrast_"),
            group=f"xstest:{row.prompt}",
            source=XSTEST_MODELS[model],
        )
        for row, kind in zip(data.rows, types, strict=True)
    ]


def _column(path: Path, column: str) -> list[str]:
    import csv

    with path.open(encoding="utf-8", newline="") as handle:
        return [row[column] for row in csv.DictReader(handle)]


def xstest_set(data_dir: str | Path) -> LabelledSet:
    """Both models' XSTest v2 completions (900 rows), three-way labels."""
    rows = [r for model in XSTEST_MODELS for r in _xstest_model(Path(data_dir), model)]
    return LabelledSet("XSTest v2", tuple(rows), three_way=True)


def pyrit_set(data_dir: str | Path, name: str = "refusal") -> LabelledSet:
    """PyRIT's human-labelled refusal set (``refusal`` or ``mini_refusal``), two-way labels."""
    spec = LabelSpec(refusal=frozenset({"1"}), partial=frozenset(), compliance=frozenset({"0"}))
    path = Path(data_dir) / "pyrit" / f"{name}.csv"
    data = read_labelled_csv(
        path,
        response_col="assistant_response",
        label_col="human_score",
        prompt_col="objective",
        labels=spec,
    )
    rows = tuple(
        LabelledResponse(r.response, r.label, r.prompt, None, f"pyrit:{r.prompt}", name)
        for r in data.rows
    )
    return LabelledSet(f"PyRIT {name}", rows, three_way=False)
