"""The TF-IDF matrix of the failure geometry: a compressed sparse row matrix on numpy alone.

`Csr` holds the matrix in plain numpy arrays. A tiny run's geometry (under about 30 cases: a
matrix of fewer than `SCIPY_FROM` stored numbers) does its products itself, with
`numpy.bincount`, which adds in the order of the stored entries. That is the order scipy's
sparse kernels add in, so the results are the same numbers to the last bit
(``tests/metrics/test_geometry_csr.py`` holds them to a loop written from the definition, and to
scipy where it is installed). From `SCIPY_FROM` stored entries the products are handed to
scipy's C loops, which are then the faster: the loops of its compiled ``_sparsetools``
extension, called as ``scipy.sparse`` calls them, and loaded alone (`load_kernels`, a few
milliseconds of CPU) rather than through ``import scipy.sparse`` (about 0.18 s after numpy, most
of it modules the products never use).

Every product takes float64 operands and returns float64, as scipy does for a float32 matrix
times a float64 one.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

__all__ = ["SCIPY_FROM", "Csr", "load_kernels"]

#: Stored entries from which products go to scipy's loops: from about 30 cases, where a geometry
#: costs less with them than with numpy's, their first load (a few ms) included. (It was 20,000
#: while they came with ``import scipy.sparse``.)
SCIPY_FROM = 2_000

Floats = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Csr:
    """``data[indptr[i]:indptr[i+1]]`` are row ``i``'s entries, in columns ``indices[...]``
    (sorted within a row, no repeats: the canonical form)."""

    data: NDArray[np.float32]
    indices: NDArray[np.int64]
    indptr: NDArray[np.int64]
    shape: tuple[int, int]

    @classmethod
    def counts(
        cls, rows: NDArray[np.int64], cols: NDArray[np.int64], shape: tuple[int, int]
    ) -> Csr:
        """How often each ``(row, col)`` pair occurs, as a matrix."""
        keys, counts = np.unique(rows * shape[1] + cols, return_counts=True)
        per_row = np.bincount(keys // max(shape[1], 1), minlength=shape[0])
        indptr = np.concatenate(([0], np.cumsum(per_row))).astype(np.int64)
        return cls(counts.astype(np.float32), keys % max(shape[1], 1), indptr, shape)

    @classmethod
    def stack(cls, blocks: list[Csr], columns: int) -> Csr:
        """The rows of ``blocks``, one after another."""
        if len(blocks) <= 1:
            empty = np.zeros(0, np.int64)
            return blocks[0] if blocks else cls.counts(empty, empty, (0, columns))
        ends = np.cumsum([0] + [b.nnz for b in blocks[:-1]])
        tails = [b.indptr[1:] + end for b, end in zip(blocks, ends, strict=True)]
        indptr = np.concatenate([np.zeros(1, np.int64), *tails])
        rows = sum(b.shape[0] for b in blocks)
        data = np.concatenate([b.data for b in blocks])
        return cls(data, np.concatenate([b.indices for b in blocks]), indptr, (rows, columns))

    @property
    def nnz(self) -> int:
        return len(self.data)

    def with_data(self, data: NDArray[np.float32]) -> Csr:
        """The same pattern of entries holding ``data``."""
        return Csr(data, self.indices, self.indptr, self.shape)

    def toarray(self) -> NDArray[np.float32]:
        """The matrix written out in full."""
        out = np.zeros(self.shape, dtype=np.float32)
        out[self.rows, self.indices] = self.data
        return out

    @cached_property
    def rows(self) -> NDArray[np.int64]:
        """The row of every stored entry."""
        return np.repeat(np.arange(self.shape[0], dtype=np.int64), np.diff(self.indptr))

    @property
    def T(self) -> _Transposed:
        return _Transposed(self)

    def __matmul__(self, dense: NDArray[np.floating]) -> Floats:
        """``self @ dense``: row i is the sum, in stored order, of ``data * dense[column]``."""
        if self.nnz >= SCIPY_FROM:
            return _kernel_product("csr", self, self.shape, dense)
        return _sums(self.rows, self.indices, self._data64, dense, self.shape[0])

    def transposed_product(self, dense: NDArray[np.floating]) -> Floats:
        """``self.T @ dense``: column j gathers ``data * dense[row]`` in stored order (scipy's
        CSC product walks the entries in the same order)."""
        if self.nnz >= SCIPY_FROM:  # the same arrays read as compressed columns: the transpose
            return _kernel_product("csc", self, self.shape[::-1], dense)
        return _sums(self.indices, self.rows, self._data64, dense, self.shape[1])

    def group_sums(self, groups: NDArray[np.int_], k: int) -> Floats:
        """``(k, columns)``: the sum of the rows of each group, rows added in order."""
        keys = groups[self.rows] * self.shape[1] + self.indices
        sums = np.bincount(keys, weights=self._data64, minlength=k * self.shape[1])
        return np.asarray(sums, dtype=np.float64).reshape(k, self.shape[1])

    def column_means(self) -> NDArray[np.float32]:
        """The mean of every column, as scipy's ``mean(axis=0)`` computes it in float32:
        each entry scaled by ``1 / rows``, then the column's entries added in stored order."""
        scaled = self.data * np.float32(1.0 / max(self.shape[0], 1))
        means = np.zeros(self.shape[1], dtype=np.float32)
        np.add.at(means, self.indices, scaled)
        return means

    @cached_property
    def _data64(self) -> Floats:
        return self.data.astype(np.float64)


def _kernel_product(
    form: str, matrix: Csr, shape: tuple[int, int], dense: NDArray[np.floating]
) -> Floats:
    """``matrix @ dense`` by scipy's loop for ``form`` (``csr``, or ``csc`` for the transpose),
    called as ``scipy.sparse`` calls it: a vector (or a one-column matrix) by ``*_matvec``, any
    wider matrix by ``*_matvecs``, into zeros of the operands' common type."""
    kernels, operand = load_kernels(), np.asarray(dense)
    rows, columns = shape
    if operand.ndim == 1 or operand.shape[1] == 1:
        out = np.zeros(rows, dtype=np.result_type(matrix.data, operand))
        loop = getattr(kernels, f"{form}_matvec")
        loop(rows, columns, matrix.indptr, matrix.indices, matrix.data, operand.ravel(), out)
        return out if operand.ndim == 1 else out.reshape(-1, 1)
    width = operand.shape[1]
    out = np.zeros((rows, width), dtype=np.result_type(matrix.data, operand))
    loop = getattr(kernels, f"{form}_matvecs")
    loop(rows, columns, width, matrix.indptr, matrix.indices, matrix.data, operand.ravel(), out)
    return out


@cache
def load_kernels() -> ModuleType:
    """scipy's compiled sparse loops (``scipy.sparse._sparsetools``): the module ``scipy.sparse``
    uses where it is imported already, else the extension loaded on its own, where it is found
    (a few milliseconds of CPU, against about 0.18 s to import ``scipy.sparse``; a later import of
    ``scipy.sparse`` uses this one). A run loads it ahead, while it waits for answers, when its
    geometry will be large enough to use it."""
    name = "scipy.sparse._sparsetools"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    alone = _extension_alone(name)
    if alone is not None:
        return alone
    from scipy.sparse import _sparsetools  # type: ignore[import-untyped]

    kernels: ModuleType = _sparsetools
    return kernels


def _extension_alone(name: str) -> ModuleType | None:
    """The compiled module ``name`` of an installed package, loaded without importing its
    packages (whose modules it does not use); None when its file is not where it should be."""
    package = importlib.util.find_spec(name.partition(".")[0])
    if package is None or package.origin is None:
        return None
    folder = Path(package.origin).parent.joinpath(*name.split(".")[1:-1])
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name.rpartition('.')[2]}{suffix}"
        if path.is_file():
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                return None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


@dataclass(frozen=True)
class _Transposed:
    """``matrix.T``, for the one thing done with it: ``matrix.T @ dense``."""

    matrix: Csr

    def __matmul__(self, dense: NDArray[np.floating]) -> Floats:
        return self.matrix.transposed_product(dense)


def _sums(
    into: NDArray[np.int64],
    take: NDArray[np.int64],
    data: Floats,
    dense: NDArray[np.floating],
    size: int,
) -> Floats:
    """``out[into[e]] += data[e] * dense[take[e]]`` for every entry e in order, column by column
    of ``dense`` (`numpy.bincount` adds its weights in order, from zero)."""
    wide = np.asarray(dense, dtype=np.float64)
    out = np.empty((size, wide.shape[1]), dtype=np.float64)
    for column in range(wide.shape[1]):
        out[:, column] = np.bincount(into, weights=data * wide[take, column], minlength=size)
    return out
