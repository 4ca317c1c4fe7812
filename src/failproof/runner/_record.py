"""Resolving a run's scoring record at the edge, and reading it back for resume and rescore."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path

from failproof.config import SafeConfig, ScoringConfig, Settings
from failproof.config._record import PatternFileRef
from failproof.core import Run, Suite
from failproof.errors import ConfigError
from failproof.scoring._versions import installed_versions

__all__ = [
    "SafeSource",
    "check_pattern_files",
    "recorded_scoring",
    "resolve_scoring",
    "scoring_record",
]

#: The SAFE config of a run: a value, or how to read it (called only when a case needs it).
SafeSource = SafeConfig | Callable[[], SafeConfig] | None


def resolve_scoring(
    settings: Settings, suites: Sequence[Suite], *, safe: SafeSource = None
) -> ScoringConfig:
    """Everything the run's scores depend on, resolved once: stored with the run.

    ``safe`` is read only when a case of ``suites`` carries SAFE expectations (without it, such
    a run scores with the SAFE defaults).
    """
    has_safe = any(case.expectations is not None for s in suites for case in s.cases)
    weights = {s.name: s.weight for s in suites}
    return scoring_record(settings, weights, has_safe=has_safe, safe=safe)


def scoring_record(
    settings: Settings, weights: dict[str, float], *, has_safe: bool, safe: SafeSource = None
) -> ScoringConfig:
    """`resolve_scoring` from the suites' weights and whether a case carries SAFE expectations
    (for suites whose cases are read as they run)."""
    return ScoringConfig.from_settings(
        settings,
        safe=_safe_config(safe) if has_safe else None,
        pattern_files=pattern_refs(settings.probe.patterns),
        suite_weights=weights,
        versions=installed_versions(),
    )


def _safe_config(safe: SafeSource) -> SafeConfig:
    if safe is None:
        return SafeConfig()
    return safe if isinstance(safe, SafeConfig) else safe()


def pattern_refs(paths: Sequence[str]) -> tuple[PatternFileRef, ...]:
    """Each pattern file by path and content hash."""
    return tuple(PatternFileRef(path=p, sha256=_sha256(Path(p))) for p in paths)


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise ConfigError(
            f"cannot read signal-pattern file {path}: {exc.strerror or exc}",
            hint="check the --patterns path (or probe.patterns in the config file)",
        ) from None


def check_pattern_files(record: ScoringConfig, run_id: str) -> None:
    """Every pattern file the run scored with is still there with the same content."""
    for ref in record.pattern_files:
        now = _sha256(Path(ref.path))
        if now != ref.sha256:
            raise ConfigError(
                f"signal-pattern file {ref.path} changed since run {run_id} was scored with it",
                hint=f"restore the file, or score the run again with: failproof rescore {run_id}",
            )


def recorded_scoring(
    run: Run,
    settings: Settings,
    weights: dict[str, float],
    *,
    has_safe: bool,
    safe: SafeSource = None,
) -> ScoringConfig:
    """The record stored with ``run`` (pattern files checked); a run made before records gets
    one resolved from ``settings`` as it would have been then (`scoring_record` of its suites'
    ``weights`` and whether a case carries SAFE expectations)."""
    record = ScoringConfig.of_run(run.config)
    if record is None:
        stored = run.config.get("patterns") or []
        if stored and not settings.probe.patterns:
            probe = settings.probe.model_copy(update={"patterns": [str(p) for p in stored]})
            settings = settings.model_copy(update={"probe": probe})
        return scoring_record(settings, weights, has_safe=has_safe, safe=safe)
    check_pattern_files(record, run.id)
    return record
