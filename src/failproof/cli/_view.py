"""``failproof view``: browse the stored runs in a local, read-only web page."""

from __future__ import annotations

import errno
from typing import Annotated

import typer

from failproof.cli._app import ConfigOpt, VerboseOpt, app, settings_from
from failproof.cli._output import stderr
from failproof.errors import InputError


@app.command("view")
def view(
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="Port to listen on (0 picks a free one).")
    ] = 8765,
    host: Annotated[str, typer.Option(help="Address to bind; loopback only by default.")] = (
        "127.0.0.1"
    ),
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help="Allow a non-loopback --host: anyone who can reach it can read every output.",
        ),
    ] = False,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the page in a web browser.")
    ] = False,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Serve the runs in the store: each run's report, and any two runs side by side.

    Read-only: the store is opened with SQLite's read-only mode and only GET is answered.
    """
    from failproof.view import make_server

    settings = settings_from(config)
    try:
        server = make_server(
            settings, host=host, port=port, allow_remote=allow_remote, quiet=not verbose
        )
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        raise InputError(
            f"port {port} on {host} is in use",
            hint="serve on another with --port N, or --port 0 for any free port",
        ) from None
    stderr.print(
        f"failproof view: serving {settings.db_path} at {server.url} (Ctrl-C stops)",
        highlight=False,
    )
    if open_browser:
        import webbrowser  # only when a browser is to be opened

        webbrowser.open(server.url)
    with server:
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            stderr.print("failproof view: stopped", highlight=False)
