"""Renderers: one interface, a format-to-renderer table, and writing reports to disk."""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Protocol, TextIO

from failproof.core import CaseResult
from failproof.errors import ConfigError
from failproof.guard import atomic_write_text, redact
from failproof.guard._files import atomic_writer
from failproof.registry import Registry

if TYPE_CHECKING:  # naming the formats loads no report model
    from failproof.report._model import Report

__all__ = [
    "CaseSink",
    "Renderer",
    "StreamingRenderer",
    "parse_formats",
    "renderers",
    "write_reports",
]


class CaseSink(Protocol):
    """A file written one case at a time, finished by `close`."""

    def add(self, result: CaseResult) -> None: ...
    def close(self) -> None: ...


class Renderer(ABC):
    """Turns a `Report` into one output format. Renderers compute nothing new."""

    format: ClassVar[str]
    filename: ClassVar[str]  # default file name in the output folder ('' = terminal only)

    @abstractmethod
    def render(self, report: Report) -> str:
        """The report in this format."""

    def sink(self, report: Report, path: Path, files: ExitStack) -> CaseSink | None:  # noqa: ARG002
        """A writer of ``path`` fed the cases one at a time (`write_reports` feeds every sink in
        one pass over a streamed report), its files entered on ``files``; None: use `write`."""
        return None

    def write(self, report: Report, path: Path) -> None:
        """Write the report to ``path`` in one step, every secret redacted. Renderers whose
        files grow with the cases override this to write them in parts."""
        atomic_write_text(path, redact(self.render(report)))


class StreamingRenderer(Renderer):
    """A renderer whose output grows with the cases: one `CaseSink` writes it, case by case,
    to a string (`render`), a file (`write`) or alongside other files (`sink`)."""

    @abstractmethod
    def open_sink(self, report: Report, out: TextIO) -> CaseSink:
        """The writer of this format into ``out``."""

    def cases(self, report: Report) -> Iterable[CaseResult]:
        """The cases in the order the format writes them."""
        return report.cases()

    def render(self, report: Report) -> str:
        out = io.StringIO()
        self._fill(report, out)
        return out.getvalue()

    def write(self, report: Report, path: Path) -> None:
        with atomic_writer(path) as out:
            self._fill(report, out)

    def sink(self, report: Report, path: Path, files: ExitStack) -> CaseSink | None:
        return self.open_sink(report, files.enter_context(atomic_writer(path)))

    def _fill(self, report: Report, out: TextIO) -> None:
        sink = self.open_sink(report, out)
        for result in self.cases(report):
            sink.add(result)
        sink.close()


renderers: Registry[type[Renderer]] = Registry("renderer")


def parse_formats(value: str | Sequence[str]) -> list[str]:
    """``"json"``, ``"json,html"`` or ``"all"`` -> known format names, in the order given."""
    items = value.split(",") if isinstance(value, str) else list(value)
    names = [item.strip().lower() for item in items if item.strip()]
    if not names:
        raise ConfigError(
            f"no report format in {value!r}",
            hint="choose from " + ", ".join([*renderers.names(), "all"]),
        )
    if "all" in names:
        return renderers.names()
    names = ["markdown" if n == "md" else n for n in names]
    unknown = [n for n in names if n not in renderers]
    if unknown:
        raise ConfigError(
            f"unknown report format {unknown[0]!r}",
            hint="choose from " + ", ".join([*renderers.names(), "all"]),
        )
    return list(dict.fromkeys(names))


def write_reports(
    report: Report, formats: Sequence[str], output: Path, *, folder: bool = False
) -> list[Path]:
    """Write each file format into ``output``.

    ``output`` is a file when exactly one format is asked for (unless ``folder`` is set, as it is
    for the default output location), and a folder otherwise; a folder gets no file of a
    terminal-only format (console), a file asked for it gets its plain text. Each file is
    replaced in one step (a killed run leaves the previous report, never half of one), with every
    secret redacted. A streamed report's files that grow with the cases (JSON, JUnit, HTML pages)
    are written in one pass over the store together.
    """
    single = len(formats) == 1 and not folder
    file_formats = list(formats) if single else [f for f in formats if renderers.get(f).filename]
    written: list[Path] = []
    with ExitStack() as files:
        sinks: list[CaseSink] = []
        for name in file_formats:
            renderer = renderers.get(name)()
            path = output if single else output / renderer.filename
            sink = renderer.sink(report, path, files) if report.source is not None else None
            if sink is None:
                renderer.write(report, path)
            else:
                sinks.append(sink)
            written.append(path)
        if sinks:
            for result in report.cases():
                for sink in sinks:
                    sink.add(result)
            for sink in sinks:
                sink.close()
    return written
