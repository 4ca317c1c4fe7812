"""Answers a stopped run received but had not scored yet, kept so a resume never asks again.

A run stopped (Ctrl-C, SIGTERM) while a slow scorer (an LLM judge) still worked on some answers
writes those answers here, one row per (suite, case, sample); ``--resume`` scores them without
calling the target. The rows go when the run finishes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from failproof.core import Response
from failproof.core._result import utc_now
from failproof.guard import redact

__all__ = ["KeptAnswers", "ResultKey"]

#: (suite, case id, sample) of one answer of a run.
ResultKey = tuple[str, str, int]


class KeptAnswers:
    """The store's ``kept_answers`` table."""

    _db: sqlite3.Connection

    def keep_answers(self, run_id: str, answers: Iterable[tuple[ResultKey, Response]]) -> int:
        """Keep the run's unscored answers (failed calls are not kept: a resume calls again),
        in one commit; returns how many were kept."""
        now = utc_now().isoformat()
        rows = [
            (run_id, *key, redact(response.model_dump_json()), now)
            for key, response in answers
            if response.error is None
        ]
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO kept_answers VALUES (?, ?, ?, ?, ?, ?)", rows
            )
        return len(rows)

    def kept_answers(self, run_id: str) -> dict[ResultKey, Response]:
        """The answers kept for the run, by (suite, case id, sample)."""
        rows = self._db.execute(
            "SELECT suite, case_id, sample, response_json FROM kept_answers WHERE run_id = ?",
            (run_id,),
        )
        return {(r[0], r[1], r[2]): Response.model_validate_json(r[3]) for r in rows}

    def drop_kept_answers(self, run_id: str) -> None:
        """Forget the run's kept answers (it finished: each is in a result now)."""
        with self._db:
            self._db.execute("DELETE FROM kept_answers WHERE run_id = ?", (run_id,))
