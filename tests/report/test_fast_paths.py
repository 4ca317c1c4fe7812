"""The writers' fast paths write what the plain ones write: XML text with nothing to escape, the
JSON report's cases serialised in batches, HTML rows read from the attributes, cases found in the
results a process holds."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.report.hostile import PAYLOADS, hostile_report
from tests.report.synthetic import SYSTEM

from failproof.core import CaseResult, CaseScore, Run
from failproof.core._intern import Interner
from failproof.guard import add_secret, forget_secrets, redact
from failproof.render._text import xml_text
from failproof.report import Report, _junit, build_report, renderers, write_reports
from failproof.report._html_data import (
    _kv,
    _refusal_kv,
    _scalars,
    _score_kv,
    _score_scalars,
    script_json,
)
from failproof.report._html_pages import PAGE_SIZE
from failproof.report._json import _EMPTY, BATCH, JsonRenderer
from failproof.report._junit import _tag
from failproof.report._present.cases import CaseIndex
from failproof.store import Store


@pytest.mark.parametrize(
    ("text", "written"),
    [
        pytest.param("plain words & <tags>", "plain words & <tags>", id="ascii-kept"),
        pytest.param("tab\tnewline\ncr\r", "tab\tnewline\ncr\r", id="allowed-controls-kept"),
        pytest.param("nul\x00 bell\x07 esc\x1b", "nul\\u0000 bell\\u0007 esc\\u001b", id="c0"),
        pytest.param("del\x7f", "del\x7f", id="delete-is-allowed"),
        pytest.param("é\x0b", "é\\u000b", id="control-in-non-ascii"),
        pytest.param("lone \ud800 surrogate", "lone \\ud800 surrogate", id="lone-surrogate"),
        pytest.param("\ufffe\uffff", "\\ufffe\\uffff", id="non-characters"),
        pytest.param("]]> 𝐞\u2028", "]]> 𝐞\u2028", id="astral-and-separators-kept"),
        pytest.param(None, "", id="none"),
        pytest.param(12.5, "12.5", id="number"),
    ],
)
def test_xml_text_escapes_exactly_what_xml_forbids(text: object, written: str) -> None:
    assert xml_text(text) == written


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, str]]:
    """A store holding the hostile results, more of them than one batch of the JSON report and
    than one page of the HTML report's cases."""
    report = hostile_report(max(BATCH, PAGE_SIZE) + 44)
    path = tmp_path_factory.mktemp("fast") / "results.db"
    with Store(path) as store:
        store.create_run(Run(id="r1", target={"name": "mock"}, suites=["s"]))
        store.add_results("r1", list(report.results))
        yield store, "r1"


def _report(stored: tuple[Store, str], *, held: bool) -> Report:
    store, run_id = stored
    results = list(store.stream(run_id)) if held else None
    report = build_report(store.get_run(run_id), store.stream(run_id, held=results))
    when = report.run.started_at  # one clock reading for every report built
    safe = report.safe_v0 and report.safe_v0.model_copy(update={"generated_at": when.isoformat()})
    return report.model_copy(update={"generated_at": when, "safe_v0": safe})


@pytest.fixture
def secret() -> Iterator[str]:
    add_secret(SYSTEM.split()[-1].rstrip("."))
    yield SYSTEM.split()[-1].rstrip(".")
    forget_secrets()


def test_the_json_file_is_the_report_dumped_whole(stored: tuple, tmp_path: Path) -> None:
    report = _report(stored, held=True)
    write_reports(report, ["json"], tmp_path / "report.json")
    text = (tmp_path / "report.json").read_text(encoding="utf-8")
    assert text == report.model_dump_json(indent=2) + "\n" == JsonRenderer().render(report)
    assert json.dumps(PAYLOADS[1])[1:-1] in text  # the hostile outputs are in it


def test_a_known_secret_is_redacted_from_the_json_file_as_from_the_whole(
    stored: tuple, tmp_path: Path, secret: str
) -> None:
    report = _report(stored, held=True)
    write_reports(report, ["json"], tmp_path / "report.json")
    text = (tmp_path / "report.json").read_text(encoding="utf-8")
    assert secret not in text
    assert text == redact(report.model_dump_json(indent=2)) + "\n"


def test_a_secret_that_holds_a_brace_is_redacted_case_by_case_and_never_across_two(
    stored: tuple, tmp_path: Path
) -> None:
    report = _report(stored, held=True)
    separator = "},\n    {"  # what stands between two cases in the file
    add_secret(separator)
    try:
        write_reports(report, ["json"], tmp_path / "report.json")
        text = (tmp_path / "report.json").read_text(encoding="utf-8")
        head = report.model_copy(update={"results": []}).model_dump_json(indent=2)
        cases = [
            redact(r.model_dump_json(indent=2).replace("\n", "\n    ")) for r in report.cases()
        ]
        written = redact(head[: -len(_EMPTY)]) + '\n  "results": [\n    '
    finally:
        forget_secrets()
    assert text == written + ",\n    ".join(cases) + "\n  ]\n}\n"
    assert text.count(separator) >= report.case_count - 1  # never redacted across two cases


def _scores() -> list[CaseScore]:
    judged = {"label": "refusal", "score": 0.75, "reasons": ["no <b>", "x & y"]}
    harm = {"label": "harmful", "score": 0.5, "evidence": ["e"], "reasons": []}
    base = {"passed": False, "risk_score": 0.61, "severity": "high", "explanation": "why"}
    return [
        CaseScore.model_validate(base),
        CaseScore.model_validate({**base, "refusal": judged}),
        CaseScore.model_validate({**base, "refusal": judged, "harm": harm}),
        CaseScore.model_validate({**base, "harm": harm, "risk_score": float("nan")}),
        CaseScore.model_validate({**base, "newer_key": "kept", "newer_list": [1]}),
        CaseScore.model_validate({**base, "refusal": {**judged, "newer": 1}}),
    ]


@pytest.mark.parametrize("score", [pytest.param(s, id=str(i)) for i, s in enumerate(_scores())])
def test_a_case_score_row_reads_as_its_json_dump(score: CaseScore) -> None:
    fast, dumped = Interner(), Interner()
    want = _kv(_scalars(_score_scalars(score)), dumped)
    got = _score_kv(score, fast)
    assert json.dumps(got, allow_nan=True) == json.dumps(want, allow_nan=True)
    refusal = score.refusal.model_dump(mode="json") if score.refusal else None
    assert _refusal_kv(score, fast) == _kv(refusal, dumped)
    assert fast.items == dumped.items


def test_held_results_find_the_cases_the_store_finds(stored: tuple) -> None:
    held, streamed = CaseIndex(_report(stored, held=True)), CaseIndex(_report(stored, held=False))
    assert held.source is None and streamed.source is not None
    results: list[CaseResult] = list(stored[0].stream(stored[1]))
    for result in results[:: len(results) // 12]:
        for name in [
            (result.case_id, None, None),
            (result.case_id, result.suite, None),
            (result.case_id, result.suite, result.sample),
            (result.case_id, result.suite, 7),
            ("no-such-case", None, None),
        ]:
            found = held.find(*name)
            assert found == streamed.find(*name)
            if found is not None:
                assert held.result(found) == streamed.result(found)


@pytest.mark.parametrize("fmt", ["json", "junit", "html", "markdown"])
def test_a_report_of_held_results_writes_the_files_the_store_gives(
    stored: tuple, tmp_path: Path, fmt: str
) -> None:
    name = renderers.get(fmt).filename
    for held in (True, False):
        write_reports(_report(stored, held=held), [fmt], tmp_path / str(held), folder=True)
    assert (tmp_path / "True" / name).read_bytes() == (tmp_path / "False" / name).read_bytes()


def _reference_json(data: object) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return re.sub("[<>&\u2028\u2029\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param({"cases": [[1, "a<b"]], "strings": ["é </script>", "\u2028"]}, id="mixed"),
        pytest.param({"strings": ["\ud800 & ]]>"], "n": 1.5, "none": None}, id="surrogate"),
        pytest.param({}, id="empty-object"),
        pytest.param(["<!--", {"k": "&"}], id="list"),
        pytest.param({1: "<", "k": ">"}, id="number-key"),
        pytest.param({"ok": "<", "nan": [float("nan")]}, id="not-finite"),
        pytest.param(
            {"strings": ["a<b", *["x"] * 300, "é\u2028", *["&"] * 300], "cases": [[1, None]] * 600},
            id="long-lists",
        ),
        pytest.param({"strings": ["\ud800"] * 513, "more": [[]] * 257}, id="long-non-ascii"),
    ],
)
def test_script_json_is_compact_json_with_what_could_end_the_element_escaped(data: object) -> None:
    cleaned = json.loads(json.dumps(data).replace("NaN", "null"))
    assert script_json(data) == _reference_json(cleaned)


def test_a_known_secret_is_redacted_from_the_html_pages_as_from_each_whole(
    stored: tuple, tmp_path: Path, secret: str
) -> None:
    report = _report(stored, held=True)
    write_reports(report, ["html"], tmp_path / "on" / "report.html")
    forget_secrets()
    write_reports(report, ["html"], tmp_path / "off" / "report.html")
    add_secret(secret)
    pages = sorted((tmp_path / "on" / "report.cases").iterdir())
    assert len(pages) == 2
    for page in pages:
        text = page.read_text(encoding="utf-8")
        plain = (tmp_path / "off" / "report.cases" / page.name).read_text(encoding="utf-8")
        assert secret not in text and secret in plain
        assert text == redact(plain)


XML_HOSTILE = [
    pytest.param("plain words", id="plain"),
    pytest.param('a & b < c > d "q"\ttab\nnewline\rreturn', id="markup-and-whitespace"),
    pytest.param("]]> <![CDATA[ x ]]>", id="cdata-end"),
    pytest.param("nul\x00 esc\x1b[31m", id="controls"),
    pytest.param("é & \ud800 \ufffe <", id="non-ascii"),
    pytest.param("x" * 5000 + "<", id="long"),
]


@pytest.mark.parametrize("text", XML_HOSTILE)
def test_a_junit_element_is_written_as_element_tree_writes_it(text: str) -> None:
    node = ET.Element("failure", {"type": xml_text(text), "message": xml_text(text)})
    node.text = xml_text(text)
    assert _tag("failure", text, type=text, message=text) == ET.tostring(node, "unicode")
    assert _tag("skipped", message=text) == ET.tostring(
        ET.Element("skipped", {"message": xml_text(text)}), "unicode"
    )


def test_junit_cases_spilled_to_a_file_are_written_as_those_kept_in_memory(
    stored: tuple, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _report(stored, held=True)
    write_reports(report, ["junit"], tmp_path / "memory.xml")
    monkeypatch.setattr(_junit, "SPILL_IN_MEMORY", 1)  # a file from the first case on
    write_reports(report, ["junit"], tmp_path / "file.xml")
    memory = (tmp_path / "memory.xml").read_bytes()
    assert memory == (tmp_path / "file.xml").read_bytes()
    assert memory.count(b"<testcase ") == report.case_count
