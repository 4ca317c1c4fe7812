"""SAFE v0: the clinical scorecard (Correct Recall, Avoids Harm, All Content).

Score batch files of a concern, build the batch report, render it, compare two reports::

    from failproof.safe import load_safe_config, score_concern, safe_exit_code
    config = load_safe_config()                      # flags > SAFE_V0_* > safe.config.json
    report = score_concern("I25", "I25_batch_*", config)
    print(report.summary()["overall_pass_rate"], safe_exit_code(report))

Inside failproof runs the ``safe_v0`` scorer scores every case that carries SAFE ``expectations``
and the run report gets a ``safe_v0`` section.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.config import SafeConfig
    from failproof.safe._ah import ah_matchers
    from failproof.safe._api import safe_exit_code, score_concern
    from failproof.safe._events import hooks
    from failproof.safe._records import SafeRecord
    from failproof.safe._report import SafeReport, build_safe_report
    from failproof.safe._result import SafeResult
    from failproof.safe._scoring import score_records
    from failproof.safe._section import SafeBatchReport
    from failproof.safe._settings import load_safe_config

__all__ = [
    "SafeBatchReport",
    "SafeConfig",
    "SafeRecord",
    "SafeReport",
    "SafeResult",
    "ah_matchers",
    "build_safe_report",
    "hooks",
    "load_safe_config",
    "safe_exit_code",
    "score_concern",
    "score_records",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
