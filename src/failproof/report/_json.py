"""The JSON run report, written case by case: the cases are never one object in memory."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TextIO

from failproof.guard import atomic_writer, redact
from failproof.report._model import Report
from failproof.report._render import Renderer, renderers

__all__ = ["JsonRenderer", "write_json"]

_EMPTY = '\n  "results": []\n}'


def write_json(report: Report, out: TextIO) -> None:
    """``report.model_dump_json(indent=2)`` written to ``out`` with each case dumped as it is
    read (the same text as dumping the report whole), each part redacted."""
    head = report.model_copy(update={"results": []}).model_dump_json(indent=2)
    if not head.endswith(_EMPTY):
        raise ValueError("the report's JSON does not end with its results")
    out.write(redact(head[: -len(_EMPTY)]) + '\n  "results": [')
    first = True
    for result in report.cases():
        text = result.model_dump_json(indent=2).replace("\n", "\n    ")
        out.write(("\n    " if first else ",\n    ") + redact(text))
        first = False
    out.write("]\n}\n" if first else "\n  ]\n}\n")


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
