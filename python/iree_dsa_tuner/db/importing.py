"""Telemetry write-back (R8.2): measurements exported elsewhere, merged into this database.

`db export` writes CSV (one row per measurement) or JSON (measurements and
calibrations). Another rung of the feedback ladder (a cycle-approximate model,
silicon) or another machine exports its records; importing them here keeps each
record's runner and target fingerprint, so they never mix with this machine's
timings of another target. Where both sides hold the same (dispatch, target,
candidate), the later measurement wins, as when a candidate is re-measured.

Every row is checked before anything is written: a malformed file changes nothing
and its error names the file, the row and the field.
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..core.measurement import MEASUREMENT_STATUSES, Measurement
from ..errors import InputError
from .database import MEASUREMENT_COLUMNS, SCHEMA_VERSION, TuningDatabase

STATUSES = tuple(str(s) for s in MEASUREMENT_STATUSES)
_REQUIRED = ("dispatch_fp", "target_fp", "candidate_key", "status")


class MalformedExport(InputError):
    """An import file that is not what `db export` writes; names file, row and field."""


@dataclass(frozen=True)
class ImportedRecord:
    dispatch_fp: str
    target_fp: str
    candidate_key: str
    measurement: Measurement
    candidate: dict | None
    code_version: str = ""


@dataclass(frozen=True)
class BestChange:
    """A dispatch whose best measurement is another one after the import."""

    dispatch: str
    dispatch_fp: str
    target_fp: str
    runner: str
    before_us: float | None
    after_us: float


@dataclass
class ImportSummary:
    added: int = 0
    replaced: int = 0
    kept: int = 0  # this database's record was newer
    calibrations: int = 0
    changed: list[BestChange] = field(default_factory=list)


def _number(value, where: str, required: bool) -> float | None:
    if value is None or value == "":
        if required:
            raise ValueError(f"{where}: missing (required for an 'ok' measurement)")
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: expected a number, got {value!r}") from None
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{where}: expected a non-negative number, got {value!r}")
    return number


def _json_object(value, where: str) -> dict | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise ValueError(f"{where}: not JSON text") from None
    if value is not None and not isinstance(value, dict):
        raise ValueError(f"{where}: expected a JSON object")
    return value


def _record(row: dict) -> ImportedRecord:
    for name in _REQUIRED:
        if not isinstance(row.get(name), str) or not row[name]:
            raise ValueError(f"{name}: missing or empty")
    status = row["status"]
    if status not in STATUSES:
        raise ValueError(f"status: expected one of {', '.join(STATUSES)}, got {status!r}")
    median = _number(row.get("median_us"), "median_us", status == "ok")
    minimum = _number(row.get("min_us"), "min_us", False)
    estimate = _number(row.get("estimate_us"), "estimate_us", False)
    repetitions = row.get("repetitions") or 0
    try:
        repetitions = int(repetitions)
    except (TypeError, ValueError):
        raise ValueError(f"repetitions: expected an integer, got {repetitions!r}") from None
    texts = {}
    for name in ("dispatch", "runner", "reason", "created_at", "code_version"):
        value = row.get(name) or ""
        if not isinstance(value, str):
            raise ValueError(f"{name}: expected text, got {value!r}")
        texts[name] = value
    if not texts["created_at"]:
        raise ValueError("created_at: missing (when the measurement was made)")
    candidate = _json_object(row.get("candidate"), "candidate")
    details = _json_object(row.get("details"), "details") or {}
    m = Measurement(status, median, minimum if minimum is not None else median, repetitions,
                    reason=texts["reason"], runner=texts["runner"], candidate=candidate, estimate_us=estimate,
                    dispatch=texts["dispatch"], created_at=texts["created_at"], details=details)
    return ImportedRecord(row["dispatch_fp"], row["target_fp"], row["candidate_key"], m, candidate,
                          texts["code_version"])


def _rows_of(path: Path, text: str) -> tuple[list[dict], list[dict]]:
    """(measurement rows, calibration entries) of a CSV or JSON export."""
    if text.lstrip().startswith("{"):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as e:
            raise MalformedExport(f"{path}: not JSON ({e})") from None
        if not isinstance(document, dict) or not isinstance(document.get("measurements"), list):
            raise MalformedExport(f"{path}: expected the JSON of `db export --json` (a 'measurements' list)")
        if document.get("schema_version") != SCHEMA_VERSION:
            raise MalformedExport(f"{path}: schema_version {document.get('schema_version')!r}, this tuner reads "
                                  f"{SCHEMA_VERSION}")
        rows = document["measurements"]
        calibration = document.get("calibration") or []
        if not isinstance(calibration, list):
            raise MalformedExport(f"{path}: 'calibration' must be a list")
        return rows, calibration
    reader = csv.DictReader(text.splitlines())
    header = reader.fieldnames or []
    # Exports from before records carried their code version have no such column.
    missing = [c for c in MEASUREMENT_COLUMNS if c not in header and c != "code_version"]
    if missing:
        raise MalformedExport(f"{path}: not a `db export --csv` file (no column {missing[0]!r} in the header)")
    return list(reader), []


def read_export(path: str | Path) -> tuple[list[ImportedRecord], list[dict]]:
    """Every record of an export file, checked; raises MalformedExport on the first bad one."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise MalformedExport(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MalformedExport(f"{path}: is a directory, expected an export file") from None
    except UnicodeDecodeError:
        raise MalformedExport(f"{path}: not a text file") from None
    except OSError as e:
        raise MalformedExport(f"{path}: {e.strerror}") from None
    rows, calibration = _rows_of(path, text)
    records = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise MalformedExport(f"{path}: measurement {number}: expected an object")
        try:
            records.append(_record(row))
        except ValueError as e:
            raise MalformedExport(f"{path}: measurement {number}: {e}") from None
    for number, entry in enumerate(calibration, start=1):
        if not (isinstance(entry, dict) and isinstance(entry.get("target_fp"), str) and entry["target_fp"]
                and isinstance(entry.get("params"), dict)):
            raise MalformedExport(f"{path}: calibration {number}: expected {{target_fp, params, updated_at}}")
    return records, calibration


def _best(db: TuningDatabase, dispatch_fp: str, target_fp: str) -> Measurement | None:
    ok = [m for m in db.measurements(dispatch_fp, target_fp) if m.ok and m.median_us is not None]
    return min(ok, key=lambda m: m.median_us) if ok else None


def import_export(db: TuningDatabase, path: str | Path) -> ImportSummary:
    """Merge an export file into `db`; returns what changed, including each dispatch's best."""
    records, calibration = read_export(path)
    summary = ImportSummary()
    pairs = sorted({(r.dispatch_fp, r.target_fp) for r in records})
    before = {pair: _best(db, *pair) for pair in pairs}
    for r in records:
        existing = db.lookup(r.dispatch_fp, r.target_fp, r.candidate_key)
        if existing is not None and (existing.created_at or "") > r.measurement.created_at:
            summary.kept += 1
            continue
        db.record_measurement(r.dispatch_fp, r.target_fp, r.measurement, candidate=r.candidate,
                              key=r.candidate_key, code_version=r.code_version)
        if existing is None:
            summary.added += 1
        else:
            summary.replaced += 1
    for entry in calibration:
        db.save_calibration(entry["target_fp"], entry["params"])
        summary.calibrations += 1
    for pair in pairs:
        old, new = before[pair], _best(db, *pair)
        if new is None:
            continue
        if old is None or new.median_us != old.median_us or new.candidate != old.candidate:
            summary.changed.append(BestChange(new.dispatch or (old.dispatch if old else ""), pair[0], pair[1],
                                              new.runner, old.median_us if old else None, new.median_us))
    return summary
