"""Where a run's time goes: the engine's functions while games play, and the report's steps.

    python -m benchmarks.profile [GAME] [--n 60000] [--report-n 1000000] [--write]
    python -m benchmarks.profile [GAME] --n 20000 --instructions

Engine: a child process plays ``--n`` games on one thread under ``perf record`` (cpu-clock
sampling; Linux ``perf`` needed, else this part is skipped with a note). The child compiles the
engine itself (an empty ``NUMBA_CACHE_DIR``), so that every jitted function is in memory and can be
named in a perf map (``/tmp/perf-PID.map``); only the samples taken while games play count. A
function's share includes what numba or LLVM inlined into it. Report: ``simbalance run``'s
report steps at ``--report-n`` games under cProfile (cumulative seconds per step).
``--instructions``: instead, the hottest machine instructions of the busiest jitted functions
(perf's samples at each address, the code read from the child's memory and disassembled by objdump).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r'''
import ctypes, json, os, sys, time
import simbalance
from simbalance.studies.run import plan_run

game, n = sys.argv[1], int(sys.argv[2])
simbalance.simulate(game, 50, seed=1, threads=1)  # compile here: the code is then in memory
entries, seen = set(), set()
for cres in plan_run(game, 1, threads=1).kernel.overloads.values():
    for lib in [cres.library, *getattr(cres.library, "_linking_libraries", [])]:
        module = getattr(lib, "_final_module", None)
        if module is None or id(lib) in seen:
            continue
        seen.add(id(lib))
        for fn in module.functions:
            if not fn.is_declaration:
                address = lib._codegen._engine.get_function_address(fn.name)
                if address:
                    entries.add((address, fn.name))
entries = sorted(entries)
dump = sys.argv[3] if len(sys.argv) > 3 else ""  # --instructions: each function's machine code, to disassemble
mapped = [tuple(int(x, 16) for x in line.split()[0].split("-")) for line in open("/proc/self/maps")]
codes = []
with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
    for i, (address, name) in enumerate(entries):
        end = entries[i + 1][0] if i + 1 < len(entries) else address + 65536
        fh.write(f"{address:x} {end - address:x} {name}\n")
        if dump:
            end = min([end] + [hi for lo, hi in mapped if lo <= address < hi])  # never read past the mapping
            with open(os.path.join(dump, f"{i}.bin"), "wb") as out:
                out.write(ctypes.string_at(address, end - address))
            codes.append((i, address, end - address, name))
if dump:
    json.dump(codes, open(os.path.join(dump, "codes.json"), "w"))
start = time.clock_gettime(time.CLOCK_MONOTONIC)
simbalance.simulate(game, n, seed=2, threads=1)
end = time.clock_gettime(time.CLOCK_MONOTONIC)
print(json.dumps({"start": start, "end": end, "pid": os.getpid()}))
'''

REPORT_STEPS = {  # cProfile function name -> the step it stands for
    "records_to_frame": "records to the games DataFrame",
    "write_games_parquet": "games.parquet",
    "_summary": "summary (every metric)",
    "run_figures": "figures drawn",
    "save_figures": "figures saved as PNG",
    "render_report": "report.html",
}


def readable(symbol: str) -> str:
    """``_ZN10simbalance5games14captain_future13strategies_nb8_targetsB4v318...`` -> ``strategies_nb._targets``."""
    if not symbol.startswith("_ZN"):
        return symbol
    names, rest = [], symbol[3:]
    while rest[:1].isdigit():
        digits = re.match(r"\d+", rest)[0]
        length = int(digits)
        names.append(rest[len(digits) : len(digits) + length])
        rest = rest[len(digits) + length :]
    return ".".join(names[-2:]) if names else symbol


def engine_profile(game: str, n: int) -> list[tuple[str, float]] | str:
    if shutil.which("perf") is None:
        return "perf is not installed: engine profile skipped"
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache")}
        run = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-k", "CLOCK_MONOTONIC",
                              "-o", str(data), sys.executable, "-c", CHILD, game, str(n)],
                             capture_output=True, text=True, env=env)
        if run.returncode != 0:
            return f"perf record failed: {run.stderr.strip()[-300:]}"
        times = json.loads(run.stdout.strip().splitlines()[-1])
        report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "sym", "-g", "none",
                                 "--percent-limit", "0", "--time", f"{times['start']:.6f},{times['end']:.6f}",
                                 "--stdio"], capture_output=True, text=True)
        Path(f"/tmp/perf-{times['pid']}.map").unlink(missing_ok=True)
    shares: dict[str, float] = {}
    other = 0.0
    for line in report.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[[.k]\]\s+(\S+)", line)
        if not m:
            continue
        share, symbol = float(m[1]), m[2]
        if symbol.startswith("_ZN10simbalance"):
            name = readable(symbol)
            shares[name] = shares.get(name, 0.0) + share
        else:
            other += share
    rows = sorted(shares.items(), key=lambda kv: -kv[1])
    return [*rows, ("outside the engine (Python, the runner, the kernel's OS calls)", other)]


def instruction_profile(game: str, n: int, functions: int = 3, top: int = 12) -> str:
    """The hottest machine instructions of the ``functions`` functions with the most samples: perf's
    cpu-clock samples at each address of the jitted code (a sample often lands on the instruction
    after the one that stalled), the code disassembled with objdump. For looking, not for the docs."""
    if shutil.which("perf") is None or shutil.which("objdump") is None:
        return "perf and objdump are needed for --instructions"
    import bisect
    from collections import Counter

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache")}
        run = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "2999", "-k", "CLOCK_MONOTONIC",
                              "-o", str(data), sys.executable, "-c", CHILD, game, str(n), tmp],
                             capture_output=True, text=True, env=env)
        if run.returncode != 0:
            return f"perf record failed: {run.stderr.strip()[-300:]}"
        times = json.loads(run.stdout.strip().splitlines()[-1])
        Path(f"/tmp/perf-{times['pid']}.map").unlink(missing_ok=True)
        script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip", "--time",
                                 f"{times['start']:.6f},{times['end']:.6f}"], capture_output=True, text=True)
        codes = sorted(json.loads((Path(tmp) / "codes.json").read_text()), key=lambda c: c[1])
        starts = [c[1] for c in codes]
        at, per_function, total = Counter(), Counter(), 0
        for line in script.stdout.split():
            ip, total = int(line, 16), total + 1
            k = bisect.bisect_right(starts, ip) - 1
            if k >= 0 and ip < codes[k][1] + codes[k][2]:
                at[ip] += 1
                per_function[k] += 1
        lines = []
        for k, count in per_function.most_common(functions):
            index, address, size, name = codes[k]
            lines.append(f"{readable(name)}: {count / total:.1%} of the samples; its hottest instructions:")
            asm = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "--no-show-raw-insn",
                                  f"--adjust-vma={address}", str(Path(tmp) / f"{index}.bin")],
                                 capture_output=True, text=True).stdout
            rows = []
            for row in asm.splitlines():
                m = re.match(r"\s*([0-9a-f]+):\s*(.*)", row)
                if m and at.get(int(m[1], 16)):
                    rows.append((at[int(m[1], 16)], int(m[1], 16) - address, m[2]))
            for hits, offset, text in sorted(rows, reverse=True)[:top]:
                lines.append(f"  {hits / count:6.1%}  +{offset:#06x}  {text}")
    return "\n".join(lines)


def report_profile(game: str, n: int) -> tuple[list[tuple[str, float]], float]:
    """Each report step's share of the report (cProfile, cumulative) and the report's seconds
    without the profiler."""
    import cProfile
    import pstats

    import simbalance
    from simbalance.report.run_folder import claim_out_dir, write_run_folder

    result = simbalance.simulate(game, n, seed=3)

    def write(folder: Path) -> float:
        start = time.perf_counter()
        with claim_out_dir(folder, result.game) as target:
            write_run_folder(result, target, command="benchmarks.profile")
        return time.perf_counter() - start

    profile = cProfile.Profile()
    with tempfile.TemporaryDirectory() as tmp:
        profile.enable()
        profiled = write(Path(tmp) / "profiled")
        profile.disable()
        # the result's summary and games are cached by now: a fresh result for the plain timing
        result = simbalance.simulate(game, n, seed=3)
        plain = write(Path(tmp) / "plain")
    rows = [(REPORT_STEPS[name], cumulative / profiled)
            for (_, _, name), (_, _, _, cumulative, _) in pstats.Stats(profile).stats.items() if name in REPORT_STEPS]
    return sorted(rows, key=lambda r: -r[1]), plain


def markdown(game: str, n: int = 60_000, report_n: int = 1_000_000) -> str:
    """Both profiles as Markdown, with the command that regenerates them."""
    from simbalance.games.registry import get_game

    version = get_game(game).load().version
    lines = [f"Where a game's time goes ({game} engine v{version}, default lineup, one thread, {n:,} games; "
             "perf's cpu-clock samples while games play):", ""]
    engine = engine_profile(game, n)
    if isinstance(engine, str):
        lines += [engine, ""]
    else:
        lines += ["| function (with what is inlined into it) | share of play time |", "|---|---|"]
        lines += [f"| `{name}` | {share:.1f}% |" if name.startswith(("strategies", "rules", "play", "state"))
                  else f"| {name} | {share:.1f}% |" for name, share in engine if share >= 0.1]
        lines.append("")
    steps, seconds = report_profile(game, report_n)
    lines += [f"Where the report's time goes ({report_n:,} games: {seconds:.1f} s to write the run folder; each "
              "step's share from cProfile, cumulative):", "", "| step | share of the report |", "|---|---|"]
    lines += [f"| {name} | {share:.0%} |" for name, share in steps]
    lines += ["", f"<sub>`python -m benchmarks.profile {game} --n {n} --report-n {report_n}` (also run by "
              "`make bench`)</sub>"]
    return "\n".join(lines)


def write_into(doc: Path, text: str, name: str = "profile") -> None:
    """Replace the block between ``<!-- NAME -->`` and ``<!-- end NAME -->`` in ``doc``."""
    content = doc.read_text()
    begin, end = f"<!-- {name} -->", f"<!-- end {name} -->"
    if begin not in content or end not in content:
        raise SystemExit(f"{doc}: no {begin} ... {end} block to write into")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    doc.write_text(f"{head}{begin}\n{text}\n{end}{tail}")


DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="captain-future")
    parser.add_argument("--n", type=int, default=60_000, help="games played under perf (one thread)")
    parser.add_argument("--report-n", type=int, default=1_000_000, help="games whose report is profiled")
    parser.add_argument("--instructions", action="store_true",
                        help="only the hottest machine instructions of the busiest jitted functions (objdump)")
    parser.add_argument("--write", action="store_true",
                        help="write it into docs/rules/GAME.md (between <!-- profile --> markers)")
    args = parser.parse_args()
    if args.instructions:
        print(instruction_profile(args.game, args.n))
        return
    text = markdown(args.game, args.n, args.report_n)
    print(text)
    if args.write:
        write_into(DOCS / f"{args.game}.md", text)


if __name__ == "__main__":
    main()
