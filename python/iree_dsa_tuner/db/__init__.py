"""Tuning records (SQLite, embedded): resume, cache across models, export."""

from .database import DEFAULT_DB_PATH, TuningDatabase
from ..core.fingerprint import (
    DEFAULT_CANDIDATE_KEY,
    candidate_key,
    dispatch_fingerprint,
    host_cpu_model,
    target_fingerprint,
)

__all__ = [
    "DEFAULT_CANDIDATE_KEY",
    "DEFAULT_DB_PATH",
    "TuningDatabase",
    "candidate_key",
    "dispatch_fingerprint",
    "host_cpu_model",
    "target_fingerprint",
]
