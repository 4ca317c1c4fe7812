"""The geometry's sparse matrix: every product is the sum of the stored entries in stored order,
to the last bit, whichever loops (numpy's below `SCIPY_FROM` entries, scipy's above) compute it."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from numpy.typing import NDArray

from failproof.metrics import _geometry_csr
from failproof.metrics._geometry_csr import Csr

SIZES = [
    pytest.param((1, 1, 1), id="one-entry"),
    pytest.param((7, 11, 20), id="small"),
    pytest.param((60, 300, 2000), id="wider"),
    pytest.param((5, 9, 0), id="empty"),
]


def _random(shape_and_pairs: tuple[int, int, int], seed: int = 0) -> Csr:
    rows, cols, pairs = shape_and_pairs
    rng = np.random.default_rng(seed)
    matrix = Csr.counts(rng.integers(0, rows, pairs), rng.integers(0, cols, pairs), (rows, cols))
    return matrix.with_data(rng.random(matrix.nnz).astype(np.float32) + np.float32(0.5))


def _entries(matrix: Csr) -> list[tuple[int, int, float]]:
    rows = matrix.rows.tolist()
    return list(zip(rows, matrix.indices.tolist(), matrix.data.tolist(), strict=True))


def _by_definition(
    matrix: Csr, dense: NDArray[np.float64], *, transposed: bool = False
) -> NDArray[np.float64]:
    """``matrix @ dense`` (or ``matrix.T @ dense``), one stored entry after another."""
    out = np.zeros((matrix.shape[1 if transposed else 0], dense.shape[1]))
    for row, col, value in _entries(matrix):
        into, take = (col, row) if transposed else (row, col)
        for k in range(dense.shape[1]):
            out[into, k] += value * dense[take, k]
    return out


@pytest.fixture(params=[10**12, 1], ids=["numpy-loops", "scipy-loops"])
def loops(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    if request.param == 1:
        pytest.importorskip("scipy.sparse")
    monkeypatch.setattr(_geometry_csr, "SCIPY_FROM", request.param)
    return int(request.param)


def test_counts_are_canonical_pair_counts() -> None:
    rows = np.array([2, 0, 2, 2, 0, 1], dtype=np.int64)
    cols = np.array([3, 1, 0, 3, 1, 2], dtype=np.int64)
    matrix = Csr.counts(rows, cols, (4, 5))
    assert matrix.indptr.tolist() == [0, 1, 2, 4, 4]
    assert matrix.indices.tolist() == [1, 2, 0, 3]
    assert matrix.data.dtype == np.float32
    assert Counter({(r, c): int(v) for r, c, v in _entries(matrix)}) == Counter(
        zip(rows.tolist(), cols.tolist(), strict=True)
    )


def test_stacked_blocks_keep_their_rows_in_order() -> None:
    first, second = _random((3, 6, 8), seed=1), _random((4, 6, 9), seed=2)
    stacked = Csr.stack([first, second], 6)
    assert stacked.shape == (7, 6)
    assert np.array_equal(stacked.toarray(), np.vstack([first.toarray(), second.toarray()]))
    assert Csr.stack([], 6).shape == (0, 6)


@pytest.mark.parametrize("size", SIZES)
def test_a_product_is_the_stored_entries_summed_in_order(
    size: tuple[int, int, int], loops: int
) -> None:
    matrix = _random(size)
    dense = np.random.default_rng(3).standard_normal((size[1], 4))
    assert np.array_equal(matrix @ dense, _by_definition(matrix, dense))


@pytest.mark.parametrize("size", SIZES)
def test_a_transposed_product_is_the_stored_entries_summed_in_order(
    size: tuple[int, int, int], loops: int
) -> None:
    matrix = _random(size)
    dense = np.random.default_rng(4).standard_normal((size[0], 3))
    assert np.array_equal(matrix.T @ dense, _by_definition(matrix, dense, transposed=True))


@pytest.mark.parametrize("size", SIZES)
def test_group_sums_add_each_groups_rows_in_order(size: tuple[int, int, int]) -> None:
    matrix = _random(size)
    groups = np.random.default_rng(5).integers(0, 3, size[0])
    expected = np.zeros((3, size[1]))
    for row, col, value in _entries(matrix):
        expected[groups[row], col] += value
    assert np.array_equal(matrix.group_sums(groups, 3), expected)


@pytest.mark.parametrize("size", SIZES)
def test_column_means_are_float32_sums_of_scaled_entries(size: tuple[int, int, int]) -> None:
    matrix = _random(size)
    expected = np.zeros(size[1], dtype=np.float32)
    scale = np.float32(1.0 / size[0])
    for _, col, value in _entries(matrix):
        expected[col] += np.float32(value) * scale
    means = matrix.column_means()
    assert means.dtype == np.float32
    assert np.array_equal(means, expected)


@pytest.mark.parametrize("size", SIZES)
def test_every_figure_equals_scipys_to_the_last_bit(size: tuple[int, int, int]) -> None:
    sparse = pytest.importorskip("scipy.sparse")
    matrix = _random(size)
    theirs = sparse.csr_matrix((matrix.data, matrix.indices, matrix.indptr), shape=matrix.shape)
    rng = np.random.default_rng(6)
    dense, tall = rng.standard_normal((size[1], 5)), rng.standard_normal((size[0], 5))
    groups = rng.integers(0, 4, size[0])
    member = sparse.csr_matrix((np.ones(size[0]), (groups, np.arange(size[0]))), shape=(4, size[0]))
    assert np.array_equal(matrix @ dense, theirs @ dense)
    assert np.array_equal(matrix.T @ tall, theirs.T @ tall)
    assert np.array_equal(matrix.group_sums(groups, 4), (member @ theirs).toarray())
    if size[0]:
        assert np.array_equal(matrix.column_means(), np.asarray(theirs.mean(axis=0)).ravel())


@pytest.mark.parametrize(
    "width", [pytest.param(None, id="vector"), pytest.param(1, id="one-column"), 5]
)
def test_scipys_loops_called_alone_give_what_scipy_sparse_gives(
    width: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sparse = pytest.importorskip("scipy.sparse")
    monkeypatch.setattr(_geometry_csr, "SCIPY_FROM", 1)
    matrix = _random((40, 90, 600), seed=7)
    theirs = sparse.csr_matrix((matrix.data, matrix.indices, matrix.indptr), shape=matrix.shape)
    rng = np.random.default_rng(8)
    shape = (lambda n: (n,)) if width is None else (lambda n: (n, width))
    dense, tall = rng.standard_normal(shape(90)), rng.standard_normal(shape(40))
    for ours, expected in ((matrix @ dense, theirs @ dense), (matrix.T @ tall, theirs.T @ tall)):
        assert ours.shape == expected.shape
        assert ours.dtype == expected.dtype
        assert np.array_equal(ours, expected)


def test_scipys_loops_load_without_importing_scipy_sparse() -> None:
    pytest.importorskip("scipy.sparse")
    code = (
        "import sys\n"
        "from failproof.metrics._geometry_csr import load_kernels\n"
        "kernels = load_kernels()\n"
        "assert callable(kernels.csr_matvecs) and callable(kernels.csc_matvecs)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))\n"
        "import scipy.sparse\n"
        "print(sys.modules['scipy.sparse._sparsetools'] is kernels)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == ["['scipy.sparse._sparsetools']", "True"]


def test_scipys_loops_come_from_scipy_sparse_where_the_extension_is_not_found_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sparse = pytest.importorskip("scipy.sparse")
    monkeypatch.delitem(sys.modules, "scipy.sparse._sparsetools", raising=False)
    monkeypatch.setattr(_geometry_csr, "_extension_alone", lambda name: None)
    _geometry_csr.load_kernels.cache_clear()
    try:
        kernels = _geometry_csr.load_kernels()
    finally:
        _geometry_csr.load_kernels.cache_clear()
    assert kernels is sparse._sparsetools
    assert callable(kernels.csr_matvecs)
