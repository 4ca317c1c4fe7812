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
    from failproof.judgment._calibrate import (
        CalibrationReport,
        DetectorScores,
        calibrate,
        format_table,
        judge_set,
        peer_labels,
    )
    from failproof.judgment._declines import writer_declined
    from failproof.judgment._devsets import pyrit_set, xstest_set
    from failproof.judgment._features import (
        PARTIAL_FEATURES,
        REFUSAL_FEATURES,
        RefusalEvidence,
        gather_evidence,
    )
    from failproof.judgment._harm import judge_harm, judge_response
    from failproof.judgment._harm_features import HARM_FEATURES
    from failproof.judgment._harm_model import HarmModel, default_harm_model, load_harm_model
    from failproof.judgment._harm_types import HARM_CATEGORIES, HarmLabel, HarmVerdict
    from failproof.judgment._judge import judge_refusal
    from failproof.judgment._labelled import (
        LabelledResponse,
        LabelledSet,
        LabelSpec,
        read_csv_column,
        read_labelled_csv,
    )
    from failproof.judgment._metrics import AgreementScores, score_predictions
    from failproof.judgment._model import (
        LinearModel,
        RefusalModel,
        default_model,
        load_model,
    )
    from failproof.judgment._peers import PeerDetector, load_peers
    from failproof.judgment._required import RequiredOutcome, refusal_holds, required_refusal
    from failproof.judgment._semantic import Embedder, SemanticHelp
    from failproof.judgment._types import RefusalLabel, RefusalVerdict

__all__ = [
    "HARM_CATEGORIES",
    "HARM_FEATURES",
    "PARTIAL_FEATURES",
    "REFUSAL_FEATURES",
    "AgreementScores",
    "CalibrationReport",
    "DetectorScores",
    "Embedder",
    "HarmLabel",
    "HarmModel",
    "HarmVerdict",
    "LabelSpec",
    "LabelledResponse",
    "LabelledSet",
    "LinearModel",
    "PeerDetector",
    "RefusalEvidence",
    "RefusalLabel",
    "RefusalModel",
    "RefusalVerdict",
    "RequiredOutcome",
    "SemanticHelp",
    "calibrate",
    "default_harm_model",
    "default_model",
    "format_table",
    "gather_evidence",
    "judge_harm",
    "judge_refusal",
    "judge_response",
    "judge_set",
    "load_harm_model",
    "load_model",
    "load_peers",
    "peer_labels",
    "pyrit_set",
    "read_csv_column",
    "read_labelled_csv",
    "refusal_holds",
    "required_refusal",
    "score_predictions",
    "writer_declined",
    "xstest_set",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._calibrate": (
                "CalibrationReport",
                "DetectorScores",
                "calibrate",
                "format_table",
                "judge_set",
                "peer_labels",
            ),
            "._declines": ("writer_declined",),
            "._devsets": ("pyrit_set", "xstest_set"),
            "._features": (
                "PARTIAL_FEATURES",
                "REFUSAL_FEATURES",
                "RefusalEvidence",
                "gather_evidence",
            ),
            "._harm": ("judge_harm", "judge_response"),
            "._harm_features": ("HARM_FEATURES",),
            "._harm_model": ("HarmModel", "default_harm_model", "load_harm_model"),
            "._harm_types": ("HARM_CATEGORIES", "HarmLabel", "HarmVerdict"),
            "._judge": ("judge_refusal",),
            "._labelled": (
                "LabelledResponse",
                "LabelledSet",
                "LabelSpec",
                "read_csv_column",
                "read_labelled_csv",
            ),
            "._metrics": ("AgreementScores", "score_predictions"),
            "._model": ("LinearModel", "RefusalModel", "default_model", "load_model"),
            "._peers": ("PeerDetector", "load_peers"),
            "._required": ("RequiredOutcome", "refusal_holds", "required_refusal"),
            "._semantic": ("Embedder", "SemanticHelp"),
            "._types": ("RefusalLabel", "RefusalVerdict"),
        },
    )
