"""The results store: one SQLite file (WAL mode) holding runs, results and the response cache."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from failproof.core import Attack, AttackStep, CaseResult, Response, Run
from failproof.core._closing import Closing
from failproof.core._result import utc_now
from failproof.errors import StoreError
from failproof.guard import redact
from failproof.guard._json import JsonObject
from failproof.store._kept import KeptAnswers
from failproof.store._mcp import McpRecords
from failproof.store._migrations import MIGRATIONS
from failproof.store._rows import load_result
from failproof.store._stream import StoredResults

__all__ = ["ResultRow", "RunSummary", "Store"]

#: A stored result as its row: suite, case id, sample, primary class, the result's JSON.
ResultRow = tuple[str, str, int, str, str]


def _try_lock(fd: int) -> bool:
    """Take an exclusive lock on ``fd`` without waiting; False when another process holds it."""
    try:
        import fcntl
    except ImportError:  # no advisory locks on this platform: run unguarded
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _dumps(value: Any) -> str:
    """JSON for a column: every secret failproof knows is redacted before it is written."""
    return redact(json.dumps(value, default=str))


#: Bytes per page of a new store. A result's JSON is 2-6 KB: on SQLite's default 4 KB pages most
#: spill onto an overflow page, on 16 KB pages three or four share one (a third less CPU and half
#: the wall time per result stored, `bench/store_rows.py`). A store made before keeps its size.
PAGE_SIZE = 16_384
_INSERT_RESULT = "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?)"
_INSERT_CACHE = "INSERT OR REPLACE INTO response_cache VALUES (?, ?, ?)"


def _result_row(result: CaseResult, written: str | None = None) -> tuple[ResultRow, bool]:
    """The stored form of one result (its JSON, ``written`` when given, redacted), and whether
    redacting changed it."""
    dumped = result.model_dump_json() if written is None else written
    blob = redact(dumped)
    return (result.suite, result.case_id, result.sample, result.primary, blob), blob != dumped


@dataclass(frozen=True)
class RunSummary:
    """One row of ``failproof runs list``."""

    id: str
    target: str
    suites: list[str]
    status: str
    started_at: str
    finished_at: str | None
    total: int
    passed: int


def _open_hint(exc: Exception) -> str:
    """What to do when the store cannot be opened: a file that is not a store is moved aside,
    a folder that cannot be written is changed."""
    if isinstance(exc, sqlite3.DatabaseError) and "not a database" in str(exc):
        return (
            "the file is not a failproof store (or is damaged): move it aside to start a new "
            "store, or set FAILPROOF_HOME to another folder"
        )
    return "set FAILPROOF_HOME to a writable folder"


class Store(McpRecords, KeptAnswers, Closing):
    """Runs, results and cached responses in SQLite. Every write is committed at once."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        """Open (and create or migrate) the store; ``readonly`` opens an existing one for reading.

        A read-only store is opened with SQLite's ``mode=ro``, which refuses every write at the
        database level, and is neither created nor migrated.
        """
        self.path = Path(path)
        self.readonly = readonly
        #: Results stored so far whose JSON held a secret (stored redacted, so not as given).
        self.redacted = 0
        try:
            self._db = self._connect_readonly() if readonly else self._connect_writable()
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(
                f"cannot open the results store {self.path}: {exc}", hint=_open_hint(exc)
            ) from None

    def _connect_writable(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new file only; set before WAL
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        self._db = db
        self._migrate()
        return db

    def _connect_readonly(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise StoreError(
                f"no results store at {self.path}",
                hint="run 'failproof run' or 'failproof score' first, or set FAILPROOF_HOME",
            )
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        return sqlite3.connect(uri, uri=True, timeout=30, check_same_thread=False)

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        self._db.close()

    def _migrate(self) -> None:
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT)"
        )
        done = {row[0] for row in self._db.execute("SELECT name FROM migrations")}
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            with self._db:
                for statement in filter(str.strip, sql.split(";")):
                    self._db.execute(statement)
                self._db.execute(
                    "INSERT INTO migrations VALUES (?, ?)", (name, utc_now().isoformat())
                )

    def applied_migrations(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT name FROM migrations ORDER BY name")]

    # -- runs --------------------------------------------------------------------------------

    def create_run(self, run: Run) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    run.id,
                    _dumps(run.target),
                    _dumps(run.suites),
                    _dumps(run.config),
                    run.status,
                    run.started_at.isoformat(),
                    run.finished_at.isoformat() if run.finished_at else None,
                ),
            )

    def finish_run(self, run_id: str, status: str, finished_at: datetime | None = None) -> None:
        when = (finished_at or utc_now()).isoformat()
        with self._db:
            self._db.execute(
                "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", (status, when, run_id)
            )

    def update_run_config(self, run_id: str, updates: Mapping[str, Any]) -> None:
        """Set keys of the run's stored config (what the run saw: calls, throttling, waits)."""
        config = {**self.get_run(run_id).config, **updates}
        with self._db:
            self._db.execute(
                "UPDATE runs SET config_json = ? WHERE id = ?", (_dumps(config), run_id)
            )

    def get_run(self, run_id: str) -> Run:
        row = self._db.execute(
            "SELECT id, target_json, suites_json, config_json, status, started_at, finished_at "
            "FROM runs WHERE id = ?",
            (run_id,),
        ).fetchone()
        if row is None:
            raise StoreError(
                f"no run {run_id!r} in {self.path}", hint="'failproof runs list' shows the runs"
            )
        return Run(
            id=row[0],
            target=json.loads(row[1]),
            suites=json.loads(row[2]),
            config=json.loads(row[3]),
            status=row[4],
            started_at=datetime.fromisoformat(row[5]),
            finished_at=datetime.fromisoformat(row[6]) if row[6] else None,
        )

    def list_runs(self, limit: int = 50) -> list[RunSummary]:
        rows = self._db.execute(
            "SELECT r.id, r.target_json, r.suites_json, r.status, r.started_at, r.finished_at, "
            "COUNT(x.case_id), COALESCE(SUM(x.primary_class = 'pass'), 0) "
            "FROM runs r LEFT JOIN results x ON x.run_id = r.id "
            "GROUP BY r.id ORDER BY r.started_at DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [
            RunSummary(
                id=row[0],
                target=str(json.loads(row[1]).get("name", "?")),
                suites=json.loads(row[2]),
                status=row[3],
                started_at=row[4],
                finished_at=row[5],
                total=row[6],
                passed=row[7],
            )
            for row in rows
        ]

    # -- results -----------------------------------------------------------------------------

    def add_result(self, run_id: str, result: CaseResult) -> None:
        """Store one result and commit, so that a crash right after loses nothing."""
        self.add_results(run_id, [result])

    def add_results(
        self,
        run_id: str,
        results: Sequence[CaseResult],
        cached: Iterable[tuple[str, Response]] = (),
        *,
        written: Sequence[str | None] = (),
    ) -> None:
        """Store results (and cache the ``(key, response)`` pairs) in one transaction (see
        `add_result_rows`); ``written``: the results' JSON where it is at hand, in order."""
        texts = written or [None] * len(results)
        rows = (self._row(r, text) for r, text in zip(results, texts, strict=True))
        self.add_result_rows(run_id, rows, cached)

    def _row(self, result: CaseResult, written: str | None) -> ResultRow:
        row, changed = _result_row(result, written)
        self.redacted += changed
        return row

    def add_result_rows(
        self,
        run_id: str,
        rows: Iterable[ResultRow],
        cached: Iterable[tuple[str, Response]] = (),
    ) -> None:
        """Store rows (as `result_rows` reads them, from this or another store) and cache the
        ``(key, response)`` pairs (errors are never cached) in one transaction, committed before
        this returns: all of them survive a crash right after, or none of them. Each row replaces
        any stored under its key (suite, case, sample), so adding the same rows twice changes
        nothing.

        One commit for many results is the runner's group commit: results that finish together
        are stored together, and none is reported stored before the commit.
        """
        now = utc_now().isoformat()
        entries = [(k, redact(r.model_dump_json()), now) for k, r in cached if r.error is None]
        with self._db:
            self._db.executemany(_INSERT_RESULT, ((run_id, *row, now) for row in rows))
            if entries:
                self._db.executemany(_INSERT_CACHE, entries)

    def stream(
        self, run_id: str, *, chunk: int = 1000, held: Sequence[CaseResult] | None = None
    ) -> StoredResults:
        """The run's results as a re-iterable source read ``chunk`` rows at a time (reports);
        ``held``: the same results already in memory, in order, read instead of the store."""
        return StoredResults(self.path, run_id, chunk=chunk, held=held)

    def result_rows(self, run_id: str) -> list[ResultRow]:
        """The run's results as stored (JSON not parsed), in (suite, case_id, sample) order."""
        rows = self._db.execute(
            "SELECT suite, case_id, sample, primary_class, result_json FROM results "
            "WHERE run_id = ? ORDER BY suite, case_id, sample",
            (run_id,),
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def results(self, run_id: str) -> Iterator[CaseResult]:
        """The run's results in (suite, case_id, sample) order, read lazily."""
        cursor = self._db.execute(
            "SELECT result_json FROM results WHERE run_id = ? ORDER BY suite, case_id, sample",
            (run_id,),
        )
        with closing(cursor):
            for (blob,) in cursor:
                yield load_result(blob)

    def done_keys(self, run_id: str) -> set[tuple[str, str, int]]:
        """(suite, case_id, sample) of every stored result of the run."""
        rows = self._db.execute(
            "SELECT suite, case_id, sample FROM results WHERE run_id = ?", (run_id,)
        )
        return {(r[0], r[1], r[2]) for r in rows}

    def answered_keys(self, run_id: str) -> set[tuple[str, str, int]]:
        """(suite, case_id, sample) of the run's results whose call did not fail (resume skips
        these; a result of class ``error`` is called again)."""
        rows = self._db.execute(
            "SELECT suite, case_id, sample FROM results "
            "WHERE run_id = ? AND primary_class != 'error'",
            (run_id,),
        )
        return {(r[0], r[1], r[2]) for r in rows}

    def answered_results(self, run_id: str) -> Iterator[CaseResult]:
        """The run's results whose call did not fail, in (suite, case_id, sample) order."""
        cursor = self._db.execute(
            "SELECT result_json FROM results WHERE run_id = ? AND primary_class != 'error' "
            "ORDER BY suite, case_id, sample",
            (run_id,),
        )
        with closing(cursor):
            for (blob,) in cursor:
                yield load_result(blob)

    @contextmanager
    def lock_run(self, run_id: str) -> Iterator[None]:
        """Hold the run for this process: a second process running or resuming it is refused.

        An OS file lock beside the store (``locks/<run_id>.lock``): the operating system drops
        it when the process ends, however it ends, so a killed run can always be resumed.
        """
        self.path.parent.joinpath("locks").mkdir(parents=True, exist_ok=True)
        with self.path.parent.joinpath("locks", f"{run_id}.lock").open("a") as handle:
            if not _try_lock(handle.fileno()):
                raise StoreError(
                    f"run {run_id} is being run by another failproof process right now",
                    hint="wait for it to finish (or stop it), then resume",
                )
            yield

    def reopen_run(self, run_id: str) -> None:
        """Mark a stopped run as running again (``--resume``)."""
        with self._db:
            self._db.execute(
                "UPDATE runs SET status = 'running', finished_at = NULL WHERE id = ?", (run_id,)
            )

    def count_results(self, run_id: str) -> int:
        row = self._db.execute("SELECT COUNT(*) FROM results WHERE run_id = ?", (run_id,))
        return int(row.fetchone()[0])

    # -- conversation turns ------------------------------------------------------------------

    def add_turn(self, run_id: str, turn: int, result: CaseResult) -> None:
        """Store the scored answer to one turn of a conversation and commit at once."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO turn_results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    result.suite,
                    result.case_id,
                    result.sample,
                    turn,
                    result.primary,
                    result.model_dump_json(),
                    utc_now().isoformat(),
                ),
            )

    def answered_turns(self, run_id: str, key: tuple[str, str, int]) -> list[CaseResult]:
        """The conversation's stored turns from the first on, up to (not with) the first turn
        whose call failed: what a resumed run does not send again."""
        rows = self._db.execute(
            "SELECT turn, primary_class, result_json FROM turn_results "
            "WHERE run_id = ? AND suite = ? AND case_id = ? AND sample = ? ORDER BY turn",
            (run_id, *key),
        )
        out: list[CaseResult] = []
        for turn, primary, blob in rows:
            if turn != len(out) or primary == "error":
                break
            out.append(CaseResult.model_validate_json(blob))
        return out

    # -- attacks -----------------------------------------------------------------------------

    def create_attack(self, attack: Attack) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO attacks VALUES (?, ?, ?, ?, ?)",
                (
                    attack.id,
                    attack.model_dump_json(),
                    attack.status,
                    attack.started_at.isoformat(),
                    None,
                ),
            )

    def finish_attack(self, attack_id: str, status: str) -> None:
        """Record how the attack ended (``running`` again when it is resumed)."""
        when = None if status == "running" else utc_now().isoformat()
        with self._db:
            self._db.execute(
                "UPDATE attacks SET status = ?, finished_at = ? WHERE id = ?",
                (status, when, attack_id),
            )

    def get_attack(self, attack_id: str) -> Attack:
        row = self._db.execute(
            "SELECT attack_json, status, finished_at FROM attacks WHERE id = ?", (attack_id,)
        ).fetchone()
        if row is None:
            raise StoreError(
                f"no attack {attack_id!r} in {self.path}",
                hint="the attack id is printed when an attack starts and in its report",
            )
        attack = Attack.model_validate_json(row[0])
        finished = datetime.fromisoformat(row[2]) if row[2] else None
        return attack.model_copy(update={"status": row[1], "finished_at": finished})

    def add_attack_step(self, attack_id: str, step: AttackStep) -> None:
        """Store one step of an attack and commit, so that a crash right after loses nothing (a
        target's answer is stored before it is scored, then again with its verdict)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO attack_steps VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    attack_id,
                    step.suite,
                    step.case_id,
                    step.seq,
                    step.kind,
                    int(step.broken),
                    step.model_dump_json(),
                    utc_now().isoformat(),
                ),
            )

    def attack_steps(self, attack_id: str, key: tuple[str, str] | None = None) -> list[AttackStep]:
        """The attack's steps (of one (suite, case id) when ``key`` is given), in order."""
        query = "SELECT step_json FROM attack_steps WHERE attack_id = ?"
        params: tuple[str, ...] = (attack_id,)
        if key is not None:
            query += " AND suite = ? AND case_id = ?"
            params = (attack_id, *key)
        rows = self._db.execute(query + " ORDER BY suite, case_id, seq", params)
        return [AttackStep.model_validate_json(r[0]) for r in rows]

    # -- response cache ----------------------------------------------------------------------

    def cache_get(self, key: str) -> Response | None:
        row = self._db.execute(
            "SELECT response_json FROM response_cache WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        try:
            return Response.model_validate_json(row[0])
        except ValueError:
            return Response.model_validate(json.loads(row[0]))

    def cache_put(self, key: str, response: Response) -> None:
        """Cache a successful response; errors are never cached."""
        if response.error is not None:
            return
        with self._db:
            self._db.execute(
                _INSERT_CACHE, (key, redact(response.model_dump_json()), utc_now().isoformat())
            )

    # -- judge answers -----------------------------------------------------------------------

    def judge_get(self, key: str) -> str | None:
        """The judge answer cached under ``key`` (its JSON), or None."""
        row = self._db.execute("SELECT answer_json FROM judge_cache WHERE key = ?", (key,))
        found = row.fetchone()
        return str(found[0]) if found else None

    def judge_put(self, key: str, *, judge: Mapping[str, Any], rubric: str, answer: str) -> None:
        """Cache a judge's valid answer (its JSON) under ``key``; errors are never cached."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO judge_cache VALUES (?, ?, ?, ?, ?)",
                (key, json.dumps(judge, sort_keys=True), rubric, answer, utc_now().isoformat()),
            )

    # -- SAFE v0 observations ----------------------------------------------------------------

    def add_safe_result(
        self,
        *,
        batch_id: str,
        concern_id: str,
        test_id: str,
        label: str,
        scores: dict[str, Any],
        timestamp: str,
    ) -> None:
        """Record one SAFE v0 scorecard (the spec's observation hook)."""
        with self._db:
            self._db.execute(
                "INSERT INTO safe_results (batch_id, concern_id, test_id, label, scores_json, "
                "timestamp) VALUES (?, ?, ?, ?, ?, ?)",
                (batch_id, concern_id, test_id, label, _dumps(scores), timestamp),
            )

    def add_safe_results(self, rows: Iterable[Mapping[str, Any]]) -> int:
        """Record many SAFE v0 scorecards in one transaction; each row has the keys of
        `add_safe_result`. Returns how many were written."""
        values = [
            (
                r["batch_id"],
                r["concern_id"],
                r["test_id"],
                r["label"],
                _dumps(r["scores"]),
                r["timestamp"],
            )
            for r in rows
        ]
        with self._db:
            self._db.executemany(
                "INSERT INTO safe_results (batch_id, concern_id, test_id, label, scores_json, "
                "timestamp) VALUES (?, ?, ?, ?, ?, ?)",
                values,
            )
        return len(values)

    def safe_results(self, concern_id: str | None = None) -> list[JsonObject]:
        query = (
            "SELECT batch_id, concern_id, test_id, label, scores_json, timestamp FROM safe_results"
        )
        params: tuple[str, ...] = ()
        if concern_id is not None:
            query += " WHERE concern_id = ?"
            params = (concern_id,)
        return [
            {
                "batch_id": r[0],
                "concern_id": r[1],
                "test_id": r[2],
                "label": r[3],
                "scores": json.loads(r[4]),
                "timestamp": r[5],
            }
            for r in self._db.execute(query + " ORDER BY id", params)
        ]
