"""``failproof view``: a local, read-only web server over the results store.

A list of runs with their headline numbers, each run's HTML report, and a side-by-side
comparison of two runs. It binds 127.0.0.1 by default and opens the store read-only.
"""

from failproof.view._server import ViewServer, make_server

__all__ = [
    "ViewServer",
    "make_server",
]
