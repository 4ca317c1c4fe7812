"""The case data embedded in the HTML report: compact, complete, and inert inside <script>."""

from __future__ import annotations

import json

import pytest
from tests.report.synthetic import SYSTEM, make_report

from failproof.report import Report
from failproof.report._html_data import FIELDS, OUTPUT_LIMIT, case_payload, script_json


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        pytest.param("</script>", "\\u003c/script\\u003e", id="closing-script-tag"),
        pytest.param("<!--", "\\u003c!--", id="html-comment"),
        pytest.param("a & b", "a \\u0026 b", id="ampersand"),
        pytest.param("\u2028\u2029", "\\u2028\\u2029", id="js-line-separators"),
        pytest.param("\ud800", "\\ud800", id="lone-surrogate"),
    ],
)
def test_script_json_escapes_what_could_end_the_element(text: str, escaped: str) -> None:
    out = script_json({"v": text})
    assert escaped in out
    assert json.loads(out) == {"v": text}


def test_non_finite_numbers_become_null() -> None:
    assert json.loads(script_json({"a": float("nan"), "b": [float("inf"), 1.5]})) == {
        "a": None,
        "b": [None, 1.5],
    }


def _decoded(payload: dict, row: list) -> dict:
    strings = payload["strings"]
    out = {}
    for (name, kind), value in zip(payload["fields"].items(), row, strict=True):
        if kind == "e":
            out[name] = payload["enums"][name][value]
        elif kind == "s":
            out[name] = None if value is None else strings[value]
        elif kind == "ls":
            out[name] = [strings[v] for v in value]
        elif kind == "lls":
            out[name] = [[None if v is None else strings[v] for v in item] for item in value]
        else:
            out[name] = value
    return out


def test_each_row_decodes_to_its_result(report: Report) -> None:
    payload = case_payload(report)
    assert list(payload["fields"]) == list(FIELDS)
    for result, row in zip(report.results, payload["cases"], strict=True):
        case = _decoded(payload, row)
        assert (case["id"], case["suite"], case["cls"]) == (
            result.case_id,
            result.suite,
            result.primary,
        )
        assert case["output"] == result.output
        assert case["msgs"] == [[m.role, m.content] for m in result.messages]


def test_repeated_text_is_stored_once(report: Report) -> None:
    assert case_payload(report)["strings"].count(SYSTEM) == 1


def test_long_outputs_are_cut_and_their_length_kept() -> None:
    report = make_report(3, outputs=["x" * (OUTPUT_LIMIT + 10)])
    payload = case_payload(report)
    case = _decoded(payload, payload["cases"][0])
    assert (len(case["output"]), case["outlen"]) == (OUTPUT_LIMIT, OUTPUT_LIMIT + 10)


def test_scatter_points_land_on_their_cases(report: Report) -> None:
    payload = case_payload(report)
    names = list(payload["fields"])
    x, cluster = names.index("x"), names.index("cluster")
    for point in report.observability.points[:10]:
        i = next(
            i
            for i, r in enumerate(report.results)
            if (r.suite, r.case_id) == (point.suite, point.case_id)
        )
        assert payload["cases"][i][x] == round(point.scatter_x, 4)
        assert payload["cases"][i][cluster] == point.cluster


def test_matched_signals_keep_their_offsets(report: Report) -> None:
    payload = case_payload(report)
    signals = list(payload["fields"]).index("signals")
    for result, row in zip(report.results, payload["cases"], strict=True):
        for kind, _label, start, end in row[signals]:
            assert kind == "unsafe"
            assert result.output[start:end] == "ZX-CANARY-7731"


def test_the_body_sent_replaces_the_case_messages_when_a_target_built_one() -> None:
    report = make_report(2)
    body = '{"question": "hello"}'
    sent = report.results[0].model_copy(update={"request_body": body, "messages": []})
    report = report.model_copy(update={"results": [sent, *report.results[1:]]})
    payload = case_payload(report)
    first, second = (_decoded(payload, row) for row in payload["cases"][:2])
    assert (first["sent"], first["msgs"]) == (body, [])
    assert second["sent"] is None and second["msgs"]
