"""Non-blank lines of simbalance/ per folder at two commits, side by side (issue 36: "fewer lines for
the same features").

    python -m benchmarks.line_counts 107c033 HEAD

A folder is simbalance/'s first level (cli, core, ...); a game's package counts on its own
(games/aquaman, ...), and games/ alone is what lies directly in it (registry, spec alias). Python
files and the scaffold's templates count; configs and docs do not. Read from git, so the work tree
may be anywhere.
"""

from __future__ import annotations

import argparse
import subprocess
from collections import Counter


def _folder(path: str) -> str:
    parts = path.split("/")[1:]  # below simbalance/
    if parts[0] == "games" and len(parts) > 2:
        return f"games/{parts[1]}"
    return parts[0] if len(parts) > 1 else "(top)"


def line_counts(rev: str) -> Counter:
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "simbalance"], capture_output=True,
                           text=True, check=True).stdout.split()
    counts: Counter = Counter()
    for name in names:
        if not name.endswith((".py", ".tmpl")):
            continue
        text = subprocess.run(["git", "show", f"{rev}:{name}"], capture_output=True, text=True, check=True).stdout
        counts[_folder(name)] += sum(1 for line in text.splitlines() if line.strip())
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after", nargs="?", default="HEAD")
    args = parser.parse_args()
    before, after = line_counts(args.before), line_counts(args.after)
    print(f"| folder | {args.before} | {args.after} | change |\n|---|---:|---:|---:|")
    for folder in sorted(set(before) | set(after)):
        b, a = before[folder], after[folder]
        print(f"| {folder} | {b:,} | {a:,} | {a - b:+,} |")
    b, a = sum(before.values()), sum(after.values())
    print(f"| **total** | {b:,} | {a:,} | {a - b:+,} |")


if __name__ == "__main__":
    main()
