"""The signal library: built-in data, the pattern-file schema, and user files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from failproof.errors import PatternError
from failproof.signals import Pattern, SignalLibrary, load_library
from failproof.signals._library import builtin_pattern_files, read_pattern_file

# the files of the probe-scoring signal library (refusal.yaml belongs to the refusal judge)
OWN_FILES = ("boundary.yaml", "disclosure.yaml", "harmful.yaml", "jailbreak.yaml", "tools.yaml")
UNSAFE_KINDS = {
    "harmful_compliance",
    "step_by_step_harm",
    "jailbreak_persona",
    "instruction_override",
    "system_prompt_leak",
    "secret_leak",
    "canary_leak",
    "pii_disclosure",
    "tool_misuse",
    "code_misuse",
}


@pytest.fixture(scope="module")
def library() -> SignalLibrary:
    return load_library()


def own_patterns(library: SignalLibrary) -> list[Pattern]:
    return [p for p in library if Path(library.sources[p.id]).name in OWN_FILES]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_built_in_library_ships_as_yaml_files_in_the_package() -> None:
    names = {p.name for p in builtin_pattern_files()}
    assert set(OWN_FILES) <= names
    assert all(p.suffix == ".yaml" for p in builtin_pattern_files())


def test_the_library_holds_at_least_150_patterns_with_about_100_of_them_unsafe_or_boundary(
    library: SignalLibrary,
) -> None:
    assert len(library) >= 150
    assert len(own_patterns(library)) >= 100


def test_the_unsafe_patterns_cover_every_failure_family_the_issue_names(
    library: SignalLibrary,
) -> None:
    evidenced = {mode for p in library if p.kind == "unsafe" for mode in p.failure_modes}
    assert evidenced >= UNSAFE_KINDS


def test_both_kinds_and_several_languages_are_present(library: SignalLibrary) -> None:
    kinds = Counter(p.kind for p in own_patterns(library))
    assert kinds["unsafe"] >= 70
    assert kinds["safe"] >= 25
    assert len({p.lang for p in library if p.lang}) >= 5


def test_every_own_pattern_documents_itself_with_an_example(library: SignalLibrary) -> None:
    missing = [p.id for p in own_patterns(library) if not p.examples]
    assert missing == []


def test_own_pattern_ids_are_namespaced_by_kind(library: SignalLibrary) -> None:
    wrong = [p.id for p in own_patterns(library) if not p.id.startswith(f"{p.kind}.")]
    assert wrong == []


def test_ids_are_unique_across_the_built_in_files() -> None:
    ids = [p.id for path in builtin_pattern_files() for p in read_pattern_file(path)]
    assert [i for i, n in Counter(ids).items() if n > 1] == []


def test_the_digest_changes_when_a_pattern_changes(tmp_path: Path) -> None:
    one = write(tmp_path, "a.yaml", "patterns: [{id: a.1, label: x, kind: safe, regex: 'abc'}]")
    two = write(tmp_path, "b.yaml", "patterns: [{id: a.1, label: x, kind: safe, regex: 'abd'}]")
    first = load_library([one], builtin=False)
    assert first.digest == load_library([one], builtin=False).digest
    assert first.digest != load_library([two], builtin=False).digest


def test_a_user_file_extends_the_library_and_overrides_a_reused_id(
    tmp_path: Path, library: SignalLibrary
) -> None:
    user = write(
        tmp_path,
        "mine.yaml",
        """
patterns:
  - id: unsafe.leak.canary.token
    label: house_canary
    kind: unsafe
    weight: 0.5
    regex: 'acme-secret-\\d+'
  - id: user.extra.001
    label: my_phrase
    kind: safe
    regex: 'have a lovely day'
""",
    )
    merged = load_library([user])
    assert len(merged) == len(library) + 1
    assert merged.get("unsafe.leak.canary.token").label == "house_canary"
    assert merged.sources["unsafe.leak.canary.token"] == str(user)
    assert merged.get("user.extra.001").kind == "safe"


def test_the_register_key_of_a_pattern_file_is_kept() -> None:
    pattern = Pattern.model_validate(
        {"id": "a.1", "label": "x", "kind": "safe", "regex": "x", "register": "apology"}
    )
    assert pattern.register_ == "apology"
    assert pattern.model_dump(by_alias=True)["register"] == "apology"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "patterns: [{id: user.bad.1, label: x, kind: unsafe, regex: '(a)\\1'}]",
            "pattern 'user.bad.1': regex does not compile with RE2",
            id="backreference-rejected",
        ),
        pytest.param(
            "patterns: [{id: user.bad.2, label: x, kind: unsafe, regex: '(?=a)b'}]",
            "pattern 'user.bad.2': regex does not compile with RE2",
            id="lookahead-rejected",
        ),
        pytest.param(
            "patterns: [{id: user.bad.3, label: x, kind: unsafe, regex: 'a{1,5000}'}]",
            "pattern 'user.bad.3': regex does not compile with RE2",
            id="huge-repetition-rejected",
        ),
        pytest.param(
            "patterns: [{id: u.1, label: x, kind: safe, regex: a}, "
            "{id: u.1, label: y, kind: safe, regex: b}]",
            "pattern id 'u.1' appears twice in one file",
            id="duplicate-id-in-one-file",
        ),
        pytest.param(
            "patterns: [{id: u.2, label: x, kind: harmless, regex: a}]",
            "pattern 'u.2': field kind",
            id="unknown-kind-named-with-its-field",
        ),
        pytest.param(
            "patterns: [{id: u.3, label: x, kind: safe, regex: a, postion: start}]",
            "pattern 'u.3': field postion",
            id="misspelt-field-rejected",
        ),
        pytest.param(
            "patterns: [{id: u.4, label: x, kind: safe, regex: 'abc', examples: [xyz]}]",
            "pattern 'u.4' does not match its example 'xyz'",
            id="example-that-does-not-match",
        ),
        pytest.param(
            "patterns: [{id: u.5, label: x, kind: safe, regex: 'abc', counterexamples: [ABC]}]",
            "pattern 'u.5' matches its counterexample 'ABC'",
            id="counterexample-that-matches",
        ),
        pytest.param("patterns: [unclosed", "not valid YAML", id="invalid-yaml"),
    ],
)
def test_a_bad_pattern_file_is_rejected_with_its_name_and_the_pattern(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, "user.yaml", text)
    with pytest.raises(PatternError) as raised:
        load_library([path])
    assert str(path) in str(raised.value)
    assert message in str(raised.value)


def test_a_missing_pattern_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(PatternError, match=r"nope\.yaml: pattern file not found"):
        load_library([tmp_path / "nope.yaml"])


def test_an_empty_pattern_file_adds_nothing(tmp_path: Path) -> None:
    assert len(load_library([write(tmp_path, "empty.yaml", "")], builtin=False)) == 0


def test_the_shipped_files_are_read_once_per_process_and_user_files_every_time(
    tmp_path: Path,
) -> None:
    own = tmp_path / "own.yaml"
    own.write_text(
        "patterns:\n"
        "  - {id: own.one, label: One, kind: unsafe, regex: 'alpha', examples: [alpha]}\n",
        encoding="utf-8",
    )
    first, second = load_library([own]), load_library([own])
    assert first.get("own.one") is not second.get("own.one")
    shipped = next(p.id for p in first.patterns if p.id != "own.one")
    assert first.get(shipped) is second.get(shipped)
