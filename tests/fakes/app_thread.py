"""An aiohttp application served on 127.0.0.1 (a free port) from a daemon thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from aiohttp import web


class AppThread:
    """``port = AppThread(build).start()`` ... ``stop()``: ``build`` makes the application."""

    def __init__(self, build: Callable[[], web.Application]) -> None:
        self.port = 0
        self._build = build
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def start(self) -> int:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the test server did not start")
        return self.port

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()

    async def _start(self) -> None:
        self._runner = web.AppRunner(self._build(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def _stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
