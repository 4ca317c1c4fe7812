"""The machine's speed now, printed beside a benchmark's figures.

The same commands on the same kind of machine read faster or slower from hour to hour (a shared
host's cores do not always run at one speed), by more than many changes measured here. A
benchmark prints `python_speed` at its start and end: a figure from another hour is comparable
only beside it, and a ratio measured in one run (a tree against a baseline, failproof against
the bare loop) only when the machine's speed held between the two.
"""

from __future__ import annotations

import time

__all__ = ["python_speed"]


def python_speed() -> str:
    """CPU milliseconds one fixed piece of pure-Python work takes here now (the best of five:
    noise only ever slows it down)."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        words = {f"w{i}": i for i in range(200_000)}
        total = sum(v for k, v in words.items() if k[-1] != "7")
        sorted(words, key=len)
        best = min(best, time.process_time() - start)
    assert total > 0
    return f"{best * 1000:.0f} ms"
