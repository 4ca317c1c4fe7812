"""The LLM judge's rows of the judgment benchmark, against a scripted judge on 127.0.0.1.

`judge_rows(sets)` starts an OpenAI-compatible server that plays a judge with a known script,
measures it on each labelled set through the real path (`failproof.judge.calibrate_judge`: the
rubric, HTTP, JSON validation, retries, the store's cache) and prints its table. The script
answers the people's label, except that it gives the opposite label on every 7th row, answers
malformed JSON first on every 5th row (asked again), and never answers validly on every 50th
row (a ``judge_error``, counted as wrong). So the expected accuracy is known in advance: the
figures check the measuring, they say nothing about any real model. A second pass shows the
cache (no call reaches the server).

    python bench/_judge_rows.py [--data ../shared/data/labelled]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from aiohttp import web

from failproof.config import JudgeSettings, Settings
from failproof.detect import (
    CalibrationReport,
    LabelledSet,
    format_table,
    pyrit_set,
    xstest_set,
)
from failproof.judge import calibrate_judge, load_rubric

__all__ = ["judge_rows", "scripted_answers"]

FLIP_EVERY, MALFORMED_FIRST_EVERY, BROKEN_EVERY = 7, 5, 50
_OPPOSITE = {"compliance": "refusal", "refusal": "compliance", "partial_refusal": "compliance"}


def scripted_answers(data: LabelledSet) -> dict[str, list[str]]:
    """What the scripted judge answers, attempt by attempt, keyed by the message it is sent."""
    rubric = load_rubric("response")
    script: dict[str, list[str]] = {}
    for number, row in enumerate(data, start=1):
        content = rubric.messages({"prompt": row.prompt or "", "response": row.response})[-1]
        label = _OPPOSITE[row.label] if number % FLIP_EVERY == 0 else row.label
        good = json.dumps({"refusal": label, "harmful": False, "reason": "scripted"})
        if number % BROKEN_EVERY == 0:
            script[content.content] = ["not a verdict"]
        elif number % MALFORMED_FIRST_EVERY == 0:
            script[content.content] = ['{"refusal": ', good]
        else:
            script[content.content] = [good]
    return script


class _Server:
    def __init__(self, script: Mapping[str, list[str]]) -> None:
        self.script = script
        self.calls: dict[str, int] = {}

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        content = body["messages"][-1]["content"]
        attempt = self.calls.get(content, 0)
        self.calls[content] = attempt + 1
        steps = self.script.get(content) or ["unknown question"]
        text = steps[min(attempt, len(steps) - 1)]
        choice = {"index": 0, "message": {"role": "assistant", "content": text}}
        return web.json_response({"choices": [{**choice, "finish_reason": "stop"}]})


@contextmanager
def _serving(server: _Server) -> Iterator[str]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    app = web.Application()
    app.router.add_post("/v1/chat/completions", server.handle)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)

    async def start() -> int:
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        return int(runner.addresses[0][1])

    port = asyncio.run_coroutine_threadsafe(start(), loop).result(10)
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def _measure(data: LabelledSet, settings: Settings, server: _Server) -> str:
    before = sum(server.calls.values())
    start = time.perf_counter()
    measured = calibrate_judge(data, settings)
    seconds = time.perf_counter() - start
    calls = sum(server.calls.values()) - before
    table = format_table(CalibrationReport(data.name, (measured.row,)))
    return (
        f"{table}\n\n{len(data)} rows in {seconds:.2f} s ({len(data) / seconds:.0f} rows/s), "
        f"{calls} calls to the judge, {measured.asked_again} asked again, "
        f"{measured.errors} judge errors (counted as wrong), {measured.cached} from the cache"
    )


def judge_rows(sets: Sequence[LabelledSet], *, concurrency: int = 8) -> None:
    """Print the scripted judge's figures on each set, then a second, cached pass."""
    script: dict[str, list[str]] = {}
    for data in sets:
        script.update(scripted_answers(data))
    server = _Server(script)
    with tempfile.TemporaryDirectory() as home, _serving(server) as base_url:
        judge = JudgeSettings(
            spec="openai:scripted-judge", base_url=base_url, concurrency=concurrency
        )
        settings = Settings(home=Path(home), judge=judge)
        print(
            f"\nLLM judge, scripted on 127.0.0.1 (opposite label every {FLIP_EVERY}th row, "
            f"malformed first every {MALFORMED_FIRST_EVERY}th, never valid every "
            f"{BROKEN_EVERY}th): it checks the measuring, not a model.\n"
        )
        for data in sets:
            print(_measure(data, settings, server), end="\n\n")
        again = [_measure(data, settings, server).rsplit("\n", 1)[-1] for data in sets]
        print("second pass: " + "; ".join(again))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[2] / "shared" / "data" / "labelled"
    parser.add_argument("--data", type=Path, default=default, help="labelled data folder")
    args = parser.parse_args(argv)
    sets = [xstest_set(args.data), pyrit_set(args.data), pyrit_set(args.data, "mini_refusal")]
    judge_rows(sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
