"""The failure geometry of a whole run embedded at once, whatever its size: the reference the
sampled geometry (`GeometryAccumulator`, which embeds at once only a run within its sample) is
compared with."""

from __future__ import annotations

from collections.abc import Sequence

from failproof.config import ProbeSettings
from failproof.core import CaseResult
from failproof.metrics._geometry import failure_geometry
from failproof.metrics._geometry_docs import geometry_cases
from failproof.metrics._geometry_section import Observability


def whole_run_geometry(results: Sequence[CaseResult], settings: ProbeSettings) -> Observability:
    """Every evaluated case of ``results`` embedded, clustered and placed at once."""
    return failure_geometry(geometry_cases(results, settings.geometry_text_chars), settings)
