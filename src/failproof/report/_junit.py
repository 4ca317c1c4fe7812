"""JUnit XML for CI: one testcase per case, grouped by suite, failures carrying class and reasons.

A case that fails (by any scorer) is a ``<failure>`` typed by its class; a target error is an
``<error>``; a case no scorer judged is ``<skipped>``. Text that XML 1.0 cannot hold (control
characters, lone surrogates) is written as a visible ``\\uXXXX`` escape, so the file always parses.
"""

from __future__ import annotations

import codecs
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any, TextIO

from failproof.core import CaseResult
from failproof.core._case_verdict import unscored_reason
from failproof.guard import redact
from failproof.metrics import Summary
from failproof.render._text import xml_text
from failproof.report._model import Report
from failproof.report._present.judge import decided_note
from failproof.report._render import StreamingRenderer, renderers
from failproof.report._verdict import case_verdict

__all__ = ["JUnitRenderer", "JUnitSink"]

_TEXT_LIMIT = 4000
#: Bytes of testcases kept in memory before they go to a temporary file (a run's cases are
#: written only once the totals are known).
SPILL_IN_MEMORY = 32 << 20


def _run_properties(summary: Summary) -> list[tuple[str, object]]:
    return [
        ("pass_rate", summary.pass_rate),
        ("errors", summary.errors),
        ("unanswered", summary.unanswered),
        ("unsupported", summary.unsupported),
        ("overall_run_score", summary.overall_run_score),
        ("weighted_run_score", summary.weighted_run_score),
        ("penalty_score", summary.penalty_score),
    ]


def _element(parent: ET.Element, tag: str, text: str | None = None, **attrs: Any) -> ET.Element:
    node = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items() if v is not None})
    if text:
        node.text = xml_text(text)
    return node


def _failure_type(result: CaseResult) -> str:
    if result.classification is not None and result.classification.primary != "pass":
        return result.classification.primary
    if result.safe_v0 is not None and result.safe_v0.label == "Fail":
        return "safe_v0_fail"
    return "risk_gate"


def _details(result: CaseResult) -> tuple[str, str]:
    """The failure's one-line message and its body: every reason, then the output."""
    reasons = result.classification.reasons if result.classification else []
    lines = [f"{r.rule}: {r.detail}" + (f" [{r.evidence}]" if r.evidence else "") for r in reasons]
    if lines and result.classification is not None and decided_note(result):
        found = result.classification
        lines[0] = decided_note(result) + lines[0]
        lines.append(f"decided by {found.decided_by}: {found.decided_why}")
    if result.safe_v0 is not None:
        scores = result.safe_v0.scores.model_dump()
        label = result.safe_v0.label
        lines.append(f"SAFE v0 {label}: " + ", ".join(f"{k} {v}" for k, v in scores.items()))
    if result.case_score is not None:
        cs = result.case_score
        lines.append(f"risk {cs.risk_score} (weighted {cs.weighted_risk})")
    message = lines[0] if lines else result.primary
    output = (
        result.output
        if len(result.output) <= _TEXT_LIMIT
        else (
            f"{result.output[:_TEXT_LIMIT]}… [{len(result.output) - _TEXT_LIMIT:,} more characters]"
        )
    )
    body = "\n".join([*lines, "", "output:", output])
    return message, body


def _attribute(value: str) -> str:
    """An attribute value escaped as `xml.etree.ElementTree` writes it (newlines and tabs as
    character references, so they survive the parser's normalisation)."""
    for char, entity in _ATTRIBUTE_ENTITIES:
        if char in value:
            value = value.replace(char, entity)
    return value


def _plain(text: str, special: bytes) -> bool:
    """Whether ``text`` is ASCII without any of the ``special`` characters (nothing to escape)."""
    return text.isascii() and len(text.encode("ascii").translate(None, special)) == len(text)


#: What XML 1.0 forbids in ASCII (`xml_text`): the C0 controls but tab, newline, return.
_CONTROLS = bytes(c for c in range(0x20) if c not in b"\t\n\r")
_NOT_PLAIN_TEXT = _CONTROLS + b"&<>"
_NOT_PLAIN_VALUE = _CONTROLS + b'&<>"\r\n\t'


def _value(value: object) -> str:
    """An attribute value escaped (`xml_text`, then `_attribute`)."""
    text = "" if value is None else str(value)
    return text if _plain(text, _NOT_PLAIN_VALUE) else _attribute(xml_text(text))


def _body(text: str) -> str:
    """Character data escaped (`xml_text`, then ``&``, ``<``, ``>``)."""
    if _plain(text, _NOT_PLAIN_TEXT):
        return text
    return xml_text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _tag(tag: str, text: str | None = None, **attrs: object) -> str:
    """One element with no children, written as `xml.etree.ElementTree` would write it."""
    pairs = "".join([f' {k}="{_value(v)}"' for k, v in attrs.items() if v is not None])
    if not text:
        return f"<{tag}{pairs} />"
    return f"<{tag}{pairs}>{_body(text)}</{tag}>"


_ATTRIBUTE_ENTITIES = (
    ("&", "&amp;"),
    ("<", "&lt;"),
    (">", "&gt;"),
    ('"', "&quot;"),
    ("\r", "&#13;"),
    ("\n", "&#10;"),
    ("\t", "&#09;"),
)


def _outcome(result: CaseResult) -> tuple[str, str | None]:
    """Which of failure / error / skipped (or 'pass') the case is, and that element."""
    verdict = case_verdict(result)
    if result.unsupported is not None:  # not run: skipped with the reason, never a pass
        why = result.unsupported
        return "skipped", _tag("skipped", type=f"unsupported:{why.feature}", message=why.reason)
    unscored = unscored_reason(result)
    if unscored is not None:
        return "error", _tag("error", _details(result)[1], type="unscored", message=unscored)
    if result.primary == "error":
        message, body = _details(result)
        return "error", _tag("error", body, type="error", message=result.error or message)
    if verdict == "fail":
        message, body = _details(result)
        return "failure", _tag("failure", body, type=_failure_type(result), message=message)
    if result.primary == "unscored" and result.case_score is None and result.safe_v0 is None:
        return "skipped", _tag("skipped", message="unscored: no scorer judged this case")
    if verdict == "review":
        return "pass", _tag("system-out", _details(result)[1])
    return "pass", None


def _testcase(result: CaseResult) -> tuple[str, str]:
    """The case's outcome and its ``<testcase>``, indented as it sits in its testsuite."""
    name = result.case_id if result.sample == 0 else f"{result.case_id}#{result.sample}"
    seconds = f"{result.latency_ms / 1000:.3f}" if result.latency_ms is not None else "0"
    classname = f"{result.suite}.{result.category}"
    outcome, inner = _outcome(result)
    # what _tag("testcase", name=..., classname=..., time=seconds) writes; the time is a number
    case = f'<testcase name="{_value(name)}" classname="{_value(classname)}" time="{seconds}"'
    if inner is None:
        return outcome, case + " />"
    return outcome, f"{case}>\n      {inner}\n    </testcase>"


def _properties(parent: ET.Element, report: Report, suite: str) -> None:
    props = _element(parent, "properties")
    row = report.suites.get(suite)
    metrics = report.aggregate_metrics
    composite = metrics.composite if metrics else None
    values: list[tuple[str, object]] = [
        ("run_id", report.run.id),
        ("target", report.run.target.get("name")),
        *_run_properties(report.summary),
        ("suite_score", row.score if row else None),
        ("suite_weight", row.weight if row else None),
        ("resilience_index", composite.resilience_index if composite else None),
        ("exposure_index", composite.exposure_index if composite else None),
    ]
    for name, value in values:
        if value is not None and not isinstance(value, Mapping | list):
            _element(props, "property", name=name, value=value)


class _SuiteWriter:
    """One ``<testsuite>`` written case by case: its cases go to the sink's spill file (UTF-8),
    its opening tag (which carries the counts) is made once the suite's last case is seen."""

    def __init__(self, report: Report, name: str, spill: IO[bytes]) -> None:
        self.report, self.name, self.spill = report, name, spill
        self.start = spill.tell()
        self.counts = {"tests": 0, "failure": 0, "error": 0, "skipped": 0}
        self.seconds = 0.0

    def add(self, result: CaseResult) -> None:
        outcome, case = _testcase(result)
        self.counts["tests"] += 1
        self.counts[outcome] = self.counts.get(outcome, 0) + 1
        self.seconds += (result.latency_ms or 0) / 1000
        self.spill.write(("\n    " + redact(case)).encode("utf-8"))

    def close(self) -> _Suite:
        node = _element(
            ET.Element("x"),
            "testsuite",
            name=self.name,
            timestamp=self.report.run.started_at.isoformat(),
        )
        node.attrib.update(
            tests=str(self.counts["tests"]),
            failures=str(self.counts["failure"]),
            errors=str(self.counts["error"]),
            skipped=str(self.counts["skipped"]),
            time=f"{self.seconds:.3f}",
        )
        _properties(node, self.report, self.name)
        ET.indent(node, level=1)
        opening = ET.tostring(node, encoding="unicode")
        opening = opening[: opening.rindex("</testsuite>")].rstrip()
        totals = {**self.counts, "seconds": round(self.seconds * 1000)}
        return _Suite(redact(opening), self.start, self.spill.tell(), totals)


@dataclass(frozen=True)
class _Suite:
    """A written suite: its opening tag, where its cases lie in the spill file, its totals."""

    opening: str
    start: int
    end: int
    totals: dict[str, int]


def _copy(spill: IO[bytes], start: int, end: int, out: TextIO) -> None:
    """The spill file's bytes ``start:end`` written to ``out`` as text."""
    spill.seek(start)
    decoder = codecs.getincrementaldecoder("utf-8")()
    left = end - start
    while left > 0:
        chunk = spill.read(min(left, _COPY_CHUNK))
        left -= len(chunk)
        out.write(decoder.decode(chunk, final=left <= 0 or not chunk))
        if not chunk:
            break


_COPY_CHUNK = 1 << 20


def _by_suite(report: Report) -> Iterator[CaseResult]:
    """The cases with each suite's together: a streamed report's are (key order); a report's
    list is grouped by suite in the order suites first appear."""
    if report.source is not None:
        yield from report.cases()
        return
    groups: dict[str, list[CaseResult]] = {}
    for result in report.results:
        groups.setdefault(result.suite, []).append(result)
    for group in groups.values():
        yield from group


class JUnitSink:
    """The JUnit XML of ``report`` written to ``out`` one case at a time (cases of a suite come
    together): the cases go to one spill file; the testsuites' element, which carries the
    totals, then each suite's opening tag and its cases are written at `close`."""

    def __init__(self, report: Report, out: TextIO) -> None:
        self.report, self.out = report, out
        # the cases, closed in `close`
        spill = tempfile.SpooledTemporaryFile(SPILL_IN_MEMORY, "w+b")  # noqa: SIM115
        self.spill: IO[bytes] = spill
        self.suites: list[_Suite] = []
        self.suite: _SuiteWriter | None = None

    def add(self, result: CaseResult) -> None:
        if self.suite is None or self.suite.name != result.suite:
            if self.suite is not None:
                self.suites.append(self.suite.close())
            self.suite = _SuiteWriter(self.report, result.suite, self.spill)
        self.suite.add(result)

    def close(self) -> None:
        if self.suite is not None:
            self.suites.append(self.suite.close())
        totals = [suite.totals for suite in self.suites]
        root = ET.Element("testsuites", name=xml_text(f"failproof {self.report.run.id}"))
        root.attrib.update(
            tests=str(sum(t["tests"] for t in totals)),
            failures=str(sum(t["failure"] for t in totals)),
            errors=str(sum(t["error"] for t in totals)),
            skipped=str(sum(t["skipped"] for t in totals)),
            time=f"{sum(t['seconds'] for t in totals) / 1000:.3f}",
        )
        opening = redact(ET.tostring(root, encoding="unicode"))
        head = '<?xml version="1.0" encoding="UTF-8"?>\n'
        if not totals:
            self.out.write(f"{head}{opening}\n")
        else:
            self.out.write(head + opening[: -len(" />")] + ">")
            self._suites()
            self.out.write("\n</testsuites>\n")
        self.spill.close()

    def _suites(self) -> None:
        self.spill.flush()
        for suite in self.suites:
            self.out.write("\n  " + suite.opening)
            _copy(self.spill, suite.start, suite.end, self.out)
            self.out.write("\n  </testsuite>")


@renderers.register("junit")
class JUnitRenderer(StreamingRenderer):
    """JUnit XML: testsuites / testsuite per suite / testcase per case, for CI test views."""

    format = "junit"
    filename = "junit.xml"

    def open_sink(self, report: Report, out: TextIO) -> JUnitSink:
        return JUnitSink(report, out)

    def cases(self, report: Report) -> Iterator[CaseResult]:
        return _by_suite(report)
