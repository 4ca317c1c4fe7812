"""A real MCP server (the official SDK) that writes down every tool call it receives.

    python recording_server.py LOG

One tool, ``send_message(to, body, meta)``. Each call that reaches the server appends one line to
LOG: the arguments it received, as JSON. A test reads LOG to see what was forwarded.
"""

import json
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer

log_path = sys.argv[1]
app = MCPServer("recording")


@app.tool(name="send_message", description="Send a message to one address.")
def send_message(to: str, body: str, meta: dict[str, Any] | None = None) -> str:
    received = {"to": to, "body": body, "meta": meta}
    with open(log_path, "a", encoding="utf-8") as log:
        log.write(json.dumps(received) + "\n")
    return f"sent to {to}"


if __name__ == "__main__":
    app.run()
