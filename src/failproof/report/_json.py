"""The JSON run report, written case by case: the cases are never one object in memory."""

from __future__ import annotations

import os
from functools import cache
from typing import BinaryIO, TextIO

from pydantic import TypeAdapter

from failproof.core import CaseResult
from failproof.guard import redact
from failproof.guard._secrets import a_secret_holds, knows_secrets
from failproof.report._model import Report
from failproof.report._render import StreamingRenderer, renderers

__all__ = ["JsonRenderer", "JsonSink"]

_EMPTY = '\n  "results": []\n}'
#: Results serialised together (`batch_json`): one call into the serialiser for each batch.
BATCH = 256
#: What the serialiser writes around a batch at the depth the report's results sit.
_OPEN, _CLOSE = b'{\n  "results": [', b"\n  ]\n}"


@cache
def _results_json() -> TypeAdapter[dict[str, list[CaseResult]]]:
    return TypeAdapter(dict[str, list[CaseResult]])


def batch_json(results: list[CaseResult]) -> bytes:
    """The results as the report's ``results`` list holds them, each one on its lines (two
    levels in, as ``report.model_dump_json(indent=2)`` writes it), joined by commas: the same
    bytes as each one's ``model_dump_json(indent=2)`` indented four spaces after a newline."""
    text = _results_json().serializer.to_json({"results": results}, indent=2)
    if not (text.startswith(_OPEN) and text.endswith(_CLOSE)):
        raise ValueError("the results' JSON is not the list the report holds")
    return text[len(_OPEN) : -len(_CLOSE)]


def _raw(out: TextIO) -> BinaryIO | None:
    """The UTF-8 bytes under ``out`` where the text can go there unchanged: no secret to
    redact, and no newline for the text layer to translate. None: write text."""
    raw: BinaryIO | None = getattr(out, "buffer", None)
    encoding = str(getattr(out, "encoding", "")).lower().replace("-", "").replace("_", "")
    if raw is None or encoding != "utf8" or os.linesep != "\n" or knows_secrets():
        return None
    return raw


class JsonSink:
    """``report.model_dump_json(indent=2)`` written to ``out`` one case at a time (the same text
    as dumping the report whole), each part redacted; the closing brackets at `close`.

    The cases are serialised `BATCH` at a time. Where nothing is redacted they go straight to
    the file's bytes; otherwise each batch is redacted as one text, which gives what redacting
    each case alone does: every case's JSON starts with ``{`` and ends with ``}``, which no form
    of a secret without them can match, so no match runs from one case into the next (or into
    the commas and spaces between). Where a secret holds a brace, each case is serialised,
    redacted and written alone."""

    def __init__(self, report: Report, out: TextIO) -> None:
        head = report.model_copy(update={"results": []}).model_dump_json(indent=2)
        if not head.endswith(_EMPTY):
            raise ValueError("the report's JSON does not end with its results")
        self.out, self.first = out, True
        self.raw = _raw(out)
        self.batch: list[CaseResult] = []
        out.write(redact(head[: -len(_EMPTY)]) + '\n  "results": [')

    def add(self, result: CaseResult) -> None:
        self.batch.append(result)
        if len(self.batch) == BATCH:
            self._flush()

    def _text(self, result: CaseResult) -> None:
        text = result.model_dump_json(indent=2).replace("\n", "\n    ")
        self.out.write(("\n    " if self.first else ",\n    ") + redact(text))
        self.first = False

    def _flush(self) -> None:
        batch, self.batch = self.batch, []
        if not batch:
            return
        if self.raw is not None and not knows_secrets():
            self.out.flush()  # the text written so far goes before these bytes
            self.raw.write(batch_json(batch) if self.first else b"," + batch_json(batch))
        elif a_secret_holds("{}"):
            for result in batch:
                self._text(result)
        else:
            self._redacted_batch(batch)
        self.first = False

    def _redacted_batch(self, batch: list[CaseResult]) -> None:
        try:
            text = batch_json(batch).decode("utf-8")
        except ValueError:  # text JSON cannot carry (lone surrogates): each case meets it alone
            for result in batch:
                self._text(result)
            return
        self.out.write(redact(text) if self.first else "," + redact(text))

    def close(self) -> None:
        self._flush()
        self.out.write("]\n}\n" if self.first else "\n  ]\n}\n")


@renderers.register("json")
class JsonRenderer(StreamingRenderer):
    """The full run report as JSON: every section and every result."""

    format = "json"
    filename = "report.json"

    def open_sink(self, report: Report, out: TextIO) -> JsonSink:
        return JsonSink(report, out)
