"""Which HTTP client should the openai: target use? The same calls through three clients.

    python bench/runner_http_clients.py [--requests 2000] [--latency-ms 100]

Each row sends ``requests`` chat completions with ``concurrency`` in flight through one target:
``openai:`` (aiohttp, failproof's own call), ``openai-sdk:`` with the SDK's aiohttp transport,
and ``openai-sdk:`` with the SDK's default httpx transport. It prints the fraction of the ideal
time (requests x latency / concurrency) and the client CPU per request. The server runs in its
own process. No scoring, no store: only the clients.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import PROMPT, cpu_seconds, load_average
from runner_server import spawn

from failproof.core import Case
from failproof.targets import create_target

CLIENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "aiohttp (openai:)": ("openai:bench", {}),
    "sdk + aiohttp": ("openai-sdk:bench", {"http_client": "aiohttp"}),
    "sdk + httpx": ("openai-sdk:bench", {"http_client": "httpx"}),
}


async def blast(spec: str, options: dict[str, Any], requests: int, concurrency: int) -> float:
    cases = [Case(id=f"c{i}", input=PROMPT.format(i=i)) for i in range(requests)]
    target = create_target(spec, {**options, "concurrency": concurrency, "timeout_s": 120})
    pending = iter(cases)
    failures = 0

    async def worker() -> None:
        nonlocal failures
        for case in pending:
            response = await target.generate(case)
            failures += response.error is not None

    async with target:
        await target.generate(cases[0])  # connect, import lazily-loaded modules
        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    assert failures == 0, f"{failures} failed"
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    parser.add_argument("--concurrency", type=int, nargs="*", default=[16, 64, 256])
    args = parser.parse_args()
    print(
        f"{args.requests} requests, {args.latency_ms:g} ms latency, load average {load_average()}"
    )
    print(f"{'client':<20} {'concurrency':>11} {'of ideal':>9} {'req/s':>7} {'CPU ms/req':>11}")
    with spawn(args.latency_ms) as base_url:
        for name, (spec, options) in CLIENTS.items():
            for concurrency in args.concurrency:
                cpu = cpu_seconds()
                elapsed = asyncio.run(
                    blast(spec, {**options, "base_url": base_url}, args.requests, concurrency)
                )
                used = cpu_seconds() - cpu
                ideal = args.requests * args.latency_ms / 1000 / concurrency
                print(
                    f"{name:<20} {concurrency:>11} {ideal / elapsed:>9.2f} "
                    f"{args.requests / elapsed:>7.0f} {1000 * used / args.requests:>11.3f}"
                )


if __name__ == "__main__":
    main()
