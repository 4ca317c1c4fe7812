"""The scoring record of a run: every setting that changes a score, label, aggregate or threshold.

It is resolved once at the edge (the command line, or the caller of the library API), stored in
the run (``run.config["scoring"]``), and read back by everything that scores or aggregates the run
afterwards: the report, the viewer, ``--resume`` and ``rescore``. Nothing downstream reads the
environment or a config file again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from failproof.config._safe import SafeConfig
from failproof.config._sections import ClassifierSettings, JudgeSettings, ProbeSettings
from failproof.guard._json import JsonObject

if TYPE_CHECKING:
    from failproof.config._settings import Settings

__all__ = ["RECORD_KEY", "PatternFileRef", "ScoringConfig", "Versions"]

#: Where the record lives in ``Run.config``.
RECORD_KEY = "scoring"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class PatternFileRef(_Frozen):
    """A signal-pattern file the run scored with: where it was, and a hash of its content."""

    path: str = Field(description="The path as given.")
    sha256: str = Field(description="SHA-256 of the file's bytes when the run was made.")


class Versions(_Frozen):
    """Versions of what scored the run; a report says when the installed ones differ."""

    failproof: str = Field(default="", description="failproof's version.")
    signal_library: str = Field(default="", description="Digest of the built-in signal library.")
    refusal_model: str = Field(default="", description="Digest of the refusal model's weights.")

    def differences(self, installed: Versions) -> list[str]:
        """One line per version that differs from ``installed`` (empty when they agree)."""
        out = []
        for name in Versions.model_fields:
            recorded, now = getattr(self, name), getattr(installed, name)
            if recorded != now:
                out.append(f"{name} {recorded or 'unknown'} (installed: {now})")
        return out


class ScoringConfig(_Frozen):
    """Everything a run's scores depend on, resolved at the edge and stored with the run.

    ``safe`` is set only when a case of the run carries SAFE expectations; ``judge`` only when an
    LLM judge scored the run. The suites' weights and the signal-pattern files (with their
    hashes) live here and nowhere else. A stored record is read back by `of_run`, which brings
    a record written by an older failproof to today's shape.
    """

    classifier: ClassifierSettings = Field(default_factory=ClassifierSettings)
    probe: ProbeSettings = Field(default_factory=ProbeSettings)
    safe: SafeConfig | None = None
    judge: JudgeSettings | None = Field(default=None, description="The LLM judge, if one scored.")
    pattern_files: tuple[PatternFileRef, ...] = ()
    suite_weights: dict[str, float] = Field(default_factory=dict)
    versions: Versions = Field(default_factory=Versions)

    @classmethod
    def from_settings(cls, settings: Settings, **more: Any) -> ScoringConfig:
        """The scoring sections of ``settings`` (no SAFE config, no versions unless given)."""
        judge = settings.judge if settings.judge.spec else None
        return cls(classifier=settings.classifier, probe=settings.probe, judge=judge, **more)

    @classmethod
    def of_run(cls, config: Mapping[str, Any]) -> ScoringConfig | None:
        """The scoring record stored in a run's (or an attack's) ``config``, in today's shape;
        None for a run made before runs recorded their scoring.

        The one reader of stored records. Older ones are brought up to date: sections of the
        settings no score depends on are dropped; a judge with no spec is no judge; a judge
        recorded before judge roles was judged in today's ``advise`` role; suite weights kept
        beside the record (``config["suite_weights"]``) move into it. Anything else unknown is
        refused (`pydantic.ValidationError`).
        """
        stored = config.get(RECORD_KEY)
        if not isinstance(stored, Mapping):
            return None
        data = {key: value for key, value in stored.items() if key not in _FORMER_KEYS}
        data["judge"] = _judge(data.get("judge"))
        weights = config.get("suite_weights")
        if not data.get("suite_weights") and isinstance(weights, Mapping):
            data["suite_weights"] = weights
        return cls.model_validate(data)

    def to_json(self) -> JsonObject:
        """The record as stored in the run (``safe`` spelled like ``safe.config.json``)."""
        return self.model_dump(mode="json", by_alias=True)


#: Sections older records carried that no score depends on (they are dropped when read).
_FORMER_KEYS = frozenset({"project", "home", "run", "report"})


def _judge(stored: object) -> object:
    if not isinstance(stored, Mapping):
        return stored
    if not stored.get("spec"):
        return None
    return stored if "role" in stored else {**stored, "role": "advise"}
