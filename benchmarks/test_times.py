"""Where the test suite's time goes: docs/architecture.md's "Tests" table, from pytest's JUnit XML.

Record a run (the whole suite, one process, so that each test's time is its own)::

    .venv/bin/python -m pytest -p no:cacheprovider --junitxml=cold.xml      # on a fresh clone
    .venv/bin/python -m pytest -p no:cacheprovider --junitxml=warm.xml      # again, warm
    python -m benchmarks.test_times keep cold.xml benchmarks/results/tests-DATE-fresh-clone.json
    python -m benchmarks.test_times table benchmarks/results/tests-DATE-fresh-clone.json \\
        benchmarks/results/tests-DATE-warm.json

A test's share of a cold compile falls to whichever test first needs the kernel, so the groups'
"compiles" column is each group's fresh-clone time less its warm time: what the cache saves it.
The tier of each test is read from the current tests (``pytest --collect-only -m exhaustive``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

# (group, patterns of test ids): the first group whose pattern matches holds the test
GROUPS = [
    ("boundscheck recompiles", ["tests/core/test_codegen.py::test_no_index_is_negative*"]),
    ("fresh venvs (the wheel, and a new game's walk in its venv)", ["tests/test_packaging.py::*"]),
    ("browser", ["tests/report/test_pages_in_browser.py::*"]),
    ("notebook", ["tests/test_example_notebook.py::*"]),
    ("plug-in compiles (per run, never cached)", ["tests/test_user_strategy_example.py::*",
                                                  "tests/games/lady_actions_escape/test_lady_actions_escape_user_strategy.py::*",
                                                  "tests/test_bad_inputs.py::*plug-in*", "tests/test_plugin_games.py::*"]),
    ("whole runs in subprocesses", ["tests/cli/test_operations.py::*", "tests/core/test_execution.py::*",
                                    "tests/cli/test_cli_run.py::test_the_console_entry_point*",
                                    "tests/test_contract.py::test_plain_python*", "tests/core/test_determinism.py::*",
                                    "tests/core/test_checkpoint_faults.py::*"]),
    ("search players", ["tests/players/test_search.py::*", "tests/games/*/test_*_search.py::*",
                        "tests/studies/*"]),
    ("statistics and studies", ["tests/games/*/test_*_stats.py::*", "tests/analysis/*", "tests/games/*/test_*_players.py::*",
                                "tests/games/*/test_*_strategies.py::*", "tests/test_stalemates.py::*",
                                "tests/games/*/test_*_stalemates.py::*"]),
    ("engines: contract, rules, state, replay", ["tests/test_contract.py::*", "tests/test_fixed_seed_records.py::*",
                                                 "tests/games/*"]),
    ("CLI, reports, config, units", ["*"]),
]


def read(path: Path) -> dict[str, float]:
    """Test id -> seconds, from a JUnit XML file or a file this script kept."""
    if path.suffix == ".json":
        return json.loads(path.read_text())["seconds"]
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        test_id = case.get("classname").replace(".", "/") + ".py::" + case.get("name")
        out[test_id] = out.get(test_id, 0.0) + float(case.get("time"))
    return out


def group_of(test_id: str) -> str:
    return next(name for name, patterns in GROUPS if any(fnmatch.fnmatch(test_id, p) for p in patterns))


def exhaustive_ids() -> set[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "exhaustive",
                           "-p", "no:cacheprovider"], capture_output=True, text=True)
    return {line.strip() for line in done.stdout.splitlines() if "::" in line}


def table(cold: dict[str, float], warm: dict[str, float]) -> str:
    exhaustive = exhaustive_ids()
    rows: dict[str, dict] = {}
    for test_id in sorted(set(cold) | set(warm)):
        row = rows.setdefault(group_of(test_id), {"tests": 0, "test": [0.0, 0.0], "all": [0.0, 0.0], "exhaustive": 0})
        tier = "all" if test_id in exhaustive else "test"
        row["tests"] += 1
        row["exhaustive"] += test_id in exhaustive
        row[tier][0] += cold.get(test_id, 0.0)
        row[tier][1] += warm.get(test_id, 0.0)
    lines = ["| group | tests (exhaustive) | fresh clone, s | warm, s | compiles (fresh − warm), s | of it in `make test`: fresh, warm s |",
             "|---|---:|---:|---:|---:|---:|"]
    order = [name for name, _ in GROUPS if name in rows]
    for name in sorted(order, key=lambda n: -(rows[n]["test"][0] + rows[n]["all"][0])):
        r = rows[name]
        fresh, warm_s = r["test"][0] + r["all"][0], r["test"][1] + r["all"][1]
        lines.append(f"| {name} | {r['tests']} ({r['exhaustive']}) | {fresh:,.0f} | {warm_s:,.0f} | "
                     f"{max(fresh - warm_s, 0):,.0f} | {r['test'][0]:,.0f}, {r['test'][1]:,.0f} |")
    tot = [sum(r[t][i] for r in rows.values()) for t in ("test", "all") for i in (0, 1)]
    count = sum(r["tests"] for r in rows.values())
    lines.append(f"| **all** | {count} ({sum(r['exhaustive'] for r in rows.values())}) | {tot[0] + tot[2]:,.0f} | "
                 f"{tot[1] + tot[3]:,.0f} | {max(tot[0] + tot[2] - tot[1] - tot[3], 0):,.0f} | {tot[0]:,.0f}, {tot[1]:,.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    keep = sub.add_parser("keep", help="keep a JUnit XML file's test times as a small JSON file")
    keep.add_argument("junit", type=Path)
    keep.add_argument("out", type=Path)
    tab = sub.add_parser("table", help="the table of docs/architecture.md, 'Tests'")
    tab.add_argument("fresh", type=Path)
    tab.add_argument("warm", type=Path)
    args = parser.parse_args(argv)
    if args.command == "keep":
        seconds = read(args.junit)
        args.out.write_text(json.dumps({"source": args.junit.name, "tests": len(seconds),
                                        "seconds": {k: round(v, 3) for k, v in sorted(seconds.items())}}, indent=0) + "\n")
        print(f"{len(seconds)} tests, {sum(seconds.values()):,.0f} s -> {args.out}")
    else:
        print(table(read(args.fresh), read(args.warm)))


if __name__ == "__main__":
    main()
