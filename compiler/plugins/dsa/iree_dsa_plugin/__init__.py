"""DSA target plugin."""
