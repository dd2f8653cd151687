"""Summary tables, JSON reports and plots."""

from .table import format_table, plural, write_output

__all__ = ["format_table", "plural", "write_output"]
