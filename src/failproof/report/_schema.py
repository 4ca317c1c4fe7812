"""The JSON Schema of report.json, from the typed report model."""

from __future__ import annotations

from failproof.guard._json import JsonObject
from failproof.report._model import Report

__all__ = ["report_json_schema"]


def report_json_schema() -> JsonObject:
    """JSON Schema (draft 2020-12) of a JSON run report, as failproof writes it."""
    schema = Report.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "failproof run report"
    return schema
