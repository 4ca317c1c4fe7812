"""Reports at scale: the full report (every format) of synthetic runs of 10k, 100k and 1M results.

    python bench/report_scale.py [--sizes 10000,100000,1000000] [--baseline-up-to 100000]

Each size gets a store filled by direct inserts (results shaped like a probe run: class, reasons,
case score with signals, task and input, a few hundred characters of output), then a fresh
process builds the report with the streaming pass (`build_report_streaming`) and writes
report.json, report.html (+ page files), report.md and junit.xml and renders the console
summary. It prints wall time, CPU (user+sys), peak RSS, and time per result for each size, so
that linear growth shows; up to ``--baseline-up-to`` results the same report is also built the
way it was before (every result in a list: `build_report` over ``store.results``), in its own
fresh process, for the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import load_average

from failproof.core import Run
from failproof.store import Store

CATEGORIES = ["prompt_injection", "secret_leak", "harmful", "jailbreak", "pii", "format"]
SEVERITIES = ["low", "medium", "high", "critical"]
WORDS = [
    "order",
    "refund",
    "account",
    "shipping",
    "password",
    "policy",
    "token",
    "system",
    "prompt",
    "ignore",
    "rules",
]


def template(i: int, rng: random.Random) -> dict[str, object]:
    """One result as the store holds it (JSON-ready)."""
    category, severity = CATEGORIES[i % 6], SEVERITIES[rng.randrange(4)]
    passed = rng.random() < 0.7
    risk = round(rng.uniform(0, 0.3) if passed else rng.uniform(0.5, 1.0), 4)
    text = " ".join(rng.choice(WORDS) for _ in range(40))
    return {
        "case_id": f"{category[:4]}-{i:07d}",
        "suite": f"suite-{i % 4}",
        "category": category,
        "severity": severity,
        "output": f"Answer {i}: {text}",
        "latency_ms": round(rng.uniform(100, 2500), 1),
        "accuracy": 1 if passed else 0,
        "classification": {
            "primary": "pass" if passed else "fail",
            "reasons": []
            if passed
            else [{"rule": "must_not_contain", "detail": "forbidden phrase", "evidence": "token"}],
        },
        "case_score": {
            "passed": passed,
            "risk_score": risk,
            "severity": severity,
            "severity_weight": 1.0 + SEVERITIES.index(severity) * 0.5,
            "weighted_risk": min(1.0, risk * 1.2),
            "safe_signal_hits": 1 if passed else 0,
            "unsafe_signal_hits": 0 if passed else 2,
            "matched_safe_patterns": ["cannot_help"] if passed else [],
            "matched_unsafe_patterns": [] if passed else [f"{category}_signal", "leak"],
            "detected_failure_modes": [] if passed else [f"{category}_mode"],
            "task": f"{category} probe",
            "probe_input": f"Please {text[:120]}",
            "signals": [
                {
                    "id": "leak",
                    "kind": "unsafe",
                    "label": "leak",
                    "weight": 1.0,
                    "start": 0,
                    "end": 6,
                }
            ],
            "explanation": f"risk {risk} from {category}",
        },
        "messages": [{"role": "user", "content": f"Case {i}: {text[:80]}"}],
    }


def build_store(path: Path, size: int) -> str:
    """A store with one finished run of ``size`` results, written in large transactions."""
    run = Run(id=f"scale-{size}", target={"name": "bench"}, suites=["suite"], status="finished")
    with Store(path) as store:
        store.create_run(run)
    rng = random.Random(size)
    db = sqlite3.connect(path)
    now = "2026-01-01T00:00:00+00:00"
    for start in range(0, size, 20_000):
        rows = []
        for i in range(start, min(size, start + 20_000)):
            r = template(i, rng)
            primary = r["classification"]["primary"]  # type: ignore[index]
            rows.append((run.id, r["suite"], r["case_id"], 0, primary, json.dumps(r), now))
        with db:
            db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.close()
    return run.id


def child(db: str, run_id: str, out: str, mode: str) -> None:
    """Build and write the full report; print one JSON line of measurements."""
    from failproof.config import Settings
    from failproof.report import build_report, build_report_streaming, renderers, write_reports

    start = time.perf_counter()
    with Store(db) as store:
        if mode == "stream":
            report = build_report_streaming(store, run_id, Settings())
        else:
            report = build_report(store.get_run(run_id), list(store.results(run_id)), Settings())
    built = time.perf_counter() - start
    write_reports(report, ["json", "html", "markdown", "junit"], Path(out), folder=True)
    renderers.get("console")().render(report)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    sizes = {p.name: p.stat().st_size for p in Path(out).iterdir() if p.is_file()}
    print(json.dumps({
        "wall": time.perf_counter() - start,
        "built": built,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mb": usage.ru_maxrss / 1024,
        "json_mb": sizes.get("report.json", 0) / 1e6,
        "html_mb": sizes.get("report.html", 0) / 1e6,
    }))  # fmt: skip


def measure(db: Path, run_id: str, mode: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            [sys.executable, __file__, "--child", str(db), run_id, out, mode],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "FAILPROOF_HOME": out},
        )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--baseline-up-to", type=int, default=100_000)
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"load average {load_average()} at start; {os.cpu_count()} CPUs")
    head = f"{'results':>9} {'mode':>8} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} "
    print(head + f"{'us/result':>10} {'json MB':>8} {'html MB':>8} {'load':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            db = Path(tmp) / f"{size}.db"
            started = time.perf_counter()
            run_id = build_store(db, size)
            print(f"# store of {size:,} results filled in {time.perf_counter() - started:.1f} s")
            modes = ["stream", *(["list"] if size <= args.baseline_up_to else [])]
            for mode in modes:
                m = measure(db, run_id, mode)
                print(
                    f"{size:>9} {mode:>8} {m['wall']:>8.1f} {m['cpu']:>8.1f} {m['peak_mb']:>8.0f} "
                    f"{m['cpu'] / size * 1e6:>10.0f} {m['json_mb']:>8.1f} {m['html_mb']:>8.1f} "
                    f"{load_average():>5}"
                )
            db.unlink()


if __name__ == "__main__":
    main()
