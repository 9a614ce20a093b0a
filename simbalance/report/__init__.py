"""Figures (pure functions of DataFrames) and the run folder with its self-contained HTML page."""
