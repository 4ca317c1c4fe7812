"""The JSON run report, written case by case: the cases are never one object in memory."""

from __future__ import annotations

import io
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

from failproof.core import CaseResult
from failproof.guard import atomic_writer, redact
from failproof.report._model import Report
from failproof.report._render import Renderer, renderers

__all__ = ["JsonRenderer", "JsonSink", "write_json"]

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


def write_json(report: Report, out: TextIO) -> None:
    """The JSON report of ``report`` written to ``out`` case by case."""
    sink = JsonSink(report, out)
    for result in report.cases():
        sink.add(result)
    sink.close()


@renderers.register("json")
class JsonRenderer(Renderer):
    """The full run report as JSON: every section and every result."""

    format = "json"
    filename = "report.json"

    def render(self, report: Report) -> str:
        out = io.StringIO()
        write_json(report, out)
        return out.getvalue()

    def write(self, report: Report, path: Path) -> None:
        with atomic_writer(path) as out:
            write_json(report, out)

    def sink(self, report: Report, path: Path, files: ExitStack) -> JsonSink:
        return JsonSink(report, files.enter_context(atomic_writer(path)))
