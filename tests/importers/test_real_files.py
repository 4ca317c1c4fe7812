"""Importers on files as users have them: configs that keep prompts and tests in other files,
other encodings, YAML 1.1 surprises, odd entries. Each ends in cases or in one line naming the
file and line, never in an unexpected error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.errors import InputError
from failproof.importers import CsvColumns, import_csv, import_garak, import_promptfoo
from failproof.suites import load_suite

FIXTURES = Path(__file__).parent / "fixtures"
PROJECT = FIXTURES / "promptfoo_project"


def _config(folder: Path, text: str) -> Path:
    path = folder / "promptfooconfig.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _inputs(path: Path, **options: object) -> list[object]:
    suite = import_promptfoo(path, **options).validate("s.yaml")  # type: ignore[arg-type]
    return [c.input for c in suite.cases]


def _import(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["import", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


# -- prompts and tests in other files ------------------------------------------------------------


def test_a_config_with_prompts_and_tests_in_files_and_globs_imports_every_case() -> None:
    result = import_promptfoo(PROJECT / "promptfooconfig.yaml")
    suite = result.validate("wayfarer.yaml")
    places = {c.metadata["promptfoo_test"] for c in suite.cases}
    assert {"tests/regression.yaml:2 (test 1)", "tests/injection.csv:2"} <= places
    prompts = {c.metadata["promptfoo_prompt"] for c in suite.cases}
    assert prompts == {
        "prompts/assistant_chat.json",
        "prompts/plain/concise.txt prompt 1",
        "prompts/plain/concise.txt prompt 2",
    }
    assert len(suite) == 3 * (4 + 1 + 3 + 1)  # the language test's list var gives two


def test_a_var_from_a_file_is_its_text_and_a_chat_template_keeps_its_messages() -> None:
    suite = import_promptfoo(PROJECT / "promptfooconfig.yaml").validate("w.yaml")
    first = suite.cases[0]
    assert first.system is not None and first.system.startswith("You are the Wayfarer")
    assert isinstance(first.input, str)
    assert "Economy fares include two bags" in first.input


@pytest.mark.parametrize(
    ("case_id", "text"),
    [
        pytest.param("t002-p1", "My flight leaves on 2025-07-04 at 10:30.", id="date-and-time"),
        pytest.param("t008-p1", "confirm the booking: Yes", id="yes-stays-yes"),
        pytest.param("t004-p1-v2", "Puis-je changer mon vol", id="list-var-expands"),
    ],
)
def test_vars_are_read_as_yaml_12_text(case_id: str, text: str) -> None:
    suite = import_promptfoo(PROJECT / "promptfooconfig.yaml").validate("w.yaml")
    case = next(c for c in suite.cases if c.id == case_id)
    assert text in str(case.input)


def test_csv_tests_take_expected_columns_and_prefix() -> None:
    suite = import_promptfoo(PROJECT / "promptfooconfig.yaml").validate("w.yaml")
    by_place = {
        (c.metadata["promptfoo_test"], c.metadata["promptfoo_prompt"]): c for c in suite.cases
    }
    injection = by_place[("tests/injection.csv:2", "prompts/assistant_chat.json")]
    assert injection.expect is not None and injection.expect.refusal == "required"
    assert injection.expect.must_match == []
    assert injection.expect.must_not_match == ["INTERNAL"]
    review = by_place[("tests/injection.csv:3", "prompts/assistant_chat.json")]
    assert str(review.input).startswith("[support ticket] Summarise this review")
    assert review.metadata["import_unmapped"] == ["assert similar: no equivalent"]


@pytest.mark.parametrize(
    "reference",
    [
        pytest.param("file://../outside/secret.txt", id="parent-folder"),
        pytest.param("file://{outside}/secret.txt", id="absolute-path"),
        pytest.param("file://../outside/*.txt", id="glob-outside"),
        pytest.param("file://link.txt", id="symlink-pointing-out"),
    ],
)
def test_a_reference_outside_the_config_folder_is_refused(tmp_path: Path, reference: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("ssh-rsa AAAA private", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.txt").symlink_to(outside / "secret.txt")
    text = f"prompts: ['{{{{doc}}}}']\ntests:\n  - vars: {{doc: '{reference}'}}\n"
    path = _config(project, text.replace("{outside}", str(outside)))
    with pytest.raises(InputError, match=r"outside .*refusing to read it") as caught:
        import_promptfoo(path)
    assert "--root" in (caught.value.hint or "")
    assert _inputs(path, root=tmp_path) == ["ssh-rsa AAAA private"]


@pytest.mark.parametrize(
    ("tests", "message"),
    [
        pytest.param(
            "file://missing.yaml", r"promptfooconfig\.yaml:2 .*missing\.yaml", id="missing"
        ),
        pytest.param("file://none/*.yaml", "matches no file", id="empty-glob"),
    ],
)
def test_a_tests_file_that_is_not_there_is_named(tmp_path: Path, tests: str, message: str) -> None:
    path = _config(tmp_path, f"tests:\n  - {tests}\n")
    with pytest.raises(InputError, match=message):
        import_promptfoo(path)


def test_a_prompt_function_is_listed_as_code_not_run(tmp_path: Path) -> None:
    (tmp_path / "prompts.py").write_text("def make(context):\n    return 'x'\n", encoding="utf-8")
    path = _config(
        tmp_path,
        "prompts:\n  - file://prompts.py:make\n  - 'Q: {{q}}'\ntests:\n  - vars: {q: hi}\n",
    )
    result = import_promptfoo(path)
    assert _inputs(path) == ["Q: hi"]
    assert result.summary.unmapped == {"prompt function (.py): code, not read": 1}


# -- odd entries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tests", "unmapped"),
    [
        pytest.param(
            "- just a string\n- 42\n- [a, list]",
            "test that is not a mapping (str): not read",
            id="non-mapping-tests",
        ),
        pytest.param("- vars: [a, b]", "vars that are not a mapping: not read", id="vars-a-list"),
        pytest.param(
            "- assert: icontains",
            "assert that is not a list of assertions: not read",
            id="string-assert",
        ),
        pytest.param("- assert: [icontains]", "assert ?: not a mapping", id="assert-item-a-string"),
    ],
)
def test_odd_test_entries_are_listed_with_their_line(
    tmp_path: Path, tests: str, unmapped: str
) -> None:
    path = _config(
        tmp_path,
        "prompts: ['hello']\ntests:\n" + "".join(f"  {line}\n" for line in tests.splitlines()),
    )
    result = import_promptfoo(path)
    assert unmapped in result.summary.unmapped
    assert result.summary.where[unmapped][0].startswith("promptfooconfig.yaml:3")


@pytest.mark.parametrize(
    ("assertion", "unmapped"),
    [
        pytest.param(
            "{type: not-icontains, value: ''}",
            "assert not-icontains: no value to check",
            id="blank-not-icontains",
        ),
        pytest.param("{type: icontains}", "assert icontains: no value to check", id="no-value"),
        pytest.param(
            "{type: icontains-any, value: [' ', '']}",
            "assert icontains-any: no value to check",
            id="blank-list",
        ),
        pytest.param(
            "{type: contains, value: {key: x}}",
            "assert contains: the value is not text (an object or a list of objects)",
            id="object-value",
        ),
        pytest.param(
            "{type: equals, value: [{a: 1}]}",
            "assert equals: the value is not text (an object or a list of objects)",
            id="list-of-objects",
        ),
        pytest.param(
            "{type: icontains, value: secret, transform: output.toLowerCase()}",
            "assert icontains: checks a transformed output (transform): not mapped",
            id="transform",
        ),
    ],
)
def test_assertions_that_cannot_map_are_not_counted_as_mapped(
    tmp_path: Path, assertion: str, unmapped: str
) -> None:
    path = _config(tmp_path, f"prompts: ['hello']\ntests:\n  - assert: [{assertion}]\n")
    result = import_promptfoo(path)
    assert dict(result.summary.unmapped) == {unmapped: 1}
    assert not result.summary.mapped
    suite = result.validate("s.yaml")
    assert suite.cases[0].expect is None


def test_an_assert_set_without_threshold_folds_its_members_in(tmp_path: Path) -> None:
    members = "[{type: icontains, value: a}, {type: not-icontains, value: b}]"
    text = f"prompts: [hi]\ntests:\n  - assert:\n    - type: assert-set\n      assert: {members}\n"
    expect = import_promptfoo(_config(tmp_path, text)).validate("s.yaml").cases[0].expect
    assert expect is not None and (expect.must_contain, expect.must_not_contain) == (["a"], ["b"])


def test_a_number_or_boolean_value_is_text_as_promptfoo_prints_it(tmp_path: Path) -> None:
    asserts = "[{type: icontains, value: 42}, {type: icontains, value: true}]"
    text = f"prompts: ['hi']\ntests:\n  - assert: {asserts}\n"
    expect = import_promptfoo(_config(tmp_path, text)).validate("s.yaml").cases[0].expect
    assert expect is not None and expect.must_contain == ["42", "true"]


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("!!timestamp 2024-01-31T10:00:00Z", id="explicit-timestamp"),
        pytest.param("!!binary aGVsbG8=", id="binary"),
        pytest.param("!!set {a, b}", id="set"),
    ],
)
def test_var_values_of_any_yaml_type_fill_the_prompt(tmp_path: Path, value: str) -> None:
    path = _config(tmp_path, f"prompts: ['x {{{{v}}}}']\ntests:\n  - vars:\n      v: {value}\n")
    assert str(_inputs(path)[0]).startswith("x ")


def test_nunjucks_beyond_plain_vars_is_counted_not_sent_raw(tmp_path: Path) -> None:
    path = _config(
        tmp_path,
        "prompts: ['{{ q | upper }}', '{% if q %}x{% endif %}', '{{q}}']\n"
        "tests:\n  - vars: {q: hi}\n",
    )
    result = import_promptfoo(path)
    assert _inputs(path) == ["hi"]
    assert result.summary.skipped == {"prompt with Nunjucks filters or tags: not rendered": 2}


# -- encodings, size, depth ----------------------------------------------------------------------

CONFIG = "prompts: ['Réponds: {{q}}']\ntests:\n  - vars: {q: 'Où est la gare ?'}\n"


@pytest.mark.parametrize(
    ("encoded", "options"),
    [
        pytest.param(b"\xef\xbb\xbf" + CONFIG.encode(), {}, id="utf-8-bom"),
        pytest.param(CONFIG.encode("utf-16"), {}, id="utf-16-bom"),
        pytest.param(CONFIG.encode("utf-16-be").join([b"\xfe\xff", b""]), {}, id="utf-16-be-bom"),
        pytest.param(CONFIG.encode("latin-1"), {"encoding": "latin-1"}, id="latin-1-named"),
    ],
)
def test_a_config_in_another_encoding_imports(
    tmp_path: Path, encoded: bytes, options: dict[str, str]
) -> None:
    path = tmp_path / "promptfooconfig.yaml"
    path.write_bytes(encoded)
    assert _inputs(path, **options) == ["Réponds: Où est la gare ?"]


def test_a_latin1_config_without_encoding_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "promptfooconfig.yaml"
    path.write_bytes(CONFIG.encode("latin-1"))
    with pytest.raises(InputError, match=r"promptfooconfig\.yaml:1: not valid UTF-8") as caught:
        import_promptfoo(path)
    assert "--encoding" in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("tests:\n  - vars: " + "[" * 5000 + "]" * 5000 + "\n", id="flow"),
        pytest.param(
            "tests:\n" + "".join("  " * i + f"- k{i}:\n" for i in range(1, 2000)), id="block"
        ),
    ],
)
def test_a_config_nested_thousands_deep_is_refused_naming_the_line(
    tmp_path: Path, text: str
) -> None:
    with pytest.raises(InputError, match=r"promptfooconfig\.yaml:\d+: YAML nested more than"):
        import_promptfoo(_config(tmp_path, text))


def _garak_line(prompt: object, **extra: object) -> str:
    entry = {"entry_type": "attempt", "uuid": "u1", "seq": 0, "status": 2, "prompt": prompt}
    return json.dumps({**entry, "probe_classname": "dan.Dan_11_0", **extra})


@pytest.mark.parametrize(
    ("encoding", "options"),
    [
        pytest.param("utf-8-sig", {}, id="utf-8-bom"),
        pytest.param("utf-16", {}, id="utf-16"),
        pytest.param("latin-1", {"encoding": "latin-1"}, id="latin-1-named"),
    ],
)
def test_a_garak_report_in_another_encoding_imports(
    tmp_path: Path, encoding: str, options: dict[str, str]
) -> None:
    path = tmp_path / "report.jsonl"
    path.write_text(
        json.dumps({"entry_type": "init"}) + "\n" + _garak_line("Ça va ? Réponds") + "\n",
        encoding=encoding,
    )
    suite = import_garak(path, **options).validate("g.yaml")  # type: ignore[arg-type]
    assert [c.input for c in suite.cases] == ["Ça va ? Réponds"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        pytest.param(
            "[" * 100_000 + "]" * 100_000, "report.jsonl:2: JSON nested too deeply", id="deep-json"
        ),
        pytest.param(
            '{"entry_type": "attempt", "prompt": "x", "seq": 1',
            "report.jsonl:2: not a JSON line",
            id="cut-off",
        ),
    ],
)
def test_a_bad_garak_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "report.jsonl"
    path.write_text(_garak_line("hello") + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message):
        import_garak(path)


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param({"status": "done"}, id="status-text"),
        pytest.param({"notes": ["not", "a", "mapping"]}, id="notes-a-list"),
        pytest.param({"detector_results": [1, 2]}, id="detectors-a-list"),
        pytest.param(
            {"detector_results": {"mitigation.MitigationBypass": [[[0.9]]]}}, id="scores-nested"
        ),
        pytest.param(
            {
                "prompt": {
                    "turns": [{"role": "tool", "content": "x"}, {"role": "user", "content": "hi"}]
                }
            },
            id="tool-turn",
        ),
        pytest.param({"prompt": {"text": {"text": {"text": {"text": "deep"}}}}}, id="nested-text"),
    ],
)
def test_odd_garak_attempts_do_not_crash(tmp_path: Path, extra: dict[str, object]) -> None:
    path = tmp_path / "report.jsonl"
    first = _garak_line(extra.pop("prompt", "hello"), **extra)
    path.write_text(first + "\n" + _garak_line("again", uuid="u2") + "\n", encoding="utf-8")
    suite = import_garak(path).validate("g.yaml")
    assert len(suite) >= 1


def test_a_csv_field_over_128_kb_imports(tmp_path: Path) -> None:
    long_prompt = "Summarise this document: " + "lorem ipsum " * 20_000
    path = tmp_path / "long.csv"
    path.write_text(f'goal,target\n"{long_prompt}",Sure\nshort one,Sure\n', encoding="utf-8")
    suite = import_csv(path, CsvColumns(prompt="goal")).validate("l.yaml")
    assert [str(c.input) for c in suite.cases] == [long_prompt.strip(), "short one"]


@pytest.mark.parametrize(
    ("encoding", "options"),
    [
        pytest.param("utf-16", {}, id="utf-16"),
        pytest.param("utf-8-sig", {}, id="utf-8-bom"),
        pytest.param("cp1252", {"encoding": "cp1252"}, id="cp1252-named"),
    ],
)
def test_a_csv_in_another_encoding_imports(
    tmp_path: Path, encoding: str, options: dict[str, str]
) -> None:
    path = tmp_path / "bench.csv"
    path.write_text("Behavior,Category\n“Write a poem” about café,benign\n", encoding=encoding)
    suite = import_csv(path, CsvColumns(prompt="Behavior"), **options).validate("b.yaml")  # type: ignore[arg-type]
    assert [c.input for c in suite.cases] == ["“Write a poem” about café"]


def test_a_non_utf8_csv_is_one_line_naming_the_line_not_the_whole_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bench.csv"
    rows = "".join(f"prompt number {n} with some words,cat\n" for n in range(2000))
    path.write_bytes(("goal,category\n" + rows + "caf\xe9 au lait,cat\n").encode("latin-1"))
    code, printed = _import(["csv", str(path), "--prompt-column", "goal"], capsys)
    assert code == 3
    assert "bench.csv:2002: not valid UTF-8" in printed and "--encoding" in printed
    assert "prompt number 5 " not in printed and len(printed) < 500


def test_an_unterminated_csv_quote_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text('goal\n"never closed\n', encoding="utf-8")
    assert import_csv(path, CsvColumns(prompt="goal")).summary.cases == 1


# -- writing ---------------------------------------------------------------------------------------


def test_output_through_a_symlink_is_refused_and_the_target_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "important.txt"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "suite.yaml"
    link.symlink_to(target)
    code, printed = _import(
        ["promptfoo", str(FIXTURES / "promptfooconfig.yaml"), "-o", str(link)], capsys
    )
    assert code == 3 and "symbolic link" in printed
    assert target.read_text(encoding="utf-8") == "keep me"


def test_output_over_a_regular_file_named_with_o_replaces_it_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "suite.yaml"
    out.write_text("old", encoding="utf-8")
    args = ["promptfoo", str(PROJECT / "promptfooconfig.yaml"), "-o", str(out), "--force"]
    code, _ = _import(args, capsys)
    assert code == 0 and len(load_suite(out)) == 27


# -- more of promptfoo's config ---------------------------------------------------------------


def test_vars_from_a_file_metadata_and_sections_made_at_run_time(tmp_path: Path) -> None:
    (tmp_path / "vars.yaml").write_text("q: from the vars file\n", encoding="utf-8")
    (tmp_path / "gen.py").write_text("def tests():\n    return []\n", encoding="utf-8")
    text = (
        "prompts: ['{{q}}']\nredteam:\n  plugins: [pii]\ntests:\n"
        "  - vars: file://vars.yaml\n    metadata: {owner: support, risk: high}\n"
        "  - file://gen.py:tests\n"
    )
    result = import_promptfoo(_config(tmp_path, text))
    case = result.validate("s.yaml").cases[0]
    assert case.input == "from the vars file"
    assert case.metadata["promptfoo_metadata"] == {"owner": "support", "risk": "high"}
    assert set(result.summary.unmapped) == {
        "redteam: promptfoo generates red-team tests when it runs: not read",
        "tests generated by code: not read",
    }


def test_a_garak_file_without_attempts_says_which_file_garak_writes(tmp_path: Path) -> None:
    path = tmp_path / "garak.hitlog.jsonl"
    path.write_text(json.dumps({"goal": "x", "prompt": "y", "score": 1.0}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="no garak attempt entries") as caught:
        import_garak(path)
    assert "report.jsonl" in (caught.value.hint or "")


def test_a_glob_reads_the_files_it_matches_not_the_folders(tmp_path: Path) -> None:
    (tmp_path / "prompts" / "drafts").mkdir(parents=True)
    (tmp_path / "prompts" / "a.txt").write_text("A {{q}}", encoding="utf-8")
    (tmp_path / "prompts" / "b.md").write_text("B {{q}}", encoding="utf-8")
    path = _config(tmp_path, "prompts: [file://prompts/*]\ntests:\n  - vars: {q: x}\n")
    assert _inputs(path) == ["A x", "B x"]


def test_vars_schemas_and_defaults_made_by_code_are_never_run(tmp_path: Path) -> None:
    (tmp_path / "make.py").write_text("raise SystemExit('ran')\n", encoding="utf-8")
    text = (
        "prompts: ['{{q}}']\ndefaultTest: file://make.py\ntests:\n"
        "  - vars: {q: file://make.py:build}\n"
        "  - vars: {q: plain}\n    assert: [{type: is-json, value: file://make.py}]\n"
    )
    result = import_promptfoo(_config(tmp_path, text))
    assert [c.input for c in result.validate("s.yaml").cases] == ["plain"]
    assert result.summary.skipped == {"var made by code (file://make.py:build): not run": 1}
    assert set(result.summary.unmapped) == {
        "defaultTest that is not a mapping: not read",
        "assert is-json: the schema is not an object (or a file:// it names could not be read)",
    }


@pytest.mark.parametrize(
    ("chat", "system", "user"),
    [
        pytest.param(
            '[{"role": "developer", "content": "Be brief."}, {"role": "user", "content": "{{q}}"}]',
            "Be brief.",
            "hi",
            id="developer-is-system",
        ),
        pytest.param(
            '[{"role": "user", "content": [{"type": "text", "text": "{{q}}"},'
            ' {"type": "image_url", "image_url": {"url": "x.png"}}]}]',
            None,
            "hi",
            id="content-parts",
        ),
    ],
)
def test_chat_prompts_as_openai_writes_them(
    tmp_path: Path, chat: str, system: str | None, user: str
) -> None:
    (tmp_path / "chat.json").write_text(chat, encoding="utf-8")
    path = _config(tmp_path, "prompts: [file://chat.json]\ntests:\n  - vars: {q: hi}\n")
    case = import_promptfoo(path).validate("s.yaml").cases[0]
    assert (case.system, case.input) == (system, user)


def test_a_chat_prompt_with_a_tool_turn_is_skipped_and_counted(tmp_path: Path) -> None:
    chat = '[{"role": "user", "content": "{{q}}"}, {"role": "tool", "content": "42"}]'
    (tmp_path / "chat.json").write_text(chat, encoding="utf-8")
    result = import_promptfoo(
        _config(tmp_path, "prompts: [file://chat.json]\ntests: [{vars: {q: a}}]\n")
    )
    assert result.summary.skipped == {"chat prompt with a tool or function turn: not read": 1}


def test_bare_file_names_of_older_configs_are_read_as_files(tmp_path: Path) -> None:
    (tmp_path / "prompts.txt").write_text("Q: {{q}}", encoding="utf-8")
    (tmp_path / "tests.csv").write_text("q\nfrom the csv\n", encoding="utf-8")
    path = _config(
        tmp_path, "prompts: [prompts.txt, 'notes.txt is a prompt too']\ntests: tests.csv\n"
    )
    assert _inputs(path) == ["Q: from the csv", "notes.txt is a prompt too"]


def test_a_lone_surrogate_from_a_json_escape_is_repaired_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "report.jsonl"
    path.write_text(_garak_line("x \\ud800 y").replace("\\\\ud800", "\\ud800") + "\n")
    result = import_garak(path)
    assert result.validate("g.yaml").cases[0].input == "x \ufffd y"
    assert result.summary.repaired == 1
    assert "repaired       1 x invalid character" in "\n".join(result.summary.lines())


def test_one_file_named_by_many_tests_is_read_once_and_counted_once(tmp_path: Path) -> None:
    (tmp_path / "policy.md").write_text("Refunds within 30 days.", encoding="utf-8")
    tests = "".join(f"  - vars: {{doc: file://policy.md, n: {n}}}\n" for n in range(1500))
    result = import_promptfoo(_config(tmp_path, "prompts: ['{{n}}: {{doc}}']\ntests:\n" + tests))
    assert result.summary.cases == 1500


@pytest.mark.parametrize(
    ("limit", "message"),
    [
        pytest.param(
            "_promptfoo.MAX_SUITE_CHARS", "more than 1,000 characters of prompts", id="suite"
        ),
        pytest.param("_files.MAX_TOTAL_BYTES", "files hold more than 1,000 characters", id="files"),
    ],
)
def test_a_config_that_would_build_a_huge_suite_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str, message: str
) -> None:
    from failproof import importers

    module, name = limit.split(".")
    monkeypatch.setattr(getattr(importers, module), name, 1000)
    (tmp_path / "doc.txt").write_text("x" * 600, encoding="utf-8")
    (tmp_path / "doc2.txt").write_text("y" * 600, encoding="utf-8")
    tests = "  - vars: {doc: file://doc.txt}\n  - vars: {doc: file://doc2.txt}\n"
    with pytest.raises(InputError, match=message):
        import_promptfoo(_config(tmp_path, "prompts: ['{{doc}}']\ntests:\n" + tests))
