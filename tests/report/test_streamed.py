"""A report built by the streaming pass over a store: the same files as a report held in memory."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pydantic import ValidationError
from tests.report.synthetic import make_results

from failproof.core import Run
from failproof.report import (
    HtmlRenderer,
    Report,
    build_report,
    build_report_streaming,
    exit_code,
    renderers,
    write_reports,
)
from failproof.report._html_pages import PAGE_SIZE
from failproof.report._json import JsonRenderer
from failproof.report._junit import JUnitRenderer
from failproof.report._markdown import MarkdownRenderer
from failproof.store import Store, StoredResults


def stored_run(path: Path, n: int, samples: int = 1) -> Path:
    """A store with run ``r1`` of ``n`` synthetic results (added in reverse key order)."""
    with Store(path) as store:
        store.create_run(Run(id="r1", target={"name": "mock"}, suites=["s"]))
        for result in reversed(make_results(n, seed=1, samples=samples)):
            store.add_result("r1", result)
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return stored_run(tmp_path_factory.mktemp("streamed") / "results.db", 150, samples=2)


def both(db: Path) -> tuple:
    with Store(db) as store:
        streamed = build_report_streaming(store, "r1", chunk=17)
        held = build_report(store.get_run("r1"), list(store.results("r1")))
    # the clock readings of the two builds differ; everything else must not
    same_clock = {"generated_at": streamed.generated_at, "safe_v0": streamed.safe_v0}
    assert held.safe_v0 is not None
    assert held.safe_v0.model_copy(update={"generated_at": None}) == streamed.safe_v0.model_copy(
        update={"generated_at": None}
    )
    return streamed, held.model_copy(update=same_clock)


def test_a_streamed_report_holds_no_result_but_reads_them_all(db: Path) -> None:
    streamed, held = both(db)
    assert streamed.source is not None
    assert "results" not in vars(streamed.source)
    assert streamed.case_count == len(held.results) == 300
    assert [r.key for r in streamed.cases()] == [r.key for r in held.results]


def test_a_streamed_reports_results_field_is_the_stores_sequence_and_dumps_as_the_list(
    db: Path,
) -> None:
    streamed, held = both(db)
    assert isinstance(streamed.results, StoredResults) and streamed.source is streamed.results
    assert held.source is None and isinstance(held.results, list)
    assert streamed.model_dump(mode="json")["results"] == held.model_dump(mode="json")["results"]
    again = Report.model_validate_json(streamed.model_dump_json())
    assert isinstance(again.results, list) and again.results == held.results


def test_a_report_refuses_results_that_are_neither_a_list_nor_the_stores() -> None:
    with pytest.raises(ValidationError, match="results"):
        Report(run=Run(id="r", target={}), results=({"case_id": 1},))


@pytest.mark.parametrize(
    "renderer",
    [
        pytest.param(JsonRenderer, id="json"),
        pytest.param(JUnitRenderer, id="junit"),
        pytest.param(MarkdownRenderer, id="markdown"),
        pytest.param(HtmlRenderer, id="html"),
    ],
)
def test_every_format_of_a_streamed_report_equals_the_one_held_in_memory(
    db: Path, renderer: type
) -> None:
    streamed, held = both(db)
    assert renderer().render(streamed) == renderer().render(held)


def test_the_console_and_the_exit_code_agree(db: Path) -> None:
    streamed, held = both(db)
    console = renderers.get("console")
    assert console().render(streamed) == console().render(held)
    assert exit_code(streamed) == exit_code(held)


def test_report_json_is_written_case_by_case_and_reads_back(db: Path, tmp_path: Path) -> None:
    streamed, held = both(db)
    written = write_reports(streamed, ["json", "junit"], tmp_path)
    data = json.loads((tmp_path / "report.json").read_text())
    assert data == json.loads(held.model_dump_json())
    root = ET.parse(tmp_path / "junit.xml").getroot()
    assert int(root.get("tests", 0)) == len(list(root.iter("testcase"))) == 300
    assert sorted(p.name for p in written) == ["junit.xml", "report.json"]


def test_a_small_report_stays_one_file(db: Path, tmp_path: Path) -> None:
    streamed, _ = both(db)
    HtmlRenderer().write(streamed, tmp_path / "report.html")
    assert not (tmp_path / "report.cases").exists()


def test_a_large_report_pages_its_cases_beside_the_page(tmp_path: Path) -> None:
    db = stored_run(tmp_path / "big.db", PAGE_SIZE + 5)
    with Store(db) as store:
        report = build_report_streaming(store, "r1")
    (tmp_path / "report.cases").mkdir()
    (tmp_path / "report.cases" / "page-00009.js").write_text("stale")
    write_reports(report, ["json", "html", "junit", "markdown"], tmp_path)  # one pass: json, ...
    assert len(json.loads((tmp_path / "report.json").read_text())["results"]) == PAGE_SIZE + 5
    assert (tmp_path / "report.md").is_file()
    pages = sorted(p.name for p in (tmp_path / "report.cases").iterdir())
    assert pages == ["page-00001.js", "page-00002.js"]
    second = (tmp_path / "report.cases" / "page-00002.js").read_text()
    assert second.startswith("fpPage(1, {") and second.rstrip().endswith("});")
    assert json.loads(second[len("fpPage(1, ") : -len(");\n")])["offset"] == PAGE_SIZE
    page = (tmp_path / "report.html").read_text()
    assert "script-src &#39;self&#39; &#39;sha256-" in page
    data = json.loads(page.split('id="fp-data">')[1].split("</script>")[0])
    assert data["paging"] == {"pages": 2, "size": PAGE_SIZE, "total": PAGE_SIZE + 5,
                              "dir": "report.cases"}  # fmt: skip
    assert len(data["cases"]) == PAGE_SIZE  # only the first page is embedded
