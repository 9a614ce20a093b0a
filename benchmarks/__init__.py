"""`make bench`: speed and memory of every engine, written to BENCHMARKS.md and results/*.json."""
