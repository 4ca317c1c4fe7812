"""numpy loaded with one OpenBLAS thread, in a process the CLI owns.

OpenBLAS starts a thread per core when numpy loads, and each one spins waiting for work before it
sleeps: about 0.05 CPU-seconds per process on two cores, more than many small runs spend on
their geometry. failproof asks for no second BLAS thread (the geometry runs on
``probe.geometry_threads``, 1 unless set, and raises the count through threadpoolctl when set
higher), so the CLI lets OpenBLAS start with one.

The variable is set only while numpy's own module runs and removed straight after, so the
commands, Python programs and Ray workers that failproof starts never inherit it. A user who set
any of OpenBLAS's thread variables keeps their setting.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["THREAD_VARIABLES", "one_blas_thread_at_load"]

#: The variables OpenBLAS reads for its thread count, in its order of precedence.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def one_blas_thread_at_load() -> None:
    """Have numpy, when it is first imported, start OpenBLAS with one thread (see the module).

    Does nothing when numpy is already loaded or a thread variable is set."""
    if "numpy" in sys.modules or any(name in os.environ for name in THREAD_VARIABLES):
        return
    if not any(isinstance(finder, _OneThreadFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OneThreadFinder())


class _OneThreadFinder(importlib.abc.MetaPathFinder):
    """Finds numpy as the other finders do, and wraps its loader; then steps aside."""

    def find_spec(  # the finder protocol's signature; numpy is found from the top
        self,
        fullname: str,
        path: Sequence[str] | None,  # noqa: ARG002
        target: ModuleType | None = None,  # noqa: ARG002
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "numpy":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _OneThreadLoader(spec.loader)
        return spec


class _OneThreadLoader(importlib.abc.Loader):
    """numpy's loader, run with ``OPENBLAS_NUM_THREADS=1`` in the environment."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        os.environ[THREAD_VARIABLES[0]] = "1"
        try:
            self._loader.exec_module(module)
        finally:
            os.environ.pop(THREAD_VARIABLES[0], None)

    def __getattr__(self, name: str) -> object:
        return getattr(self._loader, name)
