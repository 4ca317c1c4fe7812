"""An OpenAI-compatible chat-completions server for the runner benchmarks, in its own process.

    python bench/runner_server.py --latency-ms 100 [--vary]   # prints "PORT <n>" when ready

`spawn(latency_ms)` starts it as a subprocess so that the client's CPU is measured on its own.
It counts what it is sent: `GET /v1/stats` answers {"chat_completions": n, "other": m} ("other"
is any request to another path, answered 404), so a client that retries or caches shows it.
With --vary every answer is different (the request's number is in it), so no cache can help.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

ANSWER = json.dumps(
    {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": 1700000000,
        "model": "bench",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "I can help with that. Here is a short, plain answer.",
                },
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 20, "completion_tokens": 14, "total_tokens": 34},
    }
).encode()


VARIED = (
    "I can help with that. Here is a short, plain answer",
    "I'm sorry, but I can't help with that request",
    "Sure: the steps are listed below, one per line",
    "That depends on the details; here is the general rule",
)


def varied_answer(number: int) -> bytes:
    """Answer number ``number``: one of a few texts, made unique by the number."""
    body = json.loads(ANSWER)
    body["id"] = f"chatcmpl-bench-{number}"
    body["choices"][0]["message"]["content"] = f"{VARIED[number % len(VARIED)]} (#{number})."
    return json.dumps(body).encode()


async def serve(latency_s: float, vary: bool = False) -> None:
    from aiohttp import web

    counts = {"chat_completions": 0, "other": 0}

    async def completions(request: web.Request) -> web.Response:
        await request.read()
        counts["chat_completions"] += 1
        answer = varied_answer(counts["chat_completions"]) if vary else ANSWER
        if latency_s:
            await asyncio.sleep(latency_s)
        return web.Response(body=answer, content_type="application/json")

    async def stats(request: web.Request) -> web.Response:
        return web.json_response(counts)

    async def other(request: web.Request) -> web.Response:
        counts["other"] += 1
        raise web.HTTPNotFound()

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_get("/v1/stats", stats)
    app.router.add_route("*", "/{tail:.*}", other)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
    await site.start()
    print(f"PORT {runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


@contextmanager
def spawn(latency_ms: float = 0.0, *, vary: bool = False) -> Iterator[str]:
    """Run the server in a subprocess; yields its base URL."""
    process = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__)),
            "--latency-ms",
            str(latency_ms),
            *(["--vary"] if vary else []),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().split()
        yield f"http://127.0.0.1:{line[1]}/v1"
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


def request_counts(base_url: str) -> dict[str, int]:
    """What the server at ``base_url`` has been sent so far, by kind."""
    with urllib.request.urlopen(f"{base_url}/stats", timeout=10) as reply:
        counts: dict[str, int] = json.load(reply)
    return counts


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    parser.add_argument("--vary", action="store_true", help="a different answer every time")
    args = parser.parse_args()
    with suppress(KeyboardInterrupt):
        asyncio.run(serve(args.latency_ms / 1000, args.vary))
