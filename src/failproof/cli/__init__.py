"""The ``failproof`` command: a thin layer over the library API.

`main` owns the exit codes: a `FailproofError` or a usage error is one line on stderr and exit 3
(a traceback only with ``--verbose``); commands exit 0 / 1 / 2 by their verdict.
"""

from __future__ import annotations

import gc
import sys
import traceback
from collections.abc import Sequence
from typing import TYPE_CHECKING

import typer

from failproof.cli import _commands
from failproof.errors import FailproofError
from failproof.guard._secrets import redacting_std_streams
from failproof.guard._text import strip_controls

__all__ = ["app", "entry", "main"]

if TYPE_CHECKING:
    from failproof.cli._app import app
else:

    def __getattr__(name: str) -> object:
        """``app``: the application with every command registered."""
        if name == "app":
            return _commands.application()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns (and, as a script, exits with) the exit code.

    Everything printed passes through the secret redactor, whatever part of failproof prints it.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    with redacting_std_streams():
        return _main(args)


def _say(text: str) -> None:
    """One line on stderr; text from outside in it is shown with its controls escaped."""
    print(f"failproof: {strip_controls(text, keep_newlines=False)}", file=sys.stderr)


def _main(args: list[str]) -> int:
    from failproof.cli._app import remember_command_line

    verbose = "--verbose" in args or "-v" in args
    remember_command_line(args)
    try:
        code = _commands.application(args)(args=args, prog_name="failproof", standalone_mode=False)
    except SystemExit as exc:  # typer.Exit inside standalone_mode=False still exits here
        return _code(exc.code)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        _say("aborted")
        return 130
    except typer.TyperException as exc:  # usage errors: exit 3, not click's 2 (2 means Review)
        _say(f"error: {_usage_error(exc)}")
        return 3
    except FailproofError as exc:
        if verbose:
            traceback.print_exc()
        _say(f"error: {exc}")
        return 3
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except BaseExceptionGroup as group:  # a task group (anyio, asyncio) wraps what its tasks raised
        return _group(group, verbose)
    except OSError as exc:  # a file or folder failproof was pointed at
        if verbose:
            traceback.print_exc()
        _say(f"error: {_os_error(exc)}")
        return 3
    except Exception as exc:
        if verbose:
            traceback.print_exc()
        shown = f"{exc!r}"[:300]  # an error may hold a whole file (UnicodeDecodeError.object)
        _say(f"unexpected error: {shown} (run again with --verbose for the traceback)")
        return 3
    return _code(code)


def _group(group: BaseExceptionGroup[BaseException], verbose: bool) -> int:
    """A stop inside a task group is a stop (130); any other failure in one is unexpected (3)."""
    if group.subgroup(KeyboardInterrupt) is not None:
        _say("interrupted")
        return 130
    if verbose:
        traceback.print_exc()
    shown = f"{group!r}"[:300]
    _say(f"unexpected error: {shown} (run again with --verbose for the traceback)")
    return 3


def _usage_error(exc: Exception) -> str:
    """A usage error in one line, with where to read how the command is used."""
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", None) or "failproof"
    return f"{message} (see '{command} --help')"


def _os_error(exc: OSError) -> str:
    """``cannot use PATH: reason`` for an error about a file, else the error's own text."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return reason
    return f"cannot use {exc.filename}: {reason} (check the path and its permissions)"


def _code(code: object) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 3


def entry() -> None:
    """The console script: run the CLI and exit with its code.

    The collector is tuned for a process the CLI owns (`own_process`), and numpy will load with
    one OpenBLAS thread (`one_blas_thread_at_load`). What is left once the
    command returned is frozen first: the interpreter's collections at exit then leave it alone
    (they walk every object, which took longer than writing the report of a 2,000-case run), and
    its memory goes back with the process.
    """
    from failproof.cli._blas import one_blas_thread_at_load
    from failproof.cli._heap import own_process

    own_process()
    one_blas_thread_at_load()
    code = main()
    gc.freeze()
    sys.exit(code)
