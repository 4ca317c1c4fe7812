"""SAFE v0: the clinical scorecard (Correct Recall, Avoids Harm, All Content).

Score batch files of a concern, build the batch report, render it, compare two reports::

    from failproof.safe import load_safe_config, score_concern, safe_exit_code
    config = load_safe_config()                      # flags > SAFE_V0_* > safe.config.json
    report = score_concern("I25", "I25_batch_*", config)
    print(report.summary()["overall_pass_rate"], safe_exit_code(report))

Inside failproof runs the ``safe_v0`` scorer scores every case that carries SAFE ``expectations``
and the run report gets a ``safe_v0`` section.
"""

from failproof.safe._aggregate import (
    ArchetypeStats,
    BatchAggregate,
    FailureAnalysis,
    PhraseCount,
    aggregate,
    pass_rate,
    safe_mean,
)
from failproof.safe._ah import AhMatcher, ExactAhMatcher, ah_matchers
from failproof.safe._api import safe_exit_code, score_concern
from failproof.safe._compare import (
    CaseChange,
    Comparison,
    LoadedReport,
    MetricDelta,
    compare_reports,
    load_report,
)
from failproof.safe._compare_render import comparison_markdown, print_comparison
from failproof.safe._config import (
    LABELS,
    METRICS,
    REPORT_FORMATS,
    Label,
    MatchMode,
    Metric,
    MetricThresholds,
    MetricThresholdsOverride,
    ReportFormat,
    SafeConfig,
    Thresholds,
    ThresholdsOverride,
    Weights,
    WeightsOverride,
)
from failproof.safe._console import console_text, print_console
from failproof.safe._events import (
    EVENT_NAME,
    SafeHook,
    call_hooks,
    emit_events,
    hooks,
    record_results,
    result_events,
)
from failproof.safe._formulas import (
    HARM_RULE,
    ah_score,
    composite_score,
    coverage_score,
    metric_label,
    overall_label,
)
from failproof.safe._loader import (
    Batch,
    LoadedBatches,
    SkippedRecord,
    find_batch_files,
    load_batches,
)
from failproof.safe._markdown import escape_markdown, render_markdown
from failproof.safe._matching import Hits, PhraseIndex
from failproof.safe._outputs import (
    REPORT_EXTENSIONS,
    parse_safe_formats,
    report_stem,
    write_outputs,
)
from failproof.safe._paired import PairedTest, holm, sign_flip_test
from failproof.safe._records import DEFAULT_ARCHETYPE, SafeOutput, SafeRecord
from failproof.safe._report import (
    SCHEMA_VERSION,
    BatchInfo,
    MetricStatus,
    SafeReport,
    build_safe_report,
)
from failproof.safe._result import (
    MetricLabels,
    PhraseCheck,
    SafeResult,
    SafeScores,
    SemanticMatch,
)
from failproof.safe._scorer import SafeV0Scorer, safe_v0_section
from failproof.safe._scoring import score_record, score_records
from failproof.safe._semantic import Embedder, MiniLmEmbedder, SemanticMatcher, split_sentences
from failproof.safe._settings import (
    CONFIG_ENV,
    CONFIG_FILE_NAME,
    ENV_VARIABLES,
    EnvVariable,
    load_safe_config,
)

__all__ = [
    "CONFIG_ENV",
    "CONFIG_FILE_NAME",
    "DEFAULT_ARCHETYPE",
    "ENV_VARIABLES",
    "EVENT_NAME",
    "HARM_RULE",
    "LABELS",
    "METRICS",
    "REPORT_EXTENSIONS",
    "REPORT_FORMATS",
    "SCHEMA_VERSION",
    "AhMatcher",
    "ArchetypeStats",
    "Batch",
    "BatchAggregate",
    "BatchInfo",
    "CaseChange",
    "Comparison",
    "Embedder",
    "EnvVariable",
    "ExactAhMatcher",
    "FailureAnalysis",
    "Hits",
    "Label",
    "LoadedBatches",
    "LoadedReport",
    "MatchMode",
    "Metric",
    "MetricDelta",
    "MetricLabels",
    "MetricStatus",
    "MetricThresholds",
    "MetricThresholdsOverride",
    "MiniLmEmbedder",
    "PairedTest",
    "PhraseCheck",
    "PhraseCount",
    "PhraseIndex",
    "ReportFormat",
    "SafeConfig",
    "SafeHook",
    "SafeOutput",
    "SafeRecord",
    "SafeReport",
    "SafeResult",
    "SafeScores",
    "SafeV0Scorer",
    "SemanticMatch",
    "SemanticMatcher",
    "SkippedRecord",
    "Thresholds",
    "ThresholdsOverride",
    "Weights",
    "WeightsOverride",
    "aggregate",
    "ah_matchers",
    "ah_score",
    "build_safe_report",
    "call_hooks",
    "compare_reports",
    "comparison_markdown",
    "composite_score",
    "console_text",
    "coverage_score",
    "emit_events",
    "escape_markdown",
    "find_batch_files",
    "holm",
    "hooks",
    "load_batches",
    "load_report",
    "load_safe_config",
    "metric_label",
    "overall_label",
    "parse_safe_formats",
    "pass_rate",
    "print_comparison",
    "print_console",
    "record_results",
    "render_markdown",
    "report_stem",
    "result_events",
    "safe_exit_code",
    "safe_mean",
    "safe_v0_section",
    "score_concern",
    "score_record",
    "score_records",
    "sign_flip_test",
    "split_sentences",
    "write_outputs",
]
