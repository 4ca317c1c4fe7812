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

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._ah": ("JudgeAhMatcher", "ah_inputs"),
            "._calibrate": ("JudgeCalibration", "calibrate_judge", "judge_label"),
            "._client": ("Judge", "JudgeAnswer", "JudgeAttempt", "judge_cache_key"),
            "._rubric": ("Rubric", "load_rubric"),
            "._scorer": ("JudgeScorer", "opinion_passes"),
            "._section": ("judge_section",),
            "._target": ("judge_target",),
            "._thread": ("JudgeThread", "open_judge"),
            "._verdicts": ("AhVerdict", "ResponseVerdict", "parse_verdict"),
        },
    )
