"""A seeded randomized truncated SVD of a sparse matrix, with numpy alone.

The range finder of Halko, Martinsson and Tropp (2011): multiply the matrix by a seeded
Gaussian block with a few extra columns, sharpen it with power iterations (re-orthonormalised
each time), then take the exact SVD of the small projected matrix. Signs are fixed so that the
largest entry of every right singular vector is positive, so one seed gives one embedding.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from failproof.metrics._geometry_csr import Csr

__all__ = ["truncated_svd", "truncated_svd_fit"]

#: Extra random columns and power iterations of the range finder.
_OVERSAMPLES = 10
_POWER_ITERATIONS = 5


def truncated_svd(matrix: Csr, components: int, seed: int) -> NDArray[np.float64]:
    """``U * S`` of the ``components`` leading singular triplets of ``matrix`` (rows x comps).

    ``components`` must be at most ``min(matrix.shape) - 1``.
    """
    return truncated_svd_fit(matrix, components, seed)[0]


def truncated_svd_fit(
    matrix: Csr, components: int, seed: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """`truncated_svd` and the right singular vectors (comps x columns, signs fixed alike): a
    new row ``x`` is placed in the same embedding by ``x @ directions.T``."""
    rows, cols = matrix.shape
    width = min(components + _OVERSAMPLES, rows, cols)
    block = np.random.default_rng(seed).standard_normal((cols, width))
    basis = _orthonormal(matrix @ block)
    for _ in range(_POWER_ITERATIONS):
        basis = _orthonormal(matrix @ _orthonormal(matrix.T @ basis))
    projected = np.asarray(matrix.T @ basis).T
    left, values, right = np.linalg.svd(projected, full_matrices=False)
    signs = np.sign(right[np.arange(len(right)), np.abs(right).argmax(axis=1)])
    signs[signs == 0] = 1.0
    reduced: NDArray[np.float64] = (basis @ left[:, :components]) * (values * signs)[:components]
    directions: NDArray[np.float64] = right[:components] * signs[:components, None]
    return reduced, directions


def _orthonormal(block: Any) -> NDArray[np.float64]:
    q, _ = np.linalg.qr(np.asarray(block, dtype=np.float64))
    return q
