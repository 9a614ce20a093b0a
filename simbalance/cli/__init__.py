"""The `simbalance` command line: one module per command, joined in main.py."""
