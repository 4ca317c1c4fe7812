"""How fast `failproof.guard.redact` goes through text with secrets registered.

    python bench/redact_speed.py [--keys N] [--key-chars C] [--megabytes M]

Registers N random keys of C characters, then redacts M megabytes of report-like text (JSON
lines of ordinary answers, one leak of a key in base64 every megabyte); prints the time to
register the keys and the throughput of `redact`, best of three.
"""

from __future__ import annotations

import argparse
import base64
import json
import secrets
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from failproof.guard import add_secret, forget_secrets, redact


def text(megabytes: float, leak: str) -> str:
    line = json.dumps({"case_id": "c-0042", "output": "Here is the summary you asked for. " * 8})
    lines = [line] * int(megabytes * 1_000_000 / len(line))
    for index in range(0, len(lines), max(1, len(lines) // max(1, int(megabytes)))):
        lines[index] = json.dumps({"output": base64.b64encode(leak.encode()).decode()})
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=4)
    parser.add_argument("--key-chars", type=int, default=164)
    parser.add_argument("--megabytes", type=float, default=50.0)
    args = parser.parse_args()
    keys = [secrets.token_urlsafe(args.key_chars)[: args.key_chars] for _ in range(args.keys)]
    forget_secrets()
    start = time.perf_counter()
    for key in keys:
        add_secret(key)
    registered = time.perf_counter() - start
    body = text(args.megabytes, keys[0])
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        out = redact(body)
        best = min(best, time.perf_counter() - start)
    assert keys[0] not in out and "[redacted]" in out
    size = len(body) / 1e6
    print(f"{args.keys} keys of {args.key_chars} chars registered in {registered:.2f} s")
    print(f"redact: {size:.1f} MB in {best:.2f} s = {size / best:.0f} MB/s (best of 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
