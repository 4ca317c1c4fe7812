"""Length-prefixed pickles over a stream socket: how failproof talks to the processes it forks
(scoring workers, the failure geometry's process). Both ends are failproof, in one run."""

from __future__ import annotations

import pickle
import socket
import struct
from typing import Any

__all__ = ["HEADER", "frame", "recv_frame"]

#: Each frame's length, before it.
HEADER = struct.Struct(">Q")


def frame(payload: Any) -> bytes:
    """``payload`` pickled, with its length in front."""
    data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def _recv_exact(sock: socket.socket, size: int) -> bytes | None:
    """Exactly ``size`` bytes from a blocking socket; None when it closes first."""
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(size - len(chunks))
        if not chunk:
            return None
        chunks += chunk
    return bytes(chunks)


def recv_frame(sock: socket.socket) -> tuple[bool, Any]:
    """The next frame's payload from a blocking socket: ``(True, payload)``, or ``(False,
    None)`` when the socket closes first."""
    header = _recv_exact(sock, HEADER.size)
    body = None if header is None else _recv_exact(sock, HEADER.unpack(header)[0])
    if body is None:
        return False, None
    return True, pickle.loads(body)
