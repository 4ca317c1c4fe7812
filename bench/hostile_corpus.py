"""Replay the whole hostile corpus and count what failproof handled.

Every attempt is one attack from ``tests/hostile``: hostile model outputs scored against several
kinds of case and rendered in every report format, hostile suite files, faulty servers on
127.0.0.1 run end to end through the command line, misbehaving targets (hung, exiting,
returning objects JSON cannot hold), forged reports and bad flags; then one module per surface
in ``tests/hostile/surfaces/`` (schemas that reach the network, tool calls that hide, secrets in
other clothes, ``python:`` targets that end their process, flags and settings, ...). An attempt
is mishandled when failproof crashes, freezes, passes what must fail, writes or prints a secret,
or lets markup or control characters reach the terminal.

    python bench/hostile_corpus.py [--only PREFIX] [--verbose]    # e.g. --only secret/

Prints attempts, handled and mishandled (with the reason for each one mishandled) and exits 1
when any attempt was mishandled.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.hostile.replay import Attempt, attempts


def run_one(attempt: Attempt) -> str | None:
    """None when handled, else why not."""
    with tempfile.TemporaryDirectory(prefix="failproof-hostile-") as folder:
        try:
            attempt.run(Path(folder))
        except BaseException as exc:  # a crash of any kind is a mishandled attempt
            return f"{type(exc).__name__}: {str(exc)[:300]}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="run only attempts whose name starts so")
    parser.add_argument("--verbose", action="store_true", help="name every attempt as it runs")
    args = parser.parse_args()
    chosen = [a for a in attempts() if a.name.startswith(args.only)]
    failures: dict[str, str] = {}
    by_kind: Counter[str] = Counter()
    start = time.perf_counter()
    for attempt in chosen:
        by_kind[attempt.name.split("/", 1)[0]] += 1
        why = run_one(attempt)
        if why is not None:
            failures[attempt.name] = why
        if args.verbose:
            print(f"{'MISHANDLED' if why else 'ok':>10}  {attempt.name}", flush=True)
    seconds = time.perf_counter() - start
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(by_kind.items()))
    print(f"hostile corpus: {len(chosen)} attempts ({kinds}) in {seconds:.1f} s")
    print(f"handled     {len(chosen) - len(failures)}")
    print(f"mishandled  {len(failures)}")
    for name, why in sorted(failures.items()):
        print(f"  {name}: {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
