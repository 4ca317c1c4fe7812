"""``failproof generate`` at the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof.cli import main
from failproof.suites import load_suite

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SUITE = ROOT / "examples" / "suites" / "support_bot.yaml"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))


def test_generate_writes_a_loadable_variants_suite_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out" / "variants.yaml"
    args = ["generate", str(EXAMPLE_SUITE), "--mutators", "typos,json_break,injection_wrap"]
    code = main([*args, "--per-case", "2", "--seed", "7", "-o", str(out)])
    assert code == 0
    suite = load_suite(out)
    assert suite.name == "support_bot_variants"
    assert {c.metadata["mutator"] for c in suite.cases} == {"typos", "json_break", "injection_wrap"}
    err = capsys.readouterr().err
    assert f"wrote {out}" in err
    assert "json_break: 2 variants, 3 cases skipped" in err


def test_generate_twice_with_one_seed_writes_identical_files(tmp_path: Path) -> None:
    texts = []
    for index in range(2):
        out = tmp_path / f"v{index}.yaml"
        assert (
            main(["generate", str(EXAMPLE_SUITE), "-m", "all", "--seed", "5", "-o", str(out)]) == 0
        )
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]


def test_generate_accepts_a_builtin_suite_name(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    assert main(["generate", "injection", "-m", "base64", "--name", "b64", "-o", str(out)]) == 0
    assert load_suite(out).name == "b64"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["-m", "nope"], "unknown mutator 'nope'", id="unknown-mutator"),
        pytest.param(["-m", "typos", "--per-case", "0"], "", id="per-case-zero"),
    ],
)
def test_generate_errors_exit_3(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["generate", str(EXAMPLE_SUITE), *args, "-o", str(tmp_path / "v.yaml")])
    assert code == 3
    assert message in capsys.readouterr().err
    assert not (tmp_path / "v.yaml").exists()


@pytest.mark.parametrize(
    ("force", "code", "said"),
    [
        pytest.param([], 3, "v.yaml exists", id="refused-without-force"),
        pytest.param(["--force"], 0, "wrote v.yaml", id="replaced-with-force"),
    ],
)
def test_an_existing_output_is_replaced_only_with_force(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    force: list[str],
    code: int,
    said: str,
) -> None:
    (tmp_path / "v.yaml").write_text("kept", encoding="utf-8")
    assert main(["generate", str(EXAMPLE_SUITE), "-m", "typos", "-o", "v.yaml", *force]) == code
    assert said in capsys.readouterr().err
    assert ((tmp_path / "v.yaml").read_text(encoding="utf-8") == "kept") is (code == 3)


@pytest.mark.parametrize(
    "force", [pytest.param([], id="without-force"), pytest.param(["--force"], id="with-force")]
)
def test_a_suite_being_mutated_is_never_written_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: list[str]
) -> None:
    victim = tmp_path / "victim.yaml"
    victim.write_bytes(EXAMPLE_SUITE.read_bytes())
    assert main(["generate", "victim.yaml", "-m", "typos", "-o", str(victim), *force]) == 3
    assert "victim.yaml is also read by this command" in capsys.readouterr().err
    assert victim.read_bytes() == EXAMPLE_SUITE.read_bytes()
