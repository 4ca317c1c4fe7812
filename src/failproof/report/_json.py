"""The JSON run report, written case by case: the cases are never one object in memory."""

from __future__ import annotations

from typing import TextIO

from failproof.core import CaseResult
from failproof.guard import redact
from failproof.report._model import Report
from failproof.report._render import StreamingRenderer, renderers

__all__ = ["JsonRenderer", "JsonSink"]

_EMPTY = '\n  "results": []\n}'


class JsonSink:
    """``report.model_dump_json(indent=2)`` written to ``out`` one case at a time (the same text
    as dumping the report whole), each part redacted; the closing brackets at `close`."""

    def __init__(self, report: Report, out: TextIO) -> None:
        head = report.model_copy(update={"results": []}).model_dump_json(indent=2)
        if not head.endswith(_EMPTY):
            raise ValueError("the report's JSON does not end with its results")
        self.out, self.first = out, True
        out.write(redact(head[: -len(_EMPTY)]) + '\n  "results": [')

    def add(self, result: CaseResult) -> None:
        text = result.model_dump_json(indent=2).replace("\n", "\n    ")
        self.out.write(("\n    " if self.first else ",\n    ") + redact(text))
        self.first = False

    def close(self) -> None:
        self.out.write("]\n}\n" if self.first else "\n  ]\n}\n")


@renderers.register("json")
class JsonRenderer(StreamingRenderer):
    """The full run report as JSON: every section and every result."""

    format = "json"
    filename = "report.json"

    def open_sink(self, report: Report, out: TextIO) -> JsonSink:
        return JsonSink(report, out)
