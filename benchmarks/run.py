"""Benchmark every engine side by side in one run and write BENCHMARKS.md.

    python -m benchmarks.run [--games a,b] [--quick] [--no-write]

Measured per engine (default strategies, warm JIT cache): games/s and turns/s (decisions) at 2 and
4 players on 1 thread and on all threads; compile time with a cold and a warm cache; peak memory per
10^6 games; speed-up over the same code as plain Python (NUMBA_DISABLE_JIT=1, small n). Then whole
CLI runs: `simbalance run find-dr-evil --n 1000` cold and warm, `--n 1e6` warm, a 10^7-game run's
peak memory, and `simbalance run captain-future --n 1e6`.

Speed is never asserted in unit tests: this script is where it is measured. The machine is shared
and noisy, so compare figures measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
SIMBALANCE = [sys.executable, "-m", "simbalance.cli.main"]
TARGETS = {  # 4 players, default strategies, 2 cores, warm cache (shared/guide/targets.md)
    "find-dr-evil": 2_000_000,
    "lady-actions-escape": None,  # target in turns/s: 15 M
    "captain-action": 200_000,
    "aquaman": 20_000,
    "captain-future": 40_000,
}
TURN_TARGETS = {"lady-actions-escape": 15_000_000}
CLI_TARGETS = {  # wall seconds (targets.md)
    "find-dr-evil --n 1000 (cold cache)": 15,
    "find-dr-evil --n 1000 (warm cache)": 2,
    "captain-future --n 1e6 (warm cache)": 30,
}


def child(code: str, env: dict | None = None, timeout: float = 1800) -> tuple[float, str, float]:
    """Run Python code in a fresh process: (wall seconds, stdout, peak RSS in MiB of that process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, **(env or {})}, capture_output=True,
                         text=True, timeout=timeout, cwd=ROOT)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, out.stdout.strip(), max(peak, before) / 1024


def cli(args: list[str], env: dict | None = None, repeat: int = 1) -> tuple[float, float]:
    """Wall seconds (the best of ``repeat`` runs) and peak RSS (MiB) of one `simbalance` command in a
    fresh process."""
    code = f"import sys; sys.argv = {['simbalance', *args]!r}; from simbalance.cli.main import main; main()"
    wall = min(child(code, env)[0] for _ in range(repeat))
    # ru_maxrss of RUSAGE_CHILDREN is the largest child so far; measure in a wrapper for a clean number
    wrapper = (
        "import resource, subprocess, sys; "
        f"subprocess.run({[sys.executable, '-c', code]!r}, check=True, capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    _, out, _ = child(wrapper, env)
    return wall, int(out) / 1024


def rate(game: str, players: int, threads: int | None, seconds: float) -> dict:
    """games/s and turns/s in this process (warm), sized to run about ``seconds``."""
    import simbalance

    probe = simbalance.simulate(game, 2000, players=players, threads=threads, seed=1)
    n = int(max(2000, min(5e7, seconds * 2000 / max(probe.elapsed, 1e-6))))
    best = None
    for rep in range(3):  # the best of three: the machine is shared, a neighbour's burst only lowers a figure
        res = simbalance.simulate(game, n, players=players, threads=threads, seed=100 + rep)
        g = n / res.elapsed
        t = float(res.records["length"].sum()) / res.elapsed
        if best is None or g > best["games_per_s"]:
            best = {"games_per_s": g, "turns_per_s": t, "n": n, "mean_length": float(res.records["length"].mean())}
    return best


def engine_rows(games: list[str], quick: bool) -> list[dict]:
    import numba

    import simbalance  # noqa: F401  (compile in this process before timing)
    from simbalance.games.registry import get_game

    all_threads = int(numba.config.NUMBA_NUM_THREADS)
    seconds = 0.7 if quick else 2.0
    rows = []
    for game in games:
        spec = get_game(game)
        row = {"game": game, "threads_all": all_threads}
        try:
            for players in sorted({max(spec.min_players, 2), 4} & set(range(spec.min_players, spec.max_players + 1))):
                for threads in (1, all_threads):
                    row[f"p{players}_t{threads}"] = rate(game, players, threads, seconds)
                    print(f"  {game} {players}p {threads}t: {row[f'p{players}_t{threads}']['games_per_s']:,.0f} games/s",
                          flush=True)
        except Exception as exc:  # an engine under construction must not stop the others' figures
            row["error"] = str(exc)
            print(f"  {game}: {exc}", flush=True)
        rows.append(row)
    return rows


def openspiel_yardstick(seconds: float) -> dict:
    """OpenSpiel's crazy_eights, 4 uniform random bots, the whole game in C++ (pyspiel.evaluate_bots),
    on one thread; decisions counted on a sample played step by step."""
    try:
        import pyspiel
    except ImportError:
        return {"skipped": "open_spiel is not installed (pip install open_spiel); yardstick skipped"}
    game = pyspiel.load_game("crazy_eights", {"players": 4})
    bots = [pyspiel.make_uniform_random_bot(p, 7) for p in range(4)]
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, games)
        games += 1
    rate = games / (time.perf_counter() - start)
    rng = __import__("random").Random(1)
    decisions = 0
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    per_game = decisions / 200
    return {"games_per_s": rate, "decisions_per_game": per_game, "decisions_per_s": rate * per_game}


def compile_times(game: str) -> dict:
    code = f"import time; t=time.perf_counter(); import simbalance; simbalance.simulate({game!r}, 50); print(time.perf_counter()-t)"
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache}
        cold = float(child(code, env)[1])
        warm = float(child(code, env)[1])
    return {"cold_s": cold, "warm_s": warm}


def plain_python_speedup(game: str, jit_rate_1t: float) -> dict:
    n = 200 if game in ("find-dr-evil", "captain-action") else 20
    code = (f"import simbalance; r = simbalance.simulate({game!r}, {n}, threads=1); print({n} / r.elapsed)")
    _, out, _ = child(code, {"NUMBA_DISABLE_JIT": "1"})
    py = float(out)
    return {"python_games_per_s": py, "speedup": jit_rate_1t / py if py else None, "n": n}


def memory_per_million(game: str, rate_all: float) -> dict:
    """Peak RSS of a process that plays and summarises a run (10^6 games, fewer for slow engines),
    and the size of 10^6 records (what grows with n; streamed runs keep none)."""
    n = int(min(1_000_000, max(20_000, rate_all * 4)))
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child forked from this (large)
    # bench process would report the bench's own size.
    code = (f"import simbalance; r = simbalance.simulate({game!r}, {n}); r.games; r.summary(); "
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]; "
            "print(hwm, r.records.dtype.itemsize)")
    peak, itemsize = child(code)[1].split()
    return {"n": n, "peak_mib": int(peak) / 1024, "records_mib_per_million": int(itemsize) * 1e6 / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=None, help="comma-separated game ids (default: all)")
    parser.add_argument("--quick", action="store_true", help="shorter measurements, skip the slow CLI runs")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write BENCHMARKS.md")
    args = parser.parse_args()

    from simbalance.games.registry import all_games

    games = args.games.split(",") if args.games else list(all_games())
    started = datetime.now(UTC)
    print("engine throughput (warm cache)", flush=True)
    rows = engine_rows(games, args.quick)
    for row in rows:
        if "error" in row:
            continue
        game = row["game"]
        print(f"  compile, memory, plain-Python baseline: {game}", flush=True)
        for key, measure in (("compile", lambda g=game: compile_times(g)),
                             ("memory", lambda g=game, r=row: memory_per_million(g, r[f"p4_t{r['threads_all']}"]["games_per_s"])),
                             ("plain_python", lambda g=game, r=row: plain_python_speedup(g, r["p4_t1"]["games_per_s"]))):
            try:
                row[key] = measure()
            except Exception as exc:  # e.g. an engine that cannot run as plain Python
                row[key] = {"error": str(exc)}

    yardstick = None
    if "lady-actions-escape" in games:
        print("  OpenSpiel crazy_eights yardstick (one thread)", flush=True)
        yardstick = openspiel_yardstick(1.0 if args.quick else 3.0)
        lady = next(r for r in rows if r["game"] == "lady-actions-escape")
        if "games_per_s" in yardstick and "p4_t1" in lady:
            yardstick["lady_games_ratio"] = lady["p4_t1"]["games_per_s"] / yardstick["games_per_s"]
            yardstick["lady_decisions_ratio"] = lady["p4_t1"]["turns_per_s"] / yardstick["decisions_per_s"]

    cli_runs = {}
    if "find-dr-evil" in games:
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
            cli_runs["find-dr-evil --n 1000 (cold cache)"] = cli(
                ["run", "find-dr-evil", "--n", "1000", "--out", f"{out}/a", "--quiet"], {"NUMBA_CACHE_DIR": cache})
            cli_runs["find-dr-evil --n 1000 (warm cache)"] = cli(  # a couple of seconds: the best of three
                ["run", "find-dr-evil", "--n", "1000", "--out", f"{out}/a", "--quiet"], {"NUMBA_CACHE_DIR": cache}, 3)
            cli_runs["find-dr-evil --n 1e6 (warm cache)"] = cli(
                ["run", "find-dr-evil", "--n", "1e6", "--out", f"{out}/b", "--quiet"])
            if not args.quick:
                cli_runs["find-dr-evil --n 1e7 (warm cache)"] = cli(
                    ["run", "find-dr-evil", "--n", "1e7", "--out", f"{out}/c", "--quiet"])
    if "captain-future" in games and not args.quick:
        with tempfile.TemporaryDirectory() as out:
            try:
                cli(["run", "captain-future", "--n", "1000", "--out", f"{out}/w", "--quiet"])  # warm the cache
                cli_runs["captain-future --n 1e6 (warm cache)"] = cli(
                    ["run", "captain-future", "--n", "1e6", "--out", f"{out}/a", "--quiet"])
            except Exception as exc:
                print(f"  captain-future CLI run failed: {exc}")
    for name, (wall, rss) in cli_runs.items():
        print(f"  simbalance run {name}: {wall:.2f} s, peak {rss:,.0f} MiB", flush=True)
    if "captain-future" in games and not args.quick and not args.no_write:
        from benchmarks import profile

        print("  where captain-future's time goes (docs/rules/captain-future.md, Speed)", flush=True)
        profile.write_into(profile.DOCS / "captain-future.md", profile.markdown("captain-future"))

    result = {
        "started_utc": started.isoformat(timespec="seconds"),
        "command": "make bench (" + " ".join(["python -m benchmarks.run", *sys.argv[1:]]) + ")",
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "engines": rows,
        "cli": {k: {"wall_s": w, "peak_mib": m} for k, (w, m) in cli_runs.items()},
        "openspiel": yardstick,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = started.strftime("%Y%m%d-%H%M%S")
    (RESULTS / f"{stamp}.json").write_text(json.dumps(result, indent=2) + "\n")
    text = render(result)
    print(text)
    if not args.no_write:  # the hand-written sections of BENCHMARKS.md stay as they are
        write_into(ROOT / "BENCHMARKS.md", text.rstrip("\n"), "bench")


def fmt(v: float | None, unit: str = "") -> str:
    if v is None:
        return "–"
    if v >= 1e6:
        return f"{v / 1e6:.2f} M{unit}"
    if v >= 1e3:
        return f"{v / 1e3:,.0f} k{unit}"
    return f"{v:,.1f}{unit}"


def render(result: dict) -> str:
    lines = [
        f"Produced by `{result['command']}` on {result['started_utc']} "
        f"({result['machine']['cpus']} cores, {result['machine']['platform']}, Python {result['machine']['python']}).",
        "All engines measured side by side in the same run, default strategies, warm JIT cache; "
        "each figure is the best of three runs of about 2 s through `simbalance.simulate`; "
        "turns/s counts each game's `length` (picks or turns: the decisions of the game).",
        "The machine is shared and noisy: compare rows of one run, not across runs.",
        "",
        "| engine | players | games/s 1 thread | games/s all threads | turns/s 1 thread | turns/s all threads "
        "| target (4 players) |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in result["engines"]:
        if "error" in row and "p4_t1" not in row:
            lines.append(f"| {row['game']} | – | – | – | – | – | not measured: {row['error']} |")
            continue
        t_all = row["threads_all"]
        for key in sorted(k for k in row if k.startswith("p") and k.endswith("_t1")):
            players = key[1:].split("_")[0]
            one, many = row[key], row.get(f"p{players}_t{t_all}", {})
            target = ""
            if players == "4":
                g = TARGETS.get(row["game"])
                t = TURN_TARGETS.get(row["game"])
                if g:
                    target = f"{fmt(g)} games/s: {'met' if many.get('games_per_s', 0) >= g else 'NOT met'}"
                if t:
                    target = f"{fmt(t)} turns/s: {'met' if many.get('turns_per_s', 0) >= t else 'NOT met'}"
            lines.append(
                f"| {row['game']} | {players} | {fmt(one['games_per_s'])} | {fmt(many.get('games_per_s'))} | "
                f"{fmt(one.get('turns_per_s'))} | {fmt(many.get('turns_per_s'))} | {target} |"
            )
    lines += ["", "| engine | compile cold | compile warm | records per 10^6 games | peak RSS, simulate + summary "
              "| plain Python games/s | JIT speed-up (1 thread) |", "|---|---|---|---|---|---|---|"]
    for row in result["engines"]:
        c, m, p = row.get("compile", {}), row.get("memory", {}), row.get("plain_python", {})
        if not (c or m or p):
            continue
        cold = f"{c['cold_s']:.1f} s" if "cold_s" in c else "–"
        warm = f"{c['warm_s']:.2f} s" if "warm_s" in c else "–"
        rec = f"{m['records_mib_per_million']:,.0f} MiB" if "records_mib_per_million" in m else "–"
        peak = f"{m['peak_mib']:,.0f} MiB ({m['n']:,} games)" if "peak_mib" in m else "–"
        py = fmt(p["python_games_per_s"]) if "python_games_per_s" in p else "not runnable as plain Python"
        speed = f"{p['speedup']:,.0f}x" if p.get("speedup") else "–"
        lines.append(f"| {row['game']} | {cold} | {warm} | {rec} | {peak} | {py} | {speed} |")
    if result["cli"]:
        lines += ["", "Whole commands in a fresh process (the warm `--n 1000` start-up: the best of three runs).", "",
                  "| whole command | wall time | peak memory | target |", "|---|---|---|---|"]
        for name, v in result["cli"].items():
            limit = CLI_TARGETS.get(name)
            target = f"{limit:g} s: {'met' if v['wall_s'] <= limit else 'not met'}" if limit else ""
            lines.append(f"| `simbalance run {name}` | {v['wall_s']:.2f} s | {v['peak_mib']:,.0f} MiB | {target} |")
    y = result.get("openspiel")
    if y:
        lines += ["", "## Outside yardstick: OpenSpiel crazy_eights (C++), one thread", ""]
        if "skipped" in y:
            lines.append(y["skipped"])
        else:
            lines += [
                "| | games/s | decisions/s |", "|---|---|---|",
                f"| OpenSpiel crazy_eights, 4 uniform random bots, `pyspiel.evaluate_bots` | {fmt(y['games_per_s'])} | "
                f"{fmt(y['decisions_per_s'])} ({y['decisions_per_game']:.0f} per game) |",
                f"| lady-actions-escape, 4 random players, 1 thread | {y['lady_games_ratio']:.1f}x crazy_eights | "
                f"{y['lady_decisions_ratio']:.1f}x crazy_eights |",
                "", "Issue 10 asked for 10x crazy_eights' games/s "
                f"({'met' if y['lady_games_ratio'] >= 10 else 'not met'}: {y['lady_games_ratio']:.1f}x). The two games "
                "differ in length (a random 4-player lady-actions-escape game is ~500 turns, crazy_eights ~80 "
                "decisions), so the newer targets page (shared guide, targets.md) states the lady-actions-escape target "
                "in turns/s (>= 15 M, above) and names crazy_eights' decisions/s as the yardstick: "
                f"{y['lady_decisions_ratio']:.1f}x per decision on one thread.",
            ]
    lines += ["", "Raw figures: `benchmarks/results/*.json`."]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
