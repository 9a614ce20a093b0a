"""The solver's metagame target on captain-action (issue 55 item 5), a measurement, not a timed test:
    python -m benchmarks.meta_solve [--high 0.04] [--budget 10m] [--threads 2] [--seed 1] [--write]

``simbalance solve captain-action --target dominance=0:HIGH`` over the rules that bear on calling
"Let Justice Be Done!" (the countdown, its penalty, the Action Boys' points, when a call is made,
take-back), one knob at a time, the default population (every heuristic and preset that is not a
search player) and the solver's default player models (which, with the metagame's target alone,
play each verification for the compare table). Then the metagame of today's rules and of the
answer (``simbalance meta --n 2000``): the best strategy, its margin, whether one dominates every
field, and the equilibrium, under both. Prints what it finds with the wall and CPU time (this
process, every thread); ``--write`` puts it into BENCHMARKS.md and docs/meta.md between the markers
``<!-- meta-solve-ca -->``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import time
from datetime import UTC, datetime
from pathlib import Path

from benchmarks.profile import write_into

ROOT = Path(__file__).resolve().parents[1]
GAME = "captain-action"
KNOBS = ["rules.countdown=6:14", "rules.countdown_penalty=0:10", "rules.points_per_action_boy=4:12",
         "rules.call_timing=after_discard,before_draw", "rules.take_back"]
META_N = 2000  # games per composition of the metagame that checks the answer (simbalance meta --n)


def measure(high: float, budget: str, threads: int, seed: int) -> str:
    import simbalance
    import simbalance.api as api
    from simbalance.games.registry import get_game

    argv = ["simbalance", "solve", GAME, "--target", f"dominance=0:{high:g}"]
    for k in KNOBS:
        argv += ["--knob", k]
    argv += ["--max-keys", "1", "--budget", budget, "--seed", str(seed), "--threads", str(threads)]
    load_before = os.getloadavg()[0]
    begin, cpu_begin = time.perf_counter(), time.process_time()
    res = simbalance.solve(GAME, [f"dominance=0:{high:g}"], KNOBS, max_keys=1, budget=budget, seed=seed,
                           threads=threads)
    wall, cpu = time.perf_counter() - begin, time.process_time() - cpu_begin
    version = get_game(GAME).load().version
    command = " ".join(shlex.quote(a) for a in argv)
    lines = [f"`{command}` (`python -m benchmarks.meta_solve --high {high:g} --write`), "
             f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {GAME} engine v{version}, {os.cpu_count()} cores shared with "
             f"other work (load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end).", "",
             f"- the solve: wall time {wall:.0f} s, CPU time {cpu:.0f} s (this process, every thread: on a shared "
             f"machine the wall time is inflated by the others' load); {len(res.candidates)} candidates raced, "
             f"budget spent: {'yes' if res.budget_spent else 'no'}"]
    lines += [f"- {f.text}" for f in res.findings()]
    lines += [f"- note: {n}" for n in res.notes]
    chosen = res.chosen
    if res.command_of(chosen.words if chosen is not None else "") is not None:
        lines.append(f"- play it: `{res.solution()['command']}`")
    if chosen is not None:
        for m in chosen.models:
            if m["name"] != "metagame":
                lines.append(f"- {m['model']}, {m['games']:,} fresh games: {m['verdict']}")
        pair = res.changed_game_findings()
        if pair is not None:
            today, changed = pair
            lines.append(f"- the seats under {res.models[0].words()}, today: {today[0].text}")
            lines.append(f"- with the change: {changed[0].text}")
    overrides = [] if chosen is None else [f"{k}={v!r}".replace("'", '"') for k, v in chosen.change.items()]
    for label, over in (("today's rules", []), ("the answer", overrides)) if chosen is not None else ():
        begin, cpu_begin = time.perf_counter(), time.process_time()
        table = api.meta(GAME, n=META_N, bootstrap=100, seed=seed, threads=threads, overrides=over)
        wall, cpu = time.perf_counter() - begin, time.process_time() - cpu_begin
        best, margin = table.dominance
        kinds = {f.kind: f for f in table.findings()}
        lines.append(f"- the metagame of {label} (`simbalance meta {GAME} --n {META_N} --seed {seed}"
                     + "".join(f" --set {shlex.quote(o)}" for o in over) + f"`, {wall:.0f} s wall, {cpu:.0f} s CPU): "
                     f"dominance {best} {100 * margin.estimate:.2f} pts (95% CI {100 * margin.low:.2f} to "
                     f"{100 * margin.high:.2f}); a strategy better than every other against every field: "
                     f"{table.answer.dominant or 'none'}. {kinds['equilibrium'].text}"
                     + "".join(f" {kinds[k].text}" for k in ("equilibria_not_unique", "dominated_strategies")
                               if k in kinds))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--high", type=float, default=0.04, help="the target's upper end (dominance=0:HIGH)")
    parser.add_argument("--budget", default="10m")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write into BENCHMARKS.md and docs/meta.md")
    args = parser.parse_args()
    text = measure(args.high, args.budget, args.threads, args.seed)
    print(text)
    if args.write:
        write_into(ROOT / "BENCHMARKS.md", text, "meta-solve-ca")
        write_into(ROOT / "docs" / "meta.md", text, "meta-solve-ca")


if __name__ == "__main__":
    main()
