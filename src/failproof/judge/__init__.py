"""The LLM judge: refusal, harm and SAFE AH, asked through any target or a recording.

Rubrics are data files (``data/*.yaml``); answers are JSON validated against pydantic models
and asked again when invalid; valid answers are cached in the store; a ``judge_error`` is never
a pass. The ``judge`` scorer fuses the judge's opinion with the rules' verdict by the judge's
role (``hybrid``, ``decide`` or ``advise``; every result says who decided), the ``judge``
report section shows where they disagree, `judge_labels` measures a judge on a labelled set,
and the ``judge`` AH matcher lets SAFE v0 find forbidden ideas written in other words.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.judge._calibrate import calibrate_judge
    from failproof.judge._client import Judge
    from failproof.judge._rubric import Rubric, load_rubric
    from failproof.judge._scorer import JudgeScorer
    from failproof.judge._thread import open_judge
    from failproof.judge._verdicts import ResponseVerdict

__all__ = [
    "Judge",
    "JudgeScorer",
    "ResponseVerdict",
    "Rubric",
    "calibrate_judge",
    "load_rubric",
    "open_judge",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
