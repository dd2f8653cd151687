"""Summary tables, JSON reports and plots."""

from .table import format_table, write_output

__all__ = ["format_table", "write_output"]
