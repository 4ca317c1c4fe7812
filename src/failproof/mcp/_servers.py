"""Server arguments: ``stdio:COMMAND ARGS``, an HTTP URL (streamable HTTP, or SSE), or
``rogue:SCENARIO`` (failproof's own rogue server, started over stdio).

A URL whose path ends in ``/sse``, or written ``sse+http(s)://``, is an SSE server; any other
http(s) URL speaks streamable HTTP. Header values may name environment variables as ``${NAME}``:
they are expanded only when connecting, and the values are registered as secrets so that nothing
failproof writes or prints carries them.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

from failproof.errors import ConfigError
from failproof.guard import add_secret
from failproof.mcp._model import ServerSpec

__all__ = ["expand_headers", "parse_server", "rogue_server"]

_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_HINT = "give stdio:COMMAND ARGS (e.g. 'stdio:python server.py'), an http(s) URL, or rogue:SCENARIO"
_ROGUE_HINT = "'failproof mcp serve-rogue --help' lists the scenarios"


def parse_server(text: str, headers: Mapping[str, str] | None = None) -> ServerSpec:
    """The server ``text`` names; ``headers`` apply to HTTP servers."""
    text = text.strip()
    if text.startswith("rogue:"):
        return rogue_server(text[len("rogue:") :] or "all")
    if text.startswith("stdio:"):
        return _stdio(text[len("stdio:") :])
    return _http(text, dict(headers or {}))


def rogue_server(scenario: str) -> ServerSpec:
    """failproof's own rogue server (``failproof mcp serve-rogue``) over stdio."""
    if not re.fullmatch(r"[a-z0-9-]{1,40}", scenario):
        raise ConfigError(f"not a rogue scenario: {scenario[:60]!r}", hint=_ROGUE_HINT)
    command = [sys.executable, "-m", "failproof", "mcp", "serve-rogue", "--scenario", scenario]
    return ServerSpec(transport="stdio", command=command, label=f"rogue:{scenario}")


def _stdio(command_line: str) -> ServerSpec:
    try:
        command = shlex.split(command_line)
    except ValueError as exc:
        raise ConfigError(f"cannot split the stdio command {command_line!r}: {exc}") from None
    if not command:
        raise ConfigError("stdio: names no command", hint=_HINT)
    return ServerSpec(transport="stdio", command=command, label="stdio:" + shlex.join(command))


def _http(url: str, headers: dict[str, str]) -> ServerSpec:
    transport = "http"
    if url.startswith(("sse+http://", "sse+https://")):
        transport, url = "sse", url[len("sse+") :]
    try:
        parts = urlsplit(url)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"not an MCP server: {url[:200]!r}", hint=_HINT)
    if parts.password:
        raise ConfigError(
            "the server URL carries a password; secrets must come from the environment",
            hint="--header 'Authorization=Bearer ${TOKEN}' with TOKEN exported",
        )
    if transport == "http" and parts.path.rstrip("/").endswith("/sse"):
        transport = "sse"
    label = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    return ServerSpec(transport=transport, url=url, headers=headers, label=label)


def expand_headers(
    headers: Mapping[str, str], environ: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The headers with ``${NAME}`` replaced from the environment (each value a secret)."""
    env = os.environ if environ is None else environ

    def one(match: re.Match[str]) -> str:
        value = env.get(match.group(1))
        if value is None:
            raise ConfigError(
                f"the environment variable {match.group(1)} is not set",
                hint=f"export {match.group(1)} before connecting to the server",
            )
        add_secret(value)
        return value

    return {name: _ENV.sub(one, value) for name, value in headers.items()}
