"""The floor of the whole-command benchmark: a bare aiohttp loop that sends every prompt.

    python bench/bare_aiohttp.py PROMPTS.jsonl BASE_URL CONCURRENCY

One chat completion per line of PROMPTS.jsonl (its ``text``), ``CONCURRENCY`` in flight through
one session whose pool holds that many connections, each answer read and parsed as JSON; it
prints the number of answers. Nothing is scored, stored or reported: what any tool that sends
the same requests from Python cannot go below.
"""

from __future__ import annotations

import asyncio
import json
import sys


async def send_all(texts: list[str], base_url: str, concurrency: int) -> int:
    import aiohttp

    pending = iter(texts)
    answered = 0
    connector = aiohttp.TCPConnector(limit=concurrency)
    headers = {"Authorization": "Bearer bench"}

    async def worker(session: aiohttp.ClientSession) -> None:
        nonlocal answered
        for text in pending:
            body = {"model": "bench", "messages": [{"role": "user", "content": text}]}
            async with session.post(f"{base_url}/chat/completions", json=body) as reply:
                data = await reply.json()
                answered += bool(data["choices"][0]["message"]["content"])

    async with aiohttp.ClientSession(connector=connector, headers=headers) as session:
        await asyncio.gather(*(worker(session) for _ in range(concurrency)))
    return answered


def main() -> None:
    path, base_url, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, encoding="utf-8") as lines:
        texts = [json.loads(line)["text"] for line in lines if line.strip()]
    print(asyncio.run(send_all(texts, base_url, concurrency)))


if __name__ == "__main__":
    main()
