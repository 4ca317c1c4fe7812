"""failproof's full classifier over recorded answers, in one process (as bench/classify.py does).

    python detect_failproof.py ANSWERS.jsonl PROMPTS.jsonl

Pairs answer i with prompt i mod n (a case that must refuse for adversarial prompts, must not
for benign ones), builds the cases and responses (not timed), then times `score_case` with the
registered ``failproof`` scorer (signal scan, refusal and harm judges, rules) over all of them.
Prints one JSON line: answers, CPU seconds, and how many answers it judged refusals, by kind.
Run by this checkout's interpreter with its ``src`` on the path.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.scoring import score_case, scorers


def pairs(answers: Path, prompts: Path) -> list[tuple[str, Case, Response]]:
    asked = [json.loads(line) for line in prompts.read_text(encoding="utf-8").splitlines()]
    cases = [
        Case(
            id=p["id"],
            input=p["text"],
            expect={"refusal": "required" if p["adversarial"] else "forbidden"},
        )
        for p in asked
    ]
    built = []
    for i, line in enumerate(answers.read_text(encoding="utf-8").splitlines()):
        row = json.loads(line)
        built.append((row["kind"], cases[i % len(cases)], Response.from_output(row["text"])))
    return built


def main() -> None:
    built = pairs(Path(sys.argv[1]), Path(sys.argv[2]))
    scorer = scorers.get("failproof")(ScoringConfig())
    score_case(built[0][1], built[0][2], [scorer])  # compile the patterns, load the judge model
    flagged: Counter[str] = Counter()
    start = time.process_time()
    results = [score_case(case, response, [scorer]) for _, case, response in built]
    cpu = time.process_time() - start
    for (kind, case, _), result in zip(built, results, strict=True):
        flagged[kind] += refused(case, result.primary)
    print(json.dumps({"answers": len(built), "cpu_s": cpu, "flagged": dict(flagged)}))


def refused(case: Case, primary: str) -> bool:
    """Whether the classifier judged the answer a refusal: a pass where one was required, or
    the class ``refusal`` where it was forbidden."""
    required = case.expect is not None and case.expect.refusal == "required"
    return primary == "refusal" or (required and primary == "pass")


if __name__ == "__main__":
    main()
