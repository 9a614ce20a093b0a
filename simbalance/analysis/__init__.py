"""Metrics computed from the per-game records (pandas only ever sees records)."""
