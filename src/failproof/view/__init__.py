"""``failproof view``: a local, read-only web server over the results store.

A list of runs with their headline numbers, each run's HTML report, and a side-by-side
comparison of two runs. It binds 127.0.0.1 by default and opens the store read-only.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.view._app import Reply, ViewApp
    from failproof.view._reader import ReadOnlyStore
    from failproof.view._server import ViewServer, check_host, make_server

__all__ = [
    "ReadOnlyStore",
    "Reply",
    "ViewApp",
    "ViewServer",
    "check_host",
    "make_server",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._app": ("Reply", "ViewApp"),
        "._reader": ("ReadOnlyStore",),
        "._server": ("ViewServer", "check_host", "make_server"),
    },
)
