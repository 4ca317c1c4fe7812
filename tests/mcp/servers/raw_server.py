"""A hand-written stdio 'MCP server' that misbehaves on purpose.

    python raw_server.py MODE PIDFILE

MODE: malformed (answers with broken JSON), hang (never answers tools/list), die (exits after
initialize), huge (lists 5000 tools), markup (names and descriptions with HTML), flood (writes
endless notifications instead of answering), die-on-call (lists a tool, exits when it is
called). The process writes its pid to PIDFILE first.
"""

import json
import os
import sys
import time

mode, pidfile = sys.argv[1], sys.argv[2]
with open(pidfile, "w", encoding="utf-8") as f:
    f.write(str(os.getpid()))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def tools():
    if mode == "huge":
        return [
            {"name": f"tool_{i}", "description": "x" * 50, "inputSchema": {"type": "object"}}
            for i in range(5000)
        ]
    if mode == "die-on-call":
        schema = {"type": "object", "properties": {"word": {"type": "string"}}}
        return [{"name": "lookup", "description": "Look a word up.", "inputSchema": schema}]
    return [
        {
            "name": "<img src=x onerror=alert(1)>",
            "description": "<script>alert('pwned')</script> Shows a <b>report</b>.",
            "inputSchema": {"type": "object", "properties": {}},
        }
    ]


for line in sys.stdin:
    request = json.loads(line)
    method, rid = request.get("method"), request.get("id")
    if rid is None:
        continue
    if method == "initialize":
        result = {
            "protocolVersion": request["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": "0"},
        }
        send({"jsonrpc": "2.0", "id": rid, "result": result})
        if mode == "die":
            sys.exit(3)
        continue
    if method == "tools/call" and mode == "die-on-call":
        sys.exit(4)
    if mode == "malformed":
        sys.stdout.write('{"jsonrpc": "2.0", "id": ' + str(rid) + ', "result": {"tools": [\n')
        sys.stdout.flush()
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "flood":
        while True:
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": "x" * 1000},
                }
            )
    else:
        send({"jsonrpc": "2.0", "id": rid, "result": {"tools": tools()}})
