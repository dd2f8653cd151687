"""The tuning database: every measurement, failure, estimate and calibration.

SQLite from the standard library, in WAL mode, committing after every record:
a tune killed with SIGKILL loses at most the record it was writing, and a
restarted run (or a second model with the same root op) finds everything
else. Each process opens its own connection (SQLite connections must not
cross a fork); several processes may write the same file, WAL and a busy
timeout serialise them.
"""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

from ..core.measurement import Measurement
from ..core.fingerprint import candidate_key as make_candidate_key

SCHEMA_VERSION = 1
# One default for every command that opens the database (tune writes it, db export reads it).
DEFAULT_DB_PATH = Path("iree-dsa-tuning.sqlite")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS measurements (
    dispatch_fp TEXT NOT NULL,
    target_fp TEXT NOT NULL,
    candidate_key TEXT NOT NULL,
    dispatch TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('ok', 'compile-error', 'run-error', 'timeout', 'wrong-numerics')),
    median_us REAL,
    min_us REAL,
    repetitions INTEGER NOT NULL DEFAULT 0,
    runner TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    estimate_us REAL,
    candidate TEXT,
    details TEXT,
    created_at TEXT NOT NULL,
    code_version TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (dispatch_fp, target_fp, candidate_key)
);
CREATE TABLE IF NOT EXISTS calibration (
    target_fp TEXT PRIMARY KEY,
    params TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
"""

MEASUREMENT_COLUMNS = (
    "dispatch_fp", "target_fp", "candidate_key", "dispatch", "runner", "status", "median_us", "min_us",
    "repetitions", "estimate_us", "reason", "candidate", "details", "created_at", "code_version",
)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class TuningDatabase:
    """Records keyed by (dispatch fingerprint, target fingerprint, candidate key).

    A candidate measured again replaces its record (the latest measurement of a
    config is the one that counts). Each record keeps the code version of what
    measured it (`Runner.code_version`: a hash of the runner's and simulator's
    sources); `lookup` with a code version answers only from a record of that
    code, so a stale record is measured again (and replaced), never reused.
    Use as a context manager or call close().
    """

    def __init__(self, path: str | os.PathLike = DEFAULT_DB_PATH):
        self.path = Path(path)
        self._connection: sqlite3.Connection | None = None
        self._pid: int | None = None
        # One connection per process, shared by its threads: writes are short
        # and each commits at once, so a lock costs nothing and keeps sqlite3's
        # same-thread check out of the way of the runner's compile threads.
        self._lock = threading.RLock()
        self._connect()

    # ---- connection -----------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        from ..errors import InputError

        try:
            conn = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False, isolation_level=None)
            conn.row_factory = sqlite3.Row
            # The schema is checked before anything is written: a database of another
            # tuner version (or not a tuning database) is left exactly as it was.
            found = None
            if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone():
                row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
                found = row[0] if row else None
            if found is not None and str(found) != str(SCHEMA_VERSION):
                conn.close()
                raise InputError(f"{self.path}: tuning database schema {found}, this tuner reads {SCHEMA_VERSION}; "
                                 "use the iree-dsa-tuner that wrote it, or give --db another path")
            conn.execute("PRAGMA journal_mode=WAL")
            # NORMAL under WAL survives a killed process (the WAL is in the OS
            # page cache); only a power loss can drop the last commits.
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            # Databases written before records carried their code version: the column is
            # added with '' (unknown code), so none of their records is reused by a runner
            # that names its code.
            columns = {r[1] for r in conn.execute("PRAGMA table_info(measurements)")}
            if "code_version" not in columns:
                conn.execute("ALTER TABLE measurements ADD COLUMN code_version TEXT NOT NULL DEFAULT ''")
            conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        except sqlite3.DatabaseError as e:
            raise InputError(f"{self.path}: not a usable tuning database ({e}); give --db another path "
                             "(a new database is created there)") from None
        self._connection, self._pid = conn, os.getpid()
        return conn

    def close(self) -> None:
        if self._connection is not None and self._pid == os.getpid():
            self._connection.close()
        self._connection = None

    def __enter__(self) -> "TuningDatabase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _execute(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        with self._lock:
            return self._connect().execute(sql, params)

    # ---- measurements ---------------------------------------------------------
    def record_measurement(
        self,
        dispatch_fp: str,
        target_fp: str,
        measurement: Measurement,
        *,
        candidate: dict | None = None,
        estimate_us: float | None = None,
        key: str | None = None,
        code_version: str = "",
    ) -> str:
        """Store one measurement (committed before returning); returns its candidate key.

        `candidate` defaults to `measurement.candidate`; None means IREE's default.
        `key` overrides the key made from the candidate (`core.fingerprint.default_key`
        names which default was measured). `code_version` is that of the code that
        measured (`Runner.code_version`).
        """
        candidate = candidate if candidate is not None else measurement.candidate
        if candidate is not None and hasattr(candidate, "to_json"):
            candidate = candidate.to_json()
        key = key or make_candidate_key(candidate)
        estimate = estimate_us if estimate_us is not None else measurement.estimate_us
        created = measurement.created_at or _now()
        # Autocommit mode: the statement is its own transaction, durable on return.
        self._execute(
            "INSERT OR REPLACE INTO measurements (dispatch_fp, target_fp, candidate_key, dispatch, status, "
            "median_us, min_us, repetitions, runner, reason, estimate_us, candidate, details, created_at, "
            "code_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (dispatch_fp, target_fp, key, measurement.dispatch, measurement.status, measurement.median_us,
             measurement.min_us, int(measurement.repetitions), measurement.runner, measurement.reason,
             estimate, json.dumps(candidate, sort_keys=True) if candidate is not None else None,
             json.dumps(measurement.details, sort_keys=True, default=str) if measurement.details else None, created,
             code_version or ""),
        )
        return key

    @staticmethod
    def _measurement(row: sqlite3.Row) -> Measurement:
        return Measurement(
            status=row["status"], median_us=row["median_us"], min_us=row["min_us"],
            repetitions=row["repetitions"], reason=row["reason"], runner=row["runner"],
            candidate=json.loads(row["candidate"]) if row["candidate"] else None,
            estimate_us=row["estimate_us"], dispatch=row["dispatch"], created_at=row["created_at"],
            details=json.loads(row["details"]) if row["details"] else {},
        )

    def lookup(self, dispatch_fp: str, target_fp: str, candidate_key: str,
               code_version: str | None = None) -> Measurement | None:
        """The record of one candidate, or None.

        With `code_version` (the measuring code's, `Runner.code_version`), a record made
        by other code is stale and not returned: the caller measures again.
        """
        row = self._execute(
            "SELECT * FROM measurements WHERE dispatch_fp = ? AND target_fp = ? AND candidate_key = ?",
            (dispatch_fp, target_fp, candidate_key),
        ).fetchone()
        if row is None or (code_version is not None and row["code_version"] != code_version):
            return None
        return self._measurement(row)

    def code_version_of(self, dispatch_fp: str, target_fp: str, candidate_key: str) -> str | None:
        """The code version a record was measured with (None: no record)."""
        row = self._execute(
            "SELECT code_version FROM measurements WHERE dispatch_fp = ? AND target_fp = ? AND candidate_key = ?",
            (dispatch_fp, target_fp, candidate_key),
        ).fetchone()
        return row["code_version"] if row else None

    def measurements(self, dispatch_fp: str, target_fp: str) -> list[Measurement]:
        """Every record of one dispatch on one target, oldest first."""
        rows = self._execute(
            "SELECT * FROM measurements WHERE dispatch_fp = ? AND target_fp = ? ORDER BY created_at, rowid",
            (dispatch_fp, target_fp),
        ).fetchall()
        return [self._measurement(r) for r in rows]

    def count(self) -> int:
        return self._execute("SELECT COUNT(*) FROM measurements").fetchone()[0]

    # ---- calibration ----------------------------------------------------------
    def save_calibration(self, target_fp: str, params: dict) -> None:
        self._execute(
            "INSERT OR REPLACE INTO calibration (target_fp, params, updated_at) VALUES (?, ?, ?)",
            (target_fp, json.dumps(params, sort_keys=True), _now()),
        )

    def load_calibration(self, target_fp: str) -> dict | None:
        row = self._execute("SELECT params FROM calibration WHERE target_fp = ?", (target_fp,)).fetchone()
        return json.loads(row["params"]) if row else None

    # ---- export ---------------------------------------------------------------
    def _measurement_rows(self) -> list[dict]:
        rows = self._execute(
            f"SELECT {', '.join(MEASUREMENT_COLUMNS)} FROM measurements ORDER BY created_at, rowid").fetchall()
        return [dict(r) for r in rows]

    def export_csv(self, file: str | os.PathLike | IO[str]) -> int:
        """One CSV row per measurement (candidate as JSON text); returns the row count."""
        rows = self._measurement_rows()

        def write(f: IO[str]) -> None:
            writer = csv.DictWriter(f, fieldnames=MEASUREMENT_COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)

        _with_text_file(file, write)
        return len(rows)

    def export_json(self, file: str | os.PathLike | IO[str]) -> int:
        """Measurements and calibrations as one JSON document; returns the measurement count."""
        measurements = self._measurement_rows()
        for row in measurements:
            row["candidate"] = json.loads(row["candidate"]) if row["candidate"] else None
            row["details"] = json.loads(row["details"]) if row["details"] else {}
        calibration = [
            {"target_fp": r["target_fp"], "params": json.loads(r["params"]), "updated_at": r["updated_at"]}
            for r in self._execute("SELECT * FROM calibration ORDER BY target_fp").fetchall()
        ]
        document = {"schema_version": SCHEMA_VERSION, "measurements": measurements,
                    "calibration": calibration}
        _with_text_file(file, lambda f: (json.dump(document, f, indent=2), f.write("\n")))
        return len(measurements)


def _with_text_file(file, write) -> None:
    if hasattr(file, "write"):
        write(file)
        return
    with open(file, "w", newline="") as f:
        write(f)
