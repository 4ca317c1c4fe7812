"""Hostile and awkward files for ``failproof import`` (promptfoo, garak, CSV), as attempts.

Each attempt writes the files, runs the command line, and is mishandled when failproof crashes
("unexpected error", a traceback), freezes, prints more than a few lines (a whole file), lets
control characters reach the terminal, reads or writes outside the folder it was pointed at, or
builds a suite that says something the source did not (a prompt of ``true`` for ``Yes``, an
assertion per character, a blank check counted as mapped).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from tests.hostile.replay import RAW_CONTROLS, Attempt, check, guarded, workdir

from failproof.cli import main
from failproof.suites import load_suite

#: Files an attempt writes (name -> text or bytes), the import arguments, the exit codes allowed,
#: and a check of the suite written (when the import succeeded).
Files = dict[str, str | bytes]
SECRET = "sk-corpus-OUTSIDE-7731"
MAX_PRINTED = 3000


def _run(folder: Path, files: Files, args: list[str]) -> tuple[int, str]:
    """Run the import in ``folder/project``, beside ``folder/outside`` that it must not read."""
    out, err = io.StringIO(), io.StringIO()
    outside, project = folder / "outside", folder / "project"
    outside.mkdir(exist_ok=True)
    project.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    with workdir(project):
        for name, content in files.items():
            path = project / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            elif content.startswith("symlink:"):
                path.symlink_to(content.removeprefix("symlink:").replace("{outside}", str(outside)))
            else:
                path.write_text(content.replace("{outside}", str(outside)), encoding="utf-8")
        with redirect_stdout(out), redirect_stderr(err):
            code = guarded(lambda: main(["import", *args, "-o", "out.yaml"]))
    return code, out.getvalue() + err.getvalue()


def attempt(
    name: str,
    files: Files,
    args: list[str],
    codes: set[int],
    suite_check: Callable[[Any], None] | None = None,
    printed_check: Callable[[str], None] | None = None,
) -> Attempt:
    def run(folder: Path) -> None:
        code, printed = _run(folder, files, args)
        check(code in codes, f"exit {code}, expected {sorted(codes)}: {printed[-300:]}")
        check("unexpected error" not in printed and "Traceback" not in printed, printed[-300:])
        check(len(printed) < MAX_PRINTED, f"printed {len(printed)} characters")
        check(SECRET not in printed, "printed a file from outside the folder")
        for control in RAW_CONTROLS:
            check(control not in printed, f"printed {control!r}")
        written = folder / "project" / "out.yaml"
        if code == 0:
            text = written.read_text(encoding="utf-8")
            check(SECRET not in text, "copied a file from outside the folder into the suite")
            if suite_check is not None:
                suite_check(load_suite(written))
        if printed_check is not None:
            printed_check(printed)

    return Attempt(f"import/{name}", run)


# -- builders ----------------------------------------------------------------------------------


def bomb(levels: int, width: int, key: str = "vars") -> str:
    """Each anchor ``width`` aliases of the one before; the prompt prints the last (as JSON)."""
    lines = ["prompts: ['Repeat: {{v}}']", f"x0: &x0 [{', '.join(['ha'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"x{i}: &x{i} [{', '.join([f'*x{i - 1}'] * width)}]")
    return "\n".join(lines) + f"\ntests:\n  - {key}: {{v: *x{levels - 1}}}\n"


def tests_bomb(levels: int, width: int) -> str:
    """A tests file whose first test holds the anchors and whose second prints the last."""
    anchors = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        anchors.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "- vars: {" + ", ".join(anchors) + f"}}\n- vars: {{v: *a{levels - 1}}}\n"


def merge_bomb(levels: int) -> str:
    lines = ["prompts: ['{{k1}}']", "m0: &m0 {a: 1, b: 2, c: 3, d: 4}"]
    for i in range(1, levels):
        lines.append(f"m{i}: &m{i} {{k1: *m{i - 1}, k2: *m{i - 1}, k3: *m{i - 1}, <<: *m{i - 1}}}")
    return "\n".join(lines) + f"\ntests:\n  - vars: *m{levels - 1}\n"


def config(tests: str, prompts: str = "['Say: {{q}}']", extra: str = "") -> str:
    return f"description: corpus\nprompts: {prompts}\n{extra}tests:\n{tests}"


def one_case(check_case: Callable[[Any], None]) -> Callable[[Any], None]:
    def suite_check(suite: Any) -> None:
        check(len(suite.cases) >= 1, "no case")
        check_case(suite.cases[0])

    return suite_check


def input_is(expected: str) -> Callable[[Any], None]:
    def test(case: Any) -> None:
        check(case.input == expected, f"input {case.input!r}, expected {expected!r}")

    return one_case(test)


def no_expectation(case_check: str) -> Callable[[Any], None]:
    def test(case: Any) -> None:
        check(case.expect is None, f"{case_check}: mapped to {case.expect}")

    return one_case(test)


def prints(needle: str) -> Callable[[str], None]:
    def test(printed: str) -> None:
        check(needle in printed, f"did not say {needle!r}: {printed[-300:]}")

    return test


PF = ["promptfoo", "promptfooconfig.yaml"]


def _garak(prompt: Any, **extra: Any) -> str:
    entry = {"entry_type": "attempt", "uuid": "g", "seq": 3, "status": 2, "prompt": prompt}
    return json.dumps(
        {**entry, "probe_classname": "encoding.InjectHex", **extra}, ensure_ascii=False
    )


# -- the attempts -------------------------------------------------------------------------------


def yaml_attempts() -> list[Attempt]:
    found = [
        attempt(f"alias-bomb-{lv}x{w}", {"promptfooconfig.yaml": bomb(lv, w)}, PF, {3})
        for lv, w in ((8, 10), (12, 5), (20, 3))
    ]
    found += [
        attempt(
            "alias-bomb-in-default-test",
            {"promptfooconfig.yaml": bomb(9, 9, "defaultTest")},
            PF,
            {3},
        ),
        attempt("alias-bomb-merge-keys", {"promptfooconfig.yaml": merge_bomb(14)}, PF, {3}),
        attempt(
            "alias-bomb-in-tests-file",
            {
                "promptfooconfig.yaml": config("  - file://t.yaml\n", prompts="['{{v}}']"),
                "t.yaml": tests_bomb(9, 8),
            },
            PF,
            {3},
        ),
        attempt(
            "deep-flow-yaml",
            {"promptfooconfig.yaml": "tests: " + "{a: " * 4000 + "1" + "}" * 4000},
            PF,
            {3},
        ),
        attempt(
            "deep-block-yaml",
            {
                "promptfooconfig.yaml": "tests:\n"
                + "".join(" " * i + "- \n" for i in range(1, 1500))
            },
            PF,
            {3},
        ),
        attempt(
            "deep-json-tests-file",
            {
                "promptfooconfig.yaml": config("  - file://t.json\n"),
                "t.json": "[" * 50_000 + "]" * 50_000,
            },
            PF,
            {3},
            printed_check=prints("t.json"),
        ),
        attempt("self-alias", {"promptfooconfig.yaml": "tests: &t\n  - vars: {q: *t}\n"}, PF, {3}),
        attempt(
            "duplicate-keys",
            {"promptfooconfig.yaml": config("  - vars: {q: a, q: b}\n")},
            PF,
            {3},
            printed_check=prints(":4"),
        ),
        attempt(
            "python-tag",
            {"promptfooconfig.yaml": config("  - vars: {q: !!python/name:os.system x}\n")},
            PF,
            {3},
        ),
    ]
    for word in ("Yes", "NO", "on", "Off", "y", "~x"):
        found.append(
            attempt(
                f"yaml11-{word}",
                {"promptfooconfig.yaml": config(f"  - vars: {{q: {word}}}\n")},
                PF,
                {0},
                input_is(f"Say: {word}"),
            )
        )
    for value, text in (
        ("2023-12-25", "2023-12-25"),
        ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
        ("12:30:00", "12:30:00"),
        ("0755", "755"),
        ("1_000", "1_000"),
    ):
        found.append(
            attempt(
                f"scalar-{value}",
                {"promptfooconfig.yaml": config(f"  - vars: {{q: {value}}}\n")},
                PF,
                {0},
                input_is(f"Say: {text}"),
            )
        )
    return found


def entry_attempts() -> list[Attempt]:
    bad_tests = {
        "int": "  - 7\n  - vars: {q: ok}\n",
        "null": "  - null\n  - vars: {q: ok}\n",
        "nested-list": "  - [[vars]]\n  - vars: {q: ok}\n",
        "vars-string": "  - vars: q=hi\n  - vars: {q: ok}\n",
        "tests-a-number": "  42\n",
    }
    found = [
        attempt(
            f"entry-{n}",
            {"promptfooconfig.yaml": config(t)},
            PF,
            {0, 3},
            printed_check=prints("promptfooconfig.yaml"),
        )
        for n, t in bad_tests.items()
    ]
    found += [
        attempt(
            "default-test-a-list",
            {"promptfooconfig.yaml": config("  - vars: {q: ok}\n", extra="defaultTest: [a, b]\n")},
            PF,
            {0},
        ),
        attempt(
            "prompts-a-number",
            {"promptfooconfig.yaml": config("  - vars: {q: ok}\n", prompts="12")},
            PF,
            {3},
        ),
        attempt("config-a-list", {"promptfooconfig.yaml": "- a\n- b\n"}, PF, {3}),
        attempt("empty-config", {"promptfooconfig.yaml": ""}, PF, {3}),
        attempt(
            "string-assert",
            {"promptfooconfig.yaml": config("  - vars: {q: hi}\n    assert: icontains-all\n")},
            PF,
            {0},
            no_expectation("a string assert"),
        ),
        attempt(
            "blank-not-icontains",
            {
                "promptfooconfig.yaml": config(
                    "  - vars: {q: hi}\n    assert: [{type: not-icontains, value: '  '}]\n"
                )
            },
            PF,
            {0},
            no_expectation("a blank not-icontains"),
            prints("no value to check"),
        ),
        attempt(
            "contains-object",
            {
                "promptfooconfig.yaml": config(
                    "  - vars: {q: hi}\n    assert: [{type: contains, value: {ok: [1, 2]}}]\n"
                )
            },
            PF,
            {0},
            no_expectation("contains with an object"),
        ),
        attempt(
            "regex-list-of-objects",
            {
                "promptfooconfig.yaml": config(
                    "  - vars: {q: hi}\n    assert: [{type: not-regex, value: [{a: b}]}]\n"
                )
            },
            PF,
            {0},
            no_expectation("a regex of objects"),
        ),
        attempt(
            "date-var-in-chat",
            {
                "promptfooconfig.yaml": config(
                    "  - vars: {when: !!timestamp 2024-02-29}\n",
                    prompts='[\'[{"role": "user", "content": "on {{when}}"}]\']',
                )
            },
            PF,
            {0},
        ),
        attempt(
            "control-characters-in-entry",
            {"promptfooconfig.yaml": config('  - "\\e]0;pwned\\a\\e[2J"\n  - vars: {q: ok}\n')},
            PF,
            {0},
        ),
    ]
    return found


def file_attempts() -> list[Attempt]:
    project: Files = {
        "promptfooconfig.yaml": config(
            "  - file://cases/*.yaml\n  - file://cases/extra.csv\n",
            prompts="[file://p/*.txt, file://p/chat.json]",
        ),
        "p/a.txt": "Short: {{q}}\n---\nLong: {{q}}\n",
        "p/chat.json": '[{"role": "system", "content": "Be brief."},\n'
        ' {"role": "user", "content": "{{q}}"}]',
        "cases/one.yaml": '- vars: {q: "quote \\" and\\nnewline"}\n'
        "  assert: [{type: icontains, value: ok}]\n",
        "cases/extra.csv": "q,__expected\nfrom csv,not-icontains: nope\n",
    }

    def nine(suite: Any) -> None:
        check(len(suite.cases) == 6, f"{len(suite.cases)} cases, expected 6")

    found = [attempt("files-and-globs", project, PF, {0}, nine)]
    escapes = {
        "dotdot": "file://../outside/secret.txt",
        "absolute": "file://{outside}/secret.txt",
        "glob": "file://../out*/*.txt",
        "home": "file://~/.bashrc",
    }
    for label, ref in escapes.items():
        files: Files = {"promptfooconfig.yaml": config(f"  - vars: {{q: '{ref}'}}\n")}
        found.append(_escape_attempt(f"escape-var-{label}", files))
    found.append(
        _escape_attempt(
            "escape-symlinked-tests",
            {
                "promptfooconfig.yaml": config("  - file://t.yaml\n"),
                "t.yaml": "symlink:{outside}/secret.txt",
            },
        )
    )
    found.append(
        _escape_attempt(
            "escape-prompt-file",
            {
                "promptfooconfig.yaml": config(
                    "  - vars: {q: a}\n", prompts="['file://{outside}/secret.txt']"
                )
            },
        )
    )
    found.append(
        attempt(
            "missing-tests-file",
            {"promptfooconfig.yaml": config("  - file://nope/*.csv\n")},
            PF,
            {3},
            printed_check=prints("matches no file"),
        )
    )
    found.append(
        attempt(
            "prompt-function",
            {
                "promptfooconfig.yaml": config(
                    "  - vars: {q: a}\n", prompts="['file://gen.js:make', 'x {{q}}']"
                ),
                "gen.js": "module.exports = {}",
            },
            PF,
            {0},
            input_is("x a"),
        )
    )
    return found


def _escape_attempt(name: str, files: Files) -> Attempt:
    def run(folder: Path) -> None:
        code, printed = _run(folder, files, PF)
        check(code == 3, f"exit {code}: read a file outside the config's folder")
        check("outside" in printed and "--root" in printed, printed[-300:])
        check(SECRET not in printed, "printed the file")

    return Attempt(f"import/{name}", run)


def encoding_attempts() -> list[Attempt]:
    yaml_text = config("  - vars: {q: 'Grüße, café'}\n")
    csv_text = "goal,target\nÉcris un poème sur le café,Sure\n"
    garak = _garak("Übersetze: ¿qué?") + "\n"
    variants: dict[str, tuple[str, Callable[[str], bytes]]] = {
        "utf8-bom": ("", lambda t: b"\xef\xbb\xbf" + t.encode()),
        "utf16-le": ("", lambda t: t.encode("utf-16")),
        "utf16-be": ("", lambda t: b"\xfe\xff" + t.encode("utf-16-be")),
        "utf32": ("", lambda t: t.encode("utf-32")),
        "latin1-named": ("latin-1", lambda t: t.encode("latin-1")),
    }
    found = []
    for label, (encoding, encode) in variants.items():
        extra = ["--encoding", encoding] if encoding else []
        found += [
            attempt(
                f"{label}-promptfoo",
                {"promptfooconfig.yaml": encode(yaml_text)},
                [*PF, *extra],
                {0},
                input_is("Say: Grüße, café"),
            ),
            attempt(
                f"{label}-csv",
                {"b.csv": encode(csv_text)},
                ["csv", "b.csv", "--prompt-column", "goal", *extra],
                {0},
                input_is("Écris un poème sur le café"),
            ),
            attempt(
                f"{label}-garak",
                {"r.jsonl": encode(garak)},
                ["garak", "r.jsonl", *extra],
                {0},
                input_is("Übersetze: ¿qué?"),
            ),
        ]
    big = "goal,category\n" + "".join(f"row {n} of a long benchmark file,x\n" for n in range(5000))
    found += [
        attempt(
            "latin1-csv-unnamed",
            {"b.csv": (big + "café,x\n").encode("cp1252")},
            ["csv", "b.csv", "--prompt-column", "goal"],
            {3},
            printed_check=prints("b.csv:5002"),
        ),
        attempt(
            "latin1-promptfoo-unnamed",
            {"promptfooconfig.yaml": yaml_text.encode("latin-1")},
            PF,
            {3},
            printed_check=prints("--encoding"),
        ),
        attempt(
            "latin1-garak-unnamed", {"r.jsonl": garak.encode("latin-1")}, ["garak", "r.jsonl"], {3}
        ),
        attempt(
            "unknown-encoding",
            {"b.csv": csv_text},
            ["csv", "b.csv", "--prompt-column", "goal", "--encoding", "klingon"],
            {3},
        ),
        attempt(
            "binary-garbage-csv",
            {"b.csv": bytes(range(256)) * 40},
            ["csv", "b.csv", "--prompt-column", "goal"],
            {3},
        ),
    ]
    return found


def size_attempts() -> list[Attempt]:
    field = "word " * 60_000
    return [
        attempt(
            "csv-field-300kb",
            {"b.csv": f'goal\n"{field}"\nnext\n'},
            ["csv", "b.csv", "--prompt-column", "goal"],
            {0},
        ),
        attempt(
            "promptfoo-csv-tests-field-200kb",
            {
                "promptfooconfig.yaml": config("  - file://t.csv\n"),
                "t.csv": f'q,__expected\n"{field[:200_000]}",icontains: x\n',
            },
            PF,
            {0},
        ),
        attempt(
            "csv-unclosed-quote",
            {"b.csv": 'goal\n"never closed\nmore\n'},
            ["csv", "b.csv", "--prompt-column", "goal"],
            {0},
        ),
        attempt(
            "csv-nul-bytes",
            {"b.csv": "goal\nab\x00cd\n"},
            ["csv", "b.csv", "--prompt-column", "goal"],
            {0, 3},
        ),
        attempt(
            "garak-deep-json",
            {"r.jsonl": _garak("x") + "\n" + '{"a":' * 30_000 + "1" + "}" * 30_000 + "\n"},
            ["garak", "r.jsonl"],
            {3},
            printed_check=prints("r.jsonl:2"),
        ),
        attempt(
            "garak-huge-int",
            {"r.jsonl": _garak("x").replace('"seq": 3', '"seq": ' + "9" * 5000) + "\n"},
            ["garak", "r.jsonl"],
            {0},
        ),
        attempt(
            "garak-odd-fields",
            {
                "r.jsonl": _garak(
                    {"text": ["a"]}, status="x", notes=3, detector_results={"x": {"y": 1}}
                )
                + "\n"
                + _garak("ok", uuid="h")
                + "\n"
            },
            ["garak", "r.jsonl"],
            {0},
        ),
    ]


def unicode_attempts() -> list[Attempt]:
    lone = '"x \\udc80 y"'
    return [
        attempt(
            "lone-surrogate-garak",
            {"r.jsonl": _garak("PLACEHOLDER").replace('"PLACEHOLDER"', lone) + "\n"},
            ["garak", "r.jsonl"],
            {0},
            input_is("x \ufffd y"),
        ),
        attempt(
            "lone-surrogate-json-tests",
            {
                "promptfooconfig.yaml": config("  - file://t.json\n"),
                "t.json": '[{"vars": {"q": ' + lone + "}}]",
            },
            PF,
            {0},
            input_is("Say: x \ufffd y"),
        ),
        attempt(
            "one-doc-many-tests",
            {
                "promptfooconfig.yaml": config(
                    "".join(f"  - vars: {{q: file://d.md, n: {n}}}\n" for n in range(1200))
                ),
                "d.md": "A shared policy document.",
            },
            PF,
            {0},
        ),
    ]


def output_attempts() -> list[Attempt]:
    def kept(folder: Path) -> None:
        code, printed = _run(
            folder,
            {
                "promptfooconfig.yaml": config("  - vars: {q: hi}\n"),
                "out.yaml": "symlink:{outside}/secret.txt",
            },
            PF,
        )
        target = folder / "outside" / "secret.txt"
        check(code == 3 and "symbolic link" in printed, f"exit {code}: {printed[-200:]}")
        check(target.read_text(encoding="utf-8") == SECRET, "overwrote the symlink's target")

    def dangling(folder: Path) -> None:
        code, _ = _run(
            folder,
            {
                "promptfooconfig.yaml": config("  - vars: {q: hi}\n"),
                "out.yaml": "symlink:{outside}/new.txt",
            },
            PF,
        )
        check(code == 3, f"exit {code}: wrote through a dangling symlink")
        check(not (folder / "outside" / "new.txt").exists(), "created the target")

    return [
        Attempt("import/output-symlink", kept),
        Attempt("import/output-dangling-symlink", dangling),
    ]


def importer_attempts() -> list[Attempt]:
    """Every importer attempt."""
    return [
        *yaml_attempts(),
        *entry_attempts(),
        *file_attempts(),
        *encoding_attempts(),
        *size_attempts(),
        *unicode_attempts(),
        *output_attempts(),
    ]
