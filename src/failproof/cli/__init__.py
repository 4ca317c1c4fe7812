"""The ``failproof`` command: a thin layer over the library API.

`main` owns the exit codes: a `FailproofError` or a usage error is one line on stderr and exit 3
(a traceback only with ``--verbose``); commands exit 0 / 1 / 2 by their verdict.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

import typer

# Importing a command module registers its commands; --help lists them in this order.
# isort: off
from failproof.cli import _run, _attack, _demo, _score, _rescore, _report, _view  # noqa: F401
from failproof.cli import _generate, _import  # noqa: F401
from failproof.cli import _suites, _runs, _safe, _calibrate, _config  # noqa: F401

# isort: on
from failproof.cli._app import app
from failproof.errors import FailproofError

__all__ = ["app", "entry", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns (and, as a script, exits with) the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = "--verbose" in args or "-v" in args
    try:
        code = app(args=args, prog_name="failproof", standalone_mode=False)
    except SystemExit as exc:  # typer.Exit inside standalone_mode=False still exits here
        return _code(exc.code)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        print("failproof: aborted", file=sys.stderr)
        return 130
    except typer.TyperException as exc:  # usage errors: exit 3, not click's 2 (2 means Review)
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            print(f"failproof: {exc.format_message()}", file=sys.stderr)
        return 3
    except FailproofError as exc:
        if verbose:
            traceback.print_exc()
        print(f"failproof: error: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("failproof: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if verbose:
            traceback.print_exc()
        print(
            f"failproof: unexpected error: {exc!r} (run again with --verbose for the traceback)",
            file=sys.stderr,
        )
        return 3
    return _code(code)


def _code(code: object) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 3


def entry() -> None:
    """The console script: run the CLI and exit with its code."""
    sys.exit(main())
