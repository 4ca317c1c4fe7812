"""An OpenAI-compatible chat-completions server for the runner benchmarks, in its own process.

    python bench/runner_server.py --latency-ms 100      # prints "PORT <n>" when ready

`spawn(latency_ms)` starts it as a subprocess so that the client's CPU is measured on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

ANSWER = json.dumps(
    {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
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


async def serve(latency_s: float) -> None:
    from aiohttp import web

    async def completions(request: web.Request) -> web.Response:
        await request.read()
        if latency_s:
            await asyncio.sleep(latency_s)
        return web.Response(body=ANSWER, content_type="application/json")

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
    await site.start()
    print(f"PORT {runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


@contextmanager
def spawn(latency_ms: float = 0.0) -> Iterator[str]:
    """Run the server in a subprocess; yields its base URL."""
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__)), "--latency-ms", str(latency_ms)],
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency-ms", type=float, default=0.0)
    args = parser.parse_args()
    with suppress(KeyboardInterrupt):
        asyncio.run(serve(args.latency_ms / 1000))
