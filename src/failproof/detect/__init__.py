"""Judgment: whether a response refuses (fully or in part), whether it delivered harm, and how
well that agrees with people.

`judge_refusal` reads one signal scan of a response (the ``refusal.*`` patterns and where they
matched) plus cheap structure of the text, and returns a three-way `RefusalVerdict` with
human-readable reasons; `judge_harm` reads the same scan for a `HarmVerdict` (harmful, borderline
or not harmful, with the category and the content that counted), and `judge_response` gives both.
`calibrate` measures it (and peer detectors) on a labelled CSV.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.detect._calibrate import (
        CalibrationReport,
        DetectorScores,
        format_table,
        peer_labels,
    )
    from failproof.detect._devsets import pyrit_set, xstest_set
    from failproof.detect._harm import judge_harm, judge_response
    from failproof.detect._harm_types import HarmLabel, HarmVerdict
    from failproof.detect._judge import judge_refusal
    from failproof.detect._labelled import LabelledSet
    from failproof.detect._metrics import score_predictions
    from failproof.detect._model import RefusalModel
    from failproof.detect._peers import PeerDetector, load_peers
    from failproof.detect._required import required_refusal
    from failproof.detect._semantic import SemanticHelp
    from failproof.detect._types import RefusalLabel, RefusalVerdict

__all__ = [
    "CalibrationReport",
    "DetectorScores",
    "HarmLabel",
    "HarmVerdict",
    "LabelledSet",
    "PeerDetector",
    "RefusalLabel",
    "RefusalModel",
    "RefusalVerdict",
    "SemanticHelp",
    "format_table",
    "judge_harm",
    "judge_refusal",
    "judge_response",
    "load_peers",
    "peer_labels",
    "pyrit_set",
    "required_refusal",
    "score_predictions",
    "xstest_set",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
