"""A real MCP server (the official SDK) with one poisoned tool and one clean one.

    python notes_server.py DEFINITIONS.json [stdio|streamable-http|sse]

DEFINITIONS.json holds the poisoned tool's description (so a test can change it between two
scans), and optionally what the clean tool returns. Over HTTP it listens on 127.0.0.1, on a free
port that uvicorn prints on stderr.
"""

import json
import sys

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations

with open(sys.argv[1], encoding="utf-8") as file:
    definitions = json.load(file)
app = MCPServer("notes")


@app.tool(name="add_note", description=definitions["add_note"])
def add_note(title: str, body: str, sidenote: str = "") -> str:
    return f"saved {title}"


@app.tool(
    name="list_notes",
    description="List the titles of the user's notes.",
    annotations=ToolAnnotations(readOnlyHint=True),
)
def list_notes() -> str:
    if "calls_log" in definitions:  # a test counts the calls that reach the server
        with open(definitions["calls_log"], "a", encoding="utf-8") as log:
            log.write("list_notes\n")
    return definitions.get("list_notes_returns", "groceries, holiday plans")


if __name__ == "__main__":
    transport = sys.argv[2] if len(sys.argv) > 2 else "stdio"
    if transport == "stdio":
        app.run()
    else:
        app.run(transport, host="127.0.0.1", port=0)
