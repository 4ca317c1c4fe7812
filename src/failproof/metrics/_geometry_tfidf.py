"""TF-IDF of word 1-2 grams: vocabulary and IDF fitted on a sample, then every text in one pass.

Equal to scikit-learn's ``TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)`` fitted on the
sample and applied to all texts (a test holds it to that), but it counts n-grams with C-level
dictionary and array operations instead of a Python loop per n-gram (TF-IDF is most of the
geometry's time), and weighs them with numpy alone (smooth IDF
``ln((1 + n) / (1 + df)) + 1``, term frequency ``1 + ln(count)``, rows scaled to unit length), so
that scoring never pays for importing scikit-learn. Tokens are runs of word characters of length
two or more that do not start with a digit, lower-cased (ASCII texts take a faster, equivalent
regex; `_geometry_tokens`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, islice, pairwise, repeat

import numpy as np
from numpy.typing import NDArray

from failproof.metrics._geometry_csr import Csr
from failproof.metrics._geometry_tokens import Tokenizer, tokenize

__all__ = ["SampledTfidf", "tokenize"]


def _smooth_idf(counts: Csr) -> NDArray[np.float64]:
    """``ln((1 + n) / (1 + df)) + 1`` per column of a CSR count matrix of n documents."""
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    idf: NDArray[np.float64] = np.log((1.0 + counts.shape[0]) / (1.0 + df)) + 1.0
    return idf


def _weigh(counts: Csr, idf: NDArray[np.float64]) -> Csr:
    """Sublinear TF times IDF, each row scaled to unit L2 norm, as float32 CSR."""
    data = (1.0 + np.log(counts.data.astype(np.float64))) * idf[counts.indices]
    rows = counts.rows
    norms = np.sqrt(np.bincount(rows, weights=data * data, minlength=counts.shape[0]))
    return counts.with_data((data / norms[rows]).astype(np.float32))  # weights >= 1: norms > 0


class SampledTfidf:
    """Fit the vocabulary and IDF on a sample, transform everything with a fast counter."""

    def __init__(
        self, max_features: int, chunk: int = 2048, tokenizer: Tokenizer = tokenize
    ) -> None:
        self.max_features = max_features
        self.chunk = chunk
        self.tokenizer = tokenizer
        self.terms: NDArray[np.object_] = np.array([], dtype=object)
        self._codes: dict[str, int] = {}
        self._stride = 1
        self._width = 1
        self._pair_keys: NDArray[np.int64] = np.array([], dtype=np.int64)
        self._pair_cols: NDArray[np.int64] = np.array([], dtype=np.int64)
        self._idf: NDArray[np.float64] | None = None
        self._fitted_counts: Csr | None = None

    def fit(self, texts: Sequence[str]) -> SampledTfidf:
        """Learn the vocabulary (the ``max_features`` most frequent n-grams) and the IDF.

        The vocabulary is chosen exactly as scikit-learn's ``CountVectorizer`` chooses it:
        n-grams sorted by name, the most frequent kept (same tie order), then sorted by name.
        """
        frequency: Counter[str] = Counter()
        for start in range(0, len(texts), self.chunk):
            for words in map(self.tokenizer, texts[start : start + self.chunk]):
                frequency.update(words)
                frequency.update(map(" ".join, pairwise(words)))
        terms = sorted(frequency)
        if len(terms) > self.max_features:
            totals = np.array([frequency[t] for t in terms], dtype=np.float32)
            kept = np.sort((-totals).argsort()[: self.max_features])
            terms = [terms[i] for i in kept]
        self.terms = np.asarray(terms, dtype=object)
        self._index({term: column for column, term in enumerate(terms)})
        if terms:  # a second pass, chunk by chunk: the sample's tokens never all exist at once
            self._fitted_counts = self.counts(texts)
            self._idf = _smooth_idf(self._fitted_counts)
        return self

    def fit_transform(self, texts: Sequence[str]) -> Csr:
        """`fit` on ``texts``, then `transform` of the same texts, counting them once."""
        self.fit(texts)
        counts, self._fitted_counts = self._fitted_counts, None
        if counts is None or self._idf is None:
            return self.transform(texts)
        return _weigh(counts, self._idf)

    def _index(self, vocabulary: dict[str, int]) -> None:
        """One code per token: its unigram column and its part id in the vocabulary's bigrams.

        ``code = (column + 1) * stride + (part + 1)``, so a single dictionary look-up per token
        gives both (0 parts: not in a bigram; column -1: not a unigram term).
        """
        columns: dict[str, int] = {}
        pairs: dict[tuple[str, str], int] = {}
        for term, column in vocabulary.items():
            first, _, second = term.partition(" ")
            if second:
                pairs[(first, second)] = column
            else:
                columns[first] = column
        parts: dict[str, int] = {}
        for first, second in pairs:
            parts.setdefault(first, len(parts))
            parts.setdefault(second, len(parts))
        self._stride = len(parts) + 1
        self._codes = {
            token: (columns.get(token, -1) + 1) * self._stride + parts.get(token, -1) + 1
            for token in columns.keys() | parts.keys()
        }
        width = max(1, len(parts))
        keyed = sorted((parts[a] * width + parts[b], c) for (a, b), c in pairs.items())
        self._width = width
        self._pair_keys = np.array([k for k, _ in keyed], dtype=np.int64)
        self._pair_cols = np.array([c for _, c in keyed], dtype=np.int64)

    def transform(self, texts: Iterable[str]) -> Csr:
        """The L2-normalised TF-IDF matrix (float32 CSR) of ``texts``.

        ``texts`` may be a generator: only ``chunk`` texts exist at a time.
        """
        counts = self.counts(texts)
        if self._idf is None:  # nothing was learnt: every text is empty of tokens
            return counts
        return _weigh(counts, self._idf)

    def counts(self, texts: Iterable[str]) -> Csr:
        """The n-gram count matrix (CSR) of ``texts`` over the fitted vocabulary."""
        iterator = iter(texts)
        blocks = []
        while chunk := list(islice(iterator, self.chunk)):
            blocks.append(self._block([self.tokenizer(text) for text in chunk]))
        return Csr.stack(blocks, len(self.terms))

    def _block(self, tokens: Sequence[list[str]]) -> Csr:
        lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        flat = list(chain.from_iterable(tokens))
        doc = np.repeat(np.arange(len(tokens), dtype=np.int64), lengths)
        codes = np.fromiter(map(self._codes.get, flat, repeat(0)), np.int64, len(flat))
        uni = codes // self._stride - 1
        rows, cols = [doc[uni >= 0]], [uni[uni >= 0]]
        if len(self._pair_keys) and len(flat) > 1:
            pair_rows, pair_cols = self._pairs(codes % self._stride - 1, doc)
            rows.append(pair_rows)
            cols.append(pair_cols)
        shape = (len(tokens), len(self.terms))
        return Csr.counts(np.concatenate(rows), np.concatenate(cols), shape)

    def _pairs(
        self, part: NDArray[np.int64], doc: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Rows and columns of the vocabulary bigrams among adjacent tokens of one text."""
        first, second = part[:-1], part[1:]
        ok = (first >= 0) & (second >= 0) & (doc[:-1] == doc[1:])
        keys = first[ok] * self._width + second[ok]
        where = np.minimum(np.searchsorted(self._pair_keys, keys), len(self._pair_keys) - 1)
        hit = self._pair_keys[where] == keys
        return doc[:-1][ok][hit], self._pair_cols[where[hit]]
