"""Public benchmarks on tap: fetched from their canonical locations at run time, verified by
SHA-256, cached, and converted to suites with the expectations each behaviour type needs."""

from failproof.datasets._catalogue import DatasetSpec, dataset_catalogue
from failproof.datasets._pull import PullOutcome, pull_dataset

__all__ = [
    "DatasetSpec",
    "PullOutcome",
    "dataset_catalogue",
    "pull_dataset",
]
