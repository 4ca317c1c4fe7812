"""MCP: scan the tool surface of Model Context Protocol servers, and serve a rogue one.

`scan_servers` lists each server's tools, resources and prompts, checks every definition
(hidden instructions, invisible characters, deceptive names, shadowing, secrets, over-broad
schemas), compares them with the pins, and probes tools the user allows. The SDK (the ``mcp``
extra) is imported only when a server is contacted.
"""

from failproof.mcp._model import McpScan, ServerSurface, ToolDef
from failproof.mcp._scan import ScanOptions, scan_servers
from failproof.mcp._servers import parse_server

__all__ = [
    "McpScan",
    "ScanOptions",
    "ServerSurface",
    "ToolDef",
    "parse_server",
    "scan_servers",
]
