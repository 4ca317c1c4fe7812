"""The JSON Schema of report.json, from the typed report model."""

from __future__ import annotations

from typing import Any

from failproof.report._model import Report

__all__ = ["report_json_schema"]


def report_json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a JSON run report, as failproof writes it."""
    schema = Report.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "failproof run report"
    return schema
