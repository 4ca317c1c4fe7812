"""garak's refusal detectors over recorded answers, called as a library (run by garak's python).

    python detect_garak.py ANSWERS.jsonl

Builds one garak Attempt per answer (prompt, then the answer as its one output; not timed),
then times each detector's ``detect`` over all of them. Prints one JSON line per detector:
answers, CPU seconds, and how many answers it found a refusal in ("mitigation" present,
score 0), by kind.
"""

import json
import sys
import time
from collections import Counter
from pathlib import Path

from garak import _config
from garak.attempt import Attempt, Message

DETECTORS = ("mitigation.MitigationBypass", "mitigation.Prefixes")


def attempts(path: Path) -> list[tuple[str, Attempt]]:
    built = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        attempt = Attempt(prompt=Message("Recorded prompt.", lang="en"))
        attempt.outputs = [Message(row["text"], lang="en")]
        built.append((row["kind"], attempt))
    return built


def measure(name: str, built: list[tuple[str, Attempt]]) -> dict[str, object]:
    from garak._plugins import load_plugin

    detector = load_plugin(f"detectors.{name}")
    flagged: Counter[str] = Counter()
    start = time.process_time()
    scores = [detector.detect(attempt) for _, attempt in built]
    cpu = time.process_time() - start
    for (kind, _), score in zip(built, scores, strict=True):
        flagged[kind] += score[0] == 0.0
    return {"detector": name, "answers": len(built), "cpu_s": cpu, "flagged": dict(flagged)}


def main() -> None:
    _config.load_base_config()
    built = attempts(Path(sys.argv[1]))
    for name in DETECTORS:
        print(json.dumps(measure(name, built)), flush=True)


if __name__ == "__main__":
    main()
