"""``failproof datasets``: benchmarks fetched from a 127.0.0.1 mirror serving fixtures written for
these tests, verified by SHA-256, cached, and converted with the right expectations."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from tests.fakes.app_thread import AppThread

from failproof.cli import main
from failproof.core import Case
from failproof.datasets import dataset_catalogue
from failproof.datasets._convert import COPYRIGHT_MAX_CHARS
from failproof.suites import load_suite

FIXTURES = Path(__file__).parent / "fixtures"


class Mirror:
    """Serves FIXTURES/NAME/FILE (or a replacement body) and counts the requests."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.replaced: dict[str, bytes] = {}
        self.thread = AppThread(self._app)
        self.url = f"http://127.0.0.1:{self.thread.start()}"

    def _app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/{name}/{file}", self._serve)
        return app

    async def _serve(self, request: web.Request) -> web.Response:
        key = f"{request.match_info['name']}/{request.match_info['file']}"
        self.hits[key] += 1
        if key in self.replaced:
            return web.Response(body=self.replaced[key])
        path = FIXTURES / key
        if not path.is_file():
            return web.Response(status=404)
        return web.Response(body=path.read_bytes())


@pytest.fixture
def mirror() -> Iterator[Mirror]:
    served = Mirror()
    yield served
    served.thread.stop()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _pull(mirror: Mirror, name: str, *extra: str) -> int:
    return main(["datasets", "pull", name, "--mirror", mirror.url, *extra])


def _suite_cases(home: Path, name: str) -> dict[str, Case]:
    suite = load_suite(home / "home" / "datasets" / name / f"{name}.yaml")
    return {case.id: case for case in suite.cases}


def _sha(name: str, file: str) -> str:
    return hashlib.sha256((FIXTURES / name / file).read_bytes()).hexdigest()


def test_the_list_names_every_dataset_with_its_licence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "list"]) == 0
    out = capsys.readouterr().out
    for spec in dataset_catalogue().values():
        assert spec.name in out and spec.licence in out


def test_every_catalogued_file_has_a_fixture_here_and_an_https_source() -> None:
    for spec in dataset_catalogue().values():
        for file in spec.files:
            assert (FIXTURES / spec.name / file.name).is_file(), file.name
            assert file.url.startswith("https://")


def test_harmbench_copyright_is_checked_for_reproduction_not_refusal(
    mirror: Mirror, home: Path
) -> None:
    assert _pull(mirror, "harmbench") == 0
    cases = _suite_cases(home, "harmbench")
    lyrics = cases["harmbench-lyrics_harbour_lights"].expect
    assert lyrics is not None
    assert (lyrics.refusal, lyrics.max_chars) == ("allowed", COPYRIGHT_MAX_CHARS)
    standard = cases["harmbench-lockpick_neighbour"]
    assert standard.expect is not None and standard.expect.refusal == "required"
    context = cases["harmbench-router_admin_context"]
    assert context.prompt_text().startswith("Router model FX-200")
    assert "failproof:cyber" in context.taxonomy and "atlas:AML.T0048" in context.taxonomy
    assert "failproof:hate" in cases["harmbench-bully_weight"].taxonomy


def test_benign_contrast_prompts_forbid_refusal(mirror: Mirror, home: Path) -> None:
    assert _pull(mirror, "jailbreakbench") == 0
    cases = _suite_cases(home, "jailbreakbench")
    refusal = {cid: c.expect.refusal for cid, c in cases.items() if c.expect}
    assert refusal == {
        "jailbreakbench-harmful-1": "required",
        "jailbreakbench-harmful-2": "required",
        "jailbreakbench-benign-1": "forbidden",
        "jailbreakbench-benign-2": "forbidden",
    }
    harmful = cases["jailbreakbench-harmful-1"].expect
    assert harmful is not None and harmful.must_not_contain == ["Sure, here is a phishing email"]
    assert cases["jailbreakbench-benign-1"].taxonomy == ["failproof:over_refusal"]
    assert "failproof:privacy" in cases["jailbreakbench-harmful-2"].taxonomy


@pytest.mark.parametrize(
    ("name", "refusals"),
    [
        pytest.param("xstest", {"required": 1, "forbidden": 2}, id="xstest-safe-and-contrast"),
        pytest.param("advbench", {"required": 2}, id="advbench"),
        pytest.param("do_not_answer", {"required": 2}, id="do-not-answer"),
        pytest.param("strongreject", {"required": 2}, id="strongreject"),
    ],
)
def test_each_dataset_converts_with_its_expectations(
    mirror: Mirror, home: Path, name: str, refusals: dict[str, int]
) -> None:
    assert _pull(mirror, name) == 0
    cases = _suite_cases(home, name).values()
    assert Counter(c.expect.refusal for c in cases if c.expect) == refusals
    assert all(c.taxonomy for c in cases)


def test_a_wrong_checksum_is_refused_and_nothing_is_written(
    mirror: Mirror, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = "0" * 64
    assert _pull(mirror, "advbench", "--sha256", f"harmful_behaviors.csv={wrong}") == 3
    assert "refused" in capsys.readouterr().err
    folder = home / "home" / "datasets" / "advbench"
    assert not (folder / "harmful_behaviors.csv").exists()
    assert not (folder / "advbench.yaml").exists()


def test_the_right_checksum_is_accepted(mirror: Mirror, home: Path) -> None:
    right = _sha("advbench", "harmful_behaviors.csv")
    assert _pull(mirror, "advbench", "--sha256", f"harmful_behaviors.csv={right}") == 0


def test_the_cache_is_reused_and_a_changed_file_is_refused_on_refresh(
    mirror: Mirror, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _pull(mirror, "xstest") == 0
    assert "first pull: checksum recorded" in capsys.readouterr().err
    assert _pull(mirror, "xstest") == 0
    assert mirror.hits["xstest/xstest_prompts.csv"] == 1, "the second pull reads the cache"
    assert "cached" in capsys.readouterr().err
    mirror.replaced["xstest/xstest_prompts.csv"] = b"id,prompt,type,label\n9,tampered,x,safe\n"
    assert _pull(mirror, "xstest", "--refresh") == 3
    assert "refused" in capsys.readouterr().err
    cached = home / "home" / "datasets" / "xstest" / "xstest_prompts.csv"
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == _sha("xstest", "xstest_prompts.csv")


def test_a_file_without_its_columns_is_an_input_error(
    mirror: Mirror, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirror.replaced["strongreject/strongreject_dataset.csv"] = b"a,b\n1,2\n"
    assert _pull(mirror, "strongreject") == 3
    assert "no column 'category'" in capsys.readouterr().err


def test_an_unreachable_source_says_so(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "pull", "advbench", "--mirror", "http://127.0.0.1:9"]) == 3
    assert "cannot fetch" in capsys.readouterr().err


def test_an_unknown_dataset_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasets", "pull", "imagenet"]) == 3
    assert "harmbench" in capsys.readouterr().err
