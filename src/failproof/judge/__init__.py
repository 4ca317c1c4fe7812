"""The LLM judge: a second opinion on refusal, harm and SAFE AH, asked through any target.

Rubrics are data files (``data/*.yaml``); answers are JSON validated against pydantic models
and asked again when invalid; valid answers are cached in the store; a ``judge_error`` is never
a pass. The ``judge`` scorer puts the judge's opinion beside the rules' (the rules stay the
verdict), the ``judge`` report section shows where they disagree, `judge_labels` measures a
judge on a labelled set, and the ``judge`` AH matcher lets SAFE v0 find forbidden ideas written
in other words.
"""

from failproof.judge._ah import JudgeAhMatcher, ah_inputs
from failproof.judge._calibrate import JudgeCalibration, calibrate_judge, judge_label
from failproof.judge._client import Judge, JudgeAnswer, JudgeAttempt, judge_cache_key
from failproof.judge._rubric import Rubric, load_rubric
from failproof.judge._scorer import JudgeScorer, opinion_passes
from failproof.judge._section import judge_section
from failproof.judge._target import judge_target
from failproof.judge._thread import JudgeThread, open_judge
from failproof.judge._verdicts import AhVerdict, ResponseVerdict, parse_verdict

__all__ = [
    "AhVerdict",
    "Judge",
    "JudgeAhMatcher",
    "JudgeAnswer",
    "JudgeAttempt",
    "JudgeCalibration",
    "JudgeScorer",
    "JudgeThread",
    "ResponseVerdict",
    "Rubric",
    "ah_inputs",
    "calibrate_judge",
    "judge_cache_key",
    "judge_label",
    "judge_section",
    "judge_target",
    "load_rubric",
    "open_judge",
    "opinion_passes",
    "parse_verdict",
]
