"""Where the SAFE v0 report goes: the console, and JSON / Markdown files.

``--output`` is a file when one format is asked for, a folder otherwise; without it the files go
to the report folder (``SAFE_V0_REPORT_DIR``, default ``./reports``) as
``SAFE_v0_<concern_id>_<timestamp>.json`` / ``.md``, never overwriting an earlier report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from rich.console import Console

from failproof.config._safe import REPORT_FORMATS, ReportFormat
from failproof.errors import ConfigError
from failproof.safe._console import console_text, print_console
from failproof.safe._markdown import render_markdown
from failproof.safe._report import SafeReport

__all__ = ["REPORT_EXTENSIONS", "parse_safe_formats", "report_stem", "write_outputs"]

_INDENTED_UP_TO = 10_000  # cases; larger JSON reports are written compact (4x faster)
#: The file extension of each report format.
REPORT_EXTENSIONS: dict[ReportFormat, str] = {"json": ".json", "markdown": ".md", "console": ".txt"}


def parse_safe_formats(value: str) -> tuple[ReportFormat, ...]:
    """``json``, ``console``, ``markdown`` (or ``md``), a comma list of them, or ``all``."""
    names = [part.strip().lower() for part in value.split(",") if part.strip()]
    if "all" in names:
        return REPORT_FORMATS
    names = ["markdown" if n == "md" else n for n in names]
    unknown = [n for n in names if n not in REPORT_FORMATS]
    if unknown or not names:
        raise ConfigError(
            f"unknown SAFE report format {(unknown or [value])[0]!r}",
            hint="choose json, console, markdown or all",
        )
    return tuple(dict.fromkeys(cast(list[ReportFormat], names)))


def report_stem(report: SafeReport) -> str:
    """``SAFE_v0_<concern_id>_<timestamp>`` (the concern id made safe for a file name)."""
    concern = re.sub(r"[^A-Za-z0-9._-]+", "_", report.concern_id)
    return f"SAFE_v0_{concern}_{report.generated_at.strftime('%Y%m%dT%H%M%SZ')}"


def _free(path: Path) -> Path:
    if not path.exists():
        return path
    n = 2
    while (candidate := path.with_name(f"{path.stem}_{n}{path.suffix}")).exists():
        n += 1
    return candidate


def _render(report: SafeReport, fmt: ReportFormat, verbose: bool) -> str:
    if fmt == "json":
        indent = 2 if len(report.results) <= _INDENTED_UP_TO else None
        return json.dumps(report.to_json(), indent=indent, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return render_markdown(report)
    return console_text(report, verbose=verbose)


def _write(path: Path, text: str) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the report {path}: {exc}", hint="check --output") from None
    return path


def write_outputs(
    report: SafeReport,
    formats: Sequence[ReportFormat],
    *,
    output: Path | None,
    report_dir: Path,
    console: Console,
    verbose: bool = False,
) -> list[Path]:
    """Print the console scorecard if asked and write the file formats; returns the files."""
    single_file = output is not None and len(formats) == 1
    if "console" in formats and not single_file:
        print_console(report, console, verbose=verbose)
    written: list[Path] = []
    for fmt in formats:
        if fmt == "console" and not single_file:
            continue
        if single_file and output is not None:
            path = output
        else:
            folder = output if output is not None else report_dir
            path = _free(folder / (report_stem(report) + REPORT_EXTENSIONS[fmt]))
        written.append(_write(path, _render(report, fmt, verbose)))
    return written
