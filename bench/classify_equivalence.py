"""Equivalence check for classifier speed work: every verdict field, before and after a change.

Scores a large deterministic sample through the ``failproof`` and ``probe`` scorers and writes
each result (every field of the `CaseResult`, the refusal and harm verdicts included) as one
canonical JSON line. Run it once with the code before a change (``--write``) and once with the
code after it (``--check``): any field that differs is printed, and the exit status is 1.

The sample: ``bench/classify.py``'s generated responses (``--n``, ``--seed``), then every answer
of the labelled development sets under ``--data`` when present (XSTest v2, PyRIT's refusal and
harm sets), each asked as a case that forbids, requires and allows a refusal.

    PYTHONPATH=<old src> python bench/classify_equivalence.py --write before.jsonl
    python bench/classify_equivalence.py --check before.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from classify import build

from failproof.config import ScoringConfig
from failproof.core import Case, Expect, Response
from failproof.detect import pyrit_set, xstest_set
from failproof.detect._harm_data import pyrit_harm_set
from failproof.scoring import build_scorers, score_case

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "labelled"
_REFUSAL_MODES = ("forbidden", "required", "allowed")


def _labelled(data: Path) -> Iterator[tuple[str, str]]:
    """(prompt, answer) of every labelled row, in file order."""
    if not data.is_dir():
        print(f"no labelled data at {data}: generated sample only", file=sys.stderr)
        return
    for labelled in (xstest_set(data), pyrit_set(data), pyrit_set(data, "mini_refusal")):
        yield from ((row.prompt or "", row.response) for row in labelled)
    yield from ((row.prompt, row.response) for row in pyrit_harm_set(data))


def _labelled_pairs(data: Path) -> Iterator[tuple[Case, Response]]:
    for index, (prompt, answer) in enumerate(_labelled(data)):
        for mode in _REFUSAL_MODES:
            case = Case(
                id=f"labelled-{index}-{mode}",
                input=prompt or "(no prompt)",
                expect=Expect(refusal=mode),
                failure_modes=["harmful_content"] if mode == "required" else [],
            )
            yield case, Response.from_output(answer, latency_ms=1.0)


def records(n: int, seed: int, data: Path) -> Iterator[str]:
    """One canonical JSON line per scored pair."""
    scorers = build_scorers(ScoringConfig(), ["failproof", "probe"])
    pairs = [*build(n, seed), *_labelled_pairs(data)]
    for index, (case, response) in enumerate(pairs):
        result = score_case(case, response, scorers)
        body = result.model_dump(mode="json")
        yield json.dumps({"i": index, "result": body}, sort_keys=True, ensure_ascii=False)


def _write(path: Path, lines: Iterator[str]) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as handle:
        for line in lines:
            handle.write(line + "\n")
            count += 1
    return count


def _diff(old: dict[str, object], new: dict[str, object], where: str = "") -> Iterator[str]:
    for key in sorted(set(old) | set(new)):
        left, right = old.get(key), new.get(key)
        if isinstance(left, dict) and isinstance(right, dict):
            yield from _diff(left, right, f"{where}.{key}")
        elif left != right:
            yield f"{where}.{key}: {left!r} != {right!r}"


def _check(path: Path, lines: Iterator[str]) -> int:
    differing = 0
    compared = 0
    digest = hashlib.sha256()
    with path.open(encoding="utf-8") as handle:
        for old_line, new_line in zip(handle, lines, strict=True):
            compared += 1
            digest.update(new_line.encode())
            if old_line.rstrip("\n") == new_line:
                continue
            differing += 1
            if differing <= 10:
                old, new = json.loads(old_line), json.loads(new_line)
                for problem in list(_diff(old, new))[:5]:
                    print(f"record {old['i']}: {problem}")
    print(f"compared {compared:,} results: {differing:,} differ (sha256 {digest.hexdigest()[:16]})")
    return 1 if differing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path, help="write the results of this code to FILE")
    mode.add_argument("--check", type=Path, help="compare the results of this code with FILE")
    parser.add_argument("--n", type=int, default=30_000, help="generated responses (30,000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled data folder")
    args = parser.parse_args()
    lines = records(args.n, args.seed, args.data)
    if args.write is not None:
        print(f"wrote {_write(args.write, lines):,} results to {args.write}")
        return 0
    return _check(args.check, lines)


if __name__ == "__main__":
    raise SystemExit(main())
