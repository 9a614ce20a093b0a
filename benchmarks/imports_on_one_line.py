"""simbalance/ at a commit, copied with every import on one line (issue 52 item 6: repeated code
counted without the lists of imported names).

    python -m benchmarks.imports_on_one_line bd48b7a /tmp/one-line-main
    duplicates --repo /tmp/one-line-main/simbalance

A counter of repeated lines that passes over an import line still reads the names inside a long
``from x import (...)``, one a line as ruff's isort writes them: two files importing the same run
of a dozen constants then look like repeated code. Here each such import becomes one line (the
lines it took are kept as blank comments, so every other line keeps its number); nothing else
changes. Read from git, so the work tree may be anywhere; DEST must not exist yet.
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import tarfile
from pathlib import Path


def one_line_imports(source: str) -> str:
    """``source`` with each import that spans several lines on its first line (comments dropped)."""
    lines = source.split("\n")
    spans = [(node.lineno, node.end_lineno) for node in ast.walk(ast.parse(source))
             if isinstance(node, (ast.Import, ast.ImportFrom)) and node.end_lineno > node.lineno]
    for first, last in sorted(spans, reverse=True):
        indent = lines[first - 1][:len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        joined = " ".join(line.split("#")[0].strip() for line in lines[first - 1:last])
        lines[first - 1:last] = [indent + joined] + ["#"] * (last - first)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the commit, e.g. HEAD")
    parser.add_argument("dest", type=Path, help="a new folder for the copy")
    args = parser.parse_args()
    args.dest.mkdir(parents=True)  # fails if it exists: never writes over anything
    archive = subprocess.run(["git", "archive", args.rev, "simbalance"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(args.dest, filter="data")
    for path in sorted((args.dest / "simbalance").rglob("*.py")):
        path.write_text(one_line_imports(path.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{args.dest / 'simbalance'}: simbalance/ at {args.rev}, every import on one line")


if __name__ == "__main__":
    main()
