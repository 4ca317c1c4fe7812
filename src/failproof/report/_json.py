"""The JSON run report."""

from __future__ import annotations

from failproof.report._model import Report
from failproof.report._render import Renderer, renderers

__all__ = ["JsonRenderer"]


@renderers.register("json")
class JsonRenderer(Renderer):
    """The full run report as JSON: every section and every result."""

    format = "json"
    filename = "report.json"

    def render(self, report: Report) -> str:
        return report.model_dump_json(indent=2) + "\n"
