"""The store's schema, changed only by appending named migrations to `MIGRATIONS`.

Never edit or reorder a migration that has shipped: add a new one at the end. Each is applied once,
in order, inside a transaction, and recorded in the ``migrations`` table.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS"]

MIGRATIONS: list[tuple[str, str]] = [
    (
        "0001_runs_results_cache",
        """
        CREATE TABLE runs (
            id TEXT PRIMARY KEY,
            target_json TEXT NOT NULL,
            suites_json TEXT NOT NULL,
            config_json TEXT NOT NULL,
            status TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE results (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            suite TEXT NOT NULL,
            case_id TEXT NOT NULL,
            sample INTEGER NOT NULL DEFAULT 0,
            primary_class TEXT NOT NULL,
            result_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, suite, case_id, sample)
        );
        CREATE TABLE response_cache (
            key TEXT PRIMARY KEY,
            response_json TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        """,
    ),
    (
        "0002_safe_results",
        """
        CREATE TABLE safe_results (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            batch_id TEXT NOT NULL,
            concern_id TEXT NOT NULL,
            test_id TEXT NOT NULL,
            label TEXT NOT NULL,
            scores_json TEXT NOT NULL,
            timestamp TEXT NOT NULL
        );
        CREATE INDEX safe_results_by_test ON safe_results (concern_id, test_id);
        """,
    ),
    (
        "0003_judge_cache",
        """
        CREATE TABLE judge_cache (
            key TEXT PRIMARY KEY,
            judge_json TEXT NOT NULL,
            rubric TEXT NOT NULL,
            answer_json TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        """,
    ),
    (
        "0004_turn_results",
        """
        CREATE TABLE turn_results (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            suite TEXT NOT NULL,
            case_id TEXT NOT NULL,
            sample INTEGER NOT NULL DEFAULT 0,
            turn INTEGER NOT NULL,
            primary_class TEXT NOT NULL,
            result_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, suite, case_id, sample, turn)
        );
        """,
    ),
    (
        "0005_attacks",
        """
        CREATE TABLE attacks (
            id TEXT PRIMARY KEY,
            attack_json TEXT NOT NULL,
            status TEXT NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE attack_steps (
            attack_id TEXT NOT NULL REFERENCES attacks(id) ON DELETE CASCADE,
            suite TEXT NOT NULL,
            case_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            broken INTEGER NOT NULL,
            step_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (attack_id, suite, case_id, seq)
        );
        """,
    ),
    (
        "0006_mcp_scans",
        """
        CREATE TABLE mcp_scans (
            id TEXT PRIMARY KEY,
            started_at TEXT NOT NULL,
            servers TEXT NOT NULL,
            findings INTEGER NOT NULL,
            scan_json TEXT NOT NULL
        );
        CREATE TABLE mcp_pins (
            server TEXT NOT NULL,
            item TEXT NOT NULL,
            sha256 TEXT NOT NULL,
            definition_json TEXT NOT NULL,
            scan_id TEXT NOT NULL,
            pinned_at TEXT NOT NULL,
            PRIMARY KEY (server, item)
        );
        CREATE TABLE mcp_calls (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            call_key TEXT NOT NULL,
            use_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, call_key)
        );
        """,
    ),
    (
        "0007_kept_answers",
        """
        CREATE TABLE kept_answers (
            run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            suite TEXT NOT NULL,
            case_id TEXT NOT NULL,
            sample INTEGER NOT NULL DEFAULT 0,
            response_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (run_id, suite, case_id, sample)
        );
        """,
    ),
    (
        "0008_mcp_scan_unscanned",
        """
        ALTER TABLE mcp_scans ADD COLUMN unscanned INTEGER NOT NULL DEFAULT 0;
        UPDATE mcp_scans SET unscanned = (
            SELECT count(*) FROM json_each(mcp_scans.scan_json, '$.servers')
            WHERE json_extract(value, '$.error') IS NOT NULL
        ) WHERE json_valid(scan_json);
        """,
    ),
]
