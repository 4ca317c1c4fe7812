"""The scoring record of a run: every setting that changes a score, label, aggregate or threshold.

It is resolved once at the edge (the command line, or the caller of the library API), stored in
the run (``run.config["scoring"]``), and read back by everything that scores or aggregates the run
afterwards: the report, the viewer, ``--resume`` and ``rescore``. Nothing downstream reads the
environment or a config file again.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from failproof.config._safe import SafeConfig
from failproof.config._sections import ClassifierSettings, ProbeSettings
from failproof.guard._json import JsonObject

if TYPE_CHECKING:
    from failproof.config._settings import Settings

__all__ = ["RECORD_KEY", "PatternFileRef", "ScoringConfig", "Versions"]

#: Where the record lives in ``Run.config``.
RECORD_KEY = "scoring"
#: Settings sections that shape how a run is carried out or reported, never a score.
_NOT_SCORING = frozenset({"home", "run", "report"})


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

    ``safe`` is set only when a case of the run carries SAFE expectations; ``judge`` is the
    settings of an LLM judge, when one scored the run. Every other section of `Settings` but
    ``home``, ``run`` and ``report`` is carried too (with its own type), so a scorer reads
    ``self.settings.<section>`` as it reads the settings.
    """

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)

    classifier: ClassifierSettings = Field(default_factory=ClassifierSettings)
    probe: ProbeSettings = Field(default_factory=ProbeSettings)
    safe: SafeConfig | None = None
    judge: Any = Field(default=None, description="LLM judge settings (an open slot).")
    pattern_files: tuple[PatternFileRef, ...] = ()
    suite_weights: dict[str, float] = Field(default_factory=dict)
    versions: Versions = Field(default_factory=Versions)

    @classmethod
    def from_settings(cls, settings: Settings, **more: Any) -> ScoringConfig:
        """The scoring sections of ``settings`` (no SAFE config, no versions unless given)."""
        names = [n for n in type(settings).model_fields if n not in _NOT_SCORING]
        return cls(**{name: getattr(settings, name) for name in names}, **more)

    @model_validator(mode="before")
    @classmethod
    def _typed_sections(cls, data: Any) -> Any:
        """A stored section of `Settings` that is not a field here is read back as its type."""
        if not isinstance(data, Mapping):
            return data
        sections = _settings_sections()
        judge = data.get("judge")
        if isinstance(judge, Mapping) and judge.get("spec") and "role" not in judge:
            # a run recorded before judge roles was judged in today's advise role
            data = {**data, "judge": {**judge, "role": "advise"}}
        return {
            key: sections[key].validate_python(value)
            if key in sections and (key not in cls.model_fields or key == "judge")
            else value
            for key, value in data.items()
        }

    @classmethod
    def of_run(cls, config: Mapping[str, Any]) -> ScoringConfig | None:
        """The record stored in a run's ``config``, or None for a run made before records."""
        stored = config.get(RECORD_KEY)
        return cls.model_validate(stored) if isinstance(stored, Mapping) else None

    def to_json(self) -> JsonObject:
        """The record as stored in the run (``safe`` spelled like ``safe.config.json``)."""
        return self.model_dump(mode="json", by_alias=True)


@functools.cache
def _settings_sections() -> dict[str, TypeAdapter[Any]]:
    """A validator of each scoring section of `Settings`, by name (built on first use)."""
    from failproof.config._settings import Settings

    fields = Settings.model_fields
    return {
        name: TypeAdapter(Any if (kind := field.annotation) is None else kind)
        for name, field in fields.items()
        if name not in _NOT_SCORING
    }
