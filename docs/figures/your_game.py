"""Regenerate every command output of docs/your-game.md: `make docs-your-game` (or
`python docs/figures/your_game.py` with this checkout's simbalance importable).

It plays the walk-through for real. In a temporary folder it makes a fresh venv that sees this
checkout's simbalance and its dependencies (tests/venvs.py: only the new game gets installed there,
nothing in yours), then runs the page's commands in order: `simbalance new-game trick-race`, `pip
install -e`, the runs, the designer's rule change (the edits in ``EDITS``, applied to the files and
shown in the page as diffs), the tests, the comparison, a baseline and its check. Each step's
output replaces the text between ``<!-- output NAME -->`` and ``<!-- end output -->`` in the page,
shown as a designer types the command (``simbalance ...``, paths relative to the folder they work
in). The sentences that quote numbers are written from the run folders (``findings``), the solve's
from its solution.json.
tests/test_docs_figures.py checks that markers and steps match, without playing anything.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "your-game.md"
MARKER = re.compile(r"(<!-- output (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end output -->)", re.S)
GAME, PACKAGE = "trick-race", "trick_race"
TARGET = 3  # the template's rules.target: tricks that win
BASELINE = f"{GAME}/{PACKAGE}/configs/baselines/{GAME}.json"
# A step's time limit. tests/venvs.py's default (10 minutes) is too short on a shared machine: the
# game's first pytest and first run compile its numba kernels (minutes each at a load of 10 on 2
# cores), and each solve plays its 2-minute budget after compiling the search player.
STEP_TIMEOUT_S = 60 * 60


@dataclass(frozen=True)
class Edit:
    """One change of the designer's: in ``path`` (relative to the game's folder), ``old`` becomes
    ``new`` (``old`` empty: a new file)."""

    path: str
    old: str
    new: str


# The designer's own rule, "catch-up lead": the player with the fewest tricks leads the next trick.
EDITS = [
    Edit(f"{PACKAGE}/state_nb.py",
         "TRICK_CAP = 4  # a game still running after this many tricks ends as a timeout\nN_RULES = 5\n",
         "TRICK_CAP = 4  # a game still running after this many tricks ends as a timeout\n"
         "CATCH_UP = 5  # 1: the player with the fewest tricks leads the next trick\nN_RULES = 6\n"),
    Edit(f"{PACKAGE}/rules_nb.py", "    BEST_SEAT,\n", "    BEST_SEAT,\n    CATCH_UP,\n"),
    Edit(f"{PACKAGE}/rules_nb.py",
         "    if rules[WINNER_LEADS] != 0:\n        leader = winner\n",
         "    if rules[CATCH_UP] != 0:  # rule 7b: the fewest tricks lead; of equals, the first after the taker\n"
         "        points = state[S_POINTS]\n"
         "        seat = winner\n"
         "        leader = -1\n"
         "        for _ in range(players):\n"
         "            seat = seat + 1 if seat + 1 < players else 0\n"
         "            if leader < 0 or points[seat] < points[leader]:\n"
         "                leader = seat\n"
         "    elif rules[WINNER_LEADS] != 0:\n        leader = winner\n"),
    Edit(f"{PACKAGE}/engine.py", "from trick_race.state_nb import (\n", "from trick_race.state_nb import (\n    CATCH_UP,\n"),
    Edit(f"{PACKAGE}/engine.py",
         '    rules[TRICK_CAP] = require_int(cfg, "rules.trick_cap", 1, 10**6)\n',
         '    rules[TRICK_CAP] = require_int(cfg, "rules.trick_cap", 1, 10**6)\n'
         '    rules[CATCH_UP] = require_bool(cfg, "rules.catch_up")\n'),
    Edit(f"{PACKAGE}/configs/{GAME}.toml",
         "trick_cap = 100 ",
         "catch_up = false              # true: the player with the fewest tricks leads the next trick\n"
         "trick_cap = 100 "),
    Edit(f"{PACKAGE}/configs/{GAME}/variants/catch-up.toml", "",
         'description = "The player with the fewest tricks leads the next trick."\n[rules]\ncatch_up = true\n'),
    Edit("tests/test_rules.py",
         "def test_each_player_draws_after_a_trick_the_winner_first():\n",
         "def test_catch_up_the_fewest_tricks_lead():\n"
         "    ctx = table(3, hand_size=2, catch_up=True)\n"
         "    state = deal(ctx, [9, 8], [1, 2], [3, 4])\n"
         "    play(ctx, state, 9, 1, 3)  # seat 0 takes the trick: seats 1 and 2 have none, seat 1 comes first\n"
         "    assert state[S_INFO][LEADER] == 1\n"
         "\n\n"
         "def test_each_player_draws_after_a_trick_the_winner_first():\n"),
]


def apply(folder: Path, edits: list[Edit]) -> str:
    """Make the edits in the game's folder; returns their diff, one per file in the order of EDITS."""
    originals: dict[str, str | None] = {}
    for edit in edits:
        path = folder / edit.path
        originals.setdefault(edit.path, path.read_text() if path.exists() else None)
        before = path.read_text() if edit.old else ""
        if edit.old and before.count(edit.old) != 1:
            raise SystemExit(f"{edit.path}: the text to change is not there once (the template changed?): {edit.old!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(before.replace(edit.old, edit.new, 1) if edit.old else edit.new)
    diffs = []
    for rel, original in originals.items():
        after = (folder / rel).read_text().splitlines(True)
        before = original.splitlines(True) if original is not None else []
        diffs += difflib.unified_diff(before, after, f"a/{rel}" if original is not None else "/dev/null", f"b/{rel}", n=2)
    return "".join(diffs)


def fenced(command: str | None, text: str, lang: str = "text") -> str:
    """A code block: the command as typed, then its output (blank lines around it and trailing
    spaces, which the terminal tables print, dropped)."""
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    body = "\n".join(([f"$ {command}"] if command else []) + lines)
    return f"```{lang}\n{body}\n```\n"


def first_lines(text: str, n: int) -> str:
    lines = text.rstrip("\n").splitlines()
    return "\n".join(lines[:n] + (["..."] if len(lines) > n else []))


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def findings(work: Path) -> dict[str, str]:
    """The page's sentences with numbers, from the run folders the steps wrote."""
    import pandas as pd

    first = json.loads((work / "runs" / "first" / "summary.json").read_text())
    seats = [s["win_rate"] for s in first["seats"]]
    out = {"first-run-finding": (
        f"Player 1 wins {pct(seats[0])} of the games and player 4 {pct(seats[3])}, where 25% is fair: balance "
        f"{pct(first['balance'])}. Player 4 plays last to the first trick, knowing the three cards before its own, "
        f"and player 1 leads it blind: where a player sits matters more than the template's rules intend. "
        f"(Terminal tables and pages number players from 1; the data, the code and the replay count seats "
        f"from 0.)")}
    search = {row["strategy"]: row for row in
              json.loads((work / "runs" / "search" / "summary.json").read_text())["strategies"]}
    mcts, greedy = search["mcts"], search["greedy"]
    out["search-finding"] = (
        f"mcts wins {pct(mcts['win_rate'])} of the games it plays (95% CI {pct(mcts['ci_low'])} to "
        f"{pct(mcts['ci_high'])}), greedy {pct(greedy['win_rate'])} of its own, where 25% is fair: with 200 "
        f"play-outs a decision, greedy's own play-outs among them, the search finds better cards than greedy plays. "
        f"It costs time (the games a second above): the heuristics play the millions of games, the search players "
        f"check that a verdict does not depend on them.")
    table = pd.read_parquet(work / "runs" / "catch-up" / "comparison.parquet")

    def row(variant: str, metric: str):
        return table[(table["variant"] == variant) & (table["metric"] == metric)].iloc[0]

    catch, rotate = row("catch-up", "balance"), row("rotating-lead", "balance")
    s0, s3 = row("catch-up", "win rate seat 0"), row("catch-up", "win rate seat 3")
    out["finding"] = (
        f"Catch-up lead lifts player 1 from {pct(s0['baseline'])} to {pct(s0['value'])} (difference "
        f"{100 * s0['diff']:+.1f} pp, 95% CI {100 * s0['ci_low']:+.1f} to {100 * s0['ci_high']:+.1f}), but player 4 "
        f"still wins {pct(s3['value'])}: balance goes from {pct(catch['baseline'])} to {pct(catch['value'])}. The "
        f"template's plain rotating lead does better, {pct(rotate['value'])} (CI of the difference "
        f"{100 * rotate['ci_low']:+.1f} to {100 * rotate['ci_high']:+.1f} pp). Both differences are measured game "
        f"by game on the same deals (common random numbers), so a change of a point or two is not noise.")
    return out


def said(tests: list[dict]) -> str:
    """Each target's value and 95% interval, as solution.json's ``metrics`` give them."""
    return ", ".join(f"{t['metric']} {pct(t['value'])} (95% CI {pct(t['ci_low'])} to {pct(t['ci_high'])})"
                     for t in tests)


VERDICTS = {"meets": "it meets the targets", "does not meet": "it does not meet the targets",
            "not settled": "whether it meets the targets is not settled at that many games"}


def solve_findings(work: Path) -> dict[str, str]:
    """The sentences of the solve section, from the head-start run and solution.json."""
    first = json.loads((work / "runs" / "first" / "summary.json").read_text())["seats"][0]["win_rate"]
    ahead = json.loads((work / "runs" / "head-start" / "summary.json").read_text())["seats"][0]["win_rate"]
    out = {"head-start-finding": (
        f"A head start of one trick lifts player 1 from {pct(first)} to {pct(ahead)}, where 25% is fair: from "
        f"{100 * (0.25 - first):.1f} points below the fair share to {100 * (ahead - 0.25):.1f} "
        f"{'above' if ahead >= 0.25 else 'below'} it. One trick is the smallest head start there is, and in a race "
        f"to {TARGET} tricks it is a large one.")}
    out["solve-finding"] = answer(work / "runs" / "solve")
    side = [f["text"] for f in json.loads((work / "runs" / "solve-patient" / "findings.json").read_text())["findings"]
            if f["kind"] == "solution"]
    out["solve-patient-finding"] = answer(work / "runs" / "solve-patient", ["patient"]) + (
        f" What else it changes, in its page's words: {side[0]}" if side else "")
    return out


def answer(folder: Path, strategies: list[str] | None = None) -> str:
    """What a solve's folder says: its answer, on how many games with which players (``strategies``,
    the solve's --strategies; None: the config's, from the manifest, which records no --strategies),
    each target's interval, today's, and the verdicts under the other players (solution.json);
    without a verified answer, its own first finding (why not)."""
    solution = json.loads((folder / "solution.json").read_text())
    if solution["no_change_needed"]:
        return "solve finds that today's rules already meet the targets: no change needed."
    if not (solution["changes"] and solution["verified"] and solution["meets"]):
        return "solve's answer: " + json.loads((folder / "findings.json").read_text())["findings"][0]["text"]
    models = "; ".join(f"under {m['model']} ({m['games']:,} games) {VERDICTS.get(m['verdict'], 'its verdict: ' + m['verdict'])}: {said(m['tests'])}"
                       for m in solution["models"])
    seats = strategies or json.loads((folder / "manifest.json").read_text())["config"]["game"]["strategies"]
    lineup = f"{seats[0]} at every seat" if len(seats) == 1 else "the lineup " + ", ".join(seats)
    first = solution["metrics"][0].get("model")  # the lineup's own model: the other models' come after

    def mine(tests: list[dict]) -> list[dict]:
        return [t for t in tests if t.get("model") == first]

    return (f"solve's answer is {solution['words']} (`{solution['set']}`): on {solution['metrics'][0]['games']:,} "
            f"fresh games with {lineup}, {said(mine(solution['metrics']))}, where today's rules have "
            f"{said(mine(solution['today']))}. With other players: {models}.")


def play(work: Path) -> dict[str, str]:
    """Every step of the page, in order: its name -> the Markdown that goes between its markers."""
    sys.path.insert(0, str(ROOT / "tests"))
    from venvs import Venv, ok

    venv = Venv(work.parent / "venv", share_packages=True, columns=110)
    out: dict[str, str] = {}

    def step(name: str, command: str, result, keep: int | None = None) -> None:
        text = ok(result).stdout.replace(str(work) + "/", "").replace(str(work), ".")
        out[name] = fenced(command, first_lines(text, keep) if keep else text)

    def simbalance(name: str, *args: str, keep: int | None = None) -> None:
        step(name, "simbalance " + " ".join(args), venv.simbalance(*args, cwd=work, timeout=STEP_TIMEOUT_S), keep)

    def pytest(name: str) -> None:
        step(name, f"pytest {GAME} -q", venv.simbalance_python("-m", "pytest", GAME, "-q", "-p", "no:cacheprovider",
                                                                cwd=work, timeout=STEP_TIMEOUT_S))

    simbalance("new-game", "new-game", GAME, "--out", GAME)
    result = ok(venv.pip("install", "-e", f"{work / GAME}[test]", timeout=STEP_TIMEOUT_S))  # as new-game's next steps say
    out["install"] = fenced(f"pip install -e '{GAME}[test]'", "...\n" + result.stdout.strip().splitlines()[-1])
    venv.columns = 170  # the games table is wide
    simbalance("games", "games")
    venv.columns = 110
    pytest("first-tests")
    simbalance("first-run", "run", GAME, "--n", "1e5", "--out", "runs/first")
    simbalance("replay", "replay", GAME, "--seed", "0", "--game", "3", keep=12)
    simbalance("search-run", "run", GAME, "--n", "2000", "--strategies", "mcts,greedy,greedy,greedy", "--rotate",
               "--out", "runs/search")
    out["edits"] = fenced(None, apply(work / GAME, EDITS), "diff")
    pytest("tests-again")
    simbalance("compare", "compare", GAME, "--variant", "catch-up", "--variant", "rotating-lead", "--n", "1e5",
               "--out", "runs/catch-up")
    out["knobs-table"] = fenced(None, config_tables(work / GAME / PACKAGE / "configs" / f"{GAME}.toml",
                                                   "compensation", "knobs"), "toml")
    simbalance("head-start", "run", GAME, "--n", "1e5", "--set", "compensation.points.1=1", "--out", "runs/head-start")
    simbalance("solve", "solve", GAME, "--budget", "2m", "--out", "runs/solve")
    simbalance("solve-patient", "solve", GAME, "--strategies", "patient", "--budget", "2m", "--out", "runs/solve-patient")
    simbalance("baseline", "baseline", GAME, "--n", "1e5", "--out", BASELINE)
    simbalance("check", "check", BASELINE)
    out.update({name: text + "\n" for name, text in {**findings(work), **solve_findings(work)}.items()})
    return out


def config_tables(path: Path, first: str, last: str) -> str:
    """The config file's lines from its ``[first]`` table to the end of its ``[last]`` table (the
    next table that is neither, or a blank line before one)."""
    lines = path.read_text().splitlines()
    start = lines.index(f"[{first}]")
    end = lines.index(f"[{last}]") + 1
    while end < len(lines) and not (lines[end].startswith("[") and not lines[end].startswith(f"[{last}")):
        end += 1
    return "\n".join(lines[start:end]).rstrip()


STEPS = ["new-game", "install", "games", "first-tests", "first-run", "replay", "search-run", "edits", "tests-again",
         "compare", "knobs-table", "head-start", "solve", "baseline", "check", "first-run-finding", "search-finding",
         "finding", "head-start-finding", "solve-finding", "solve-patient", "solve-patient-finding"]  # markers in the page, for the docs test


def markers(text: str) -> list[str]:
    return [m.group("name") for m in MARKER.finditer(text)]


def main() -> None:
    text = PAGE.read_text()
    missing = sorted(set(STEPS) ^ set(markers(text)))
    if missing:
        raise SystemExit(f"{PAGE}: markers and steps differ: {missing}")
    with tempfile.TemporaryDirectory(prefix="simbalance-your-game-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        outputs = play(work)
    PAGE.write_text(MARKER.sub(lambda m: m.group(1) + outputs[m.group("name")] + m.group(4), text))
    print(f"{PAGE}: {len(outputs)} outputs regenerated")


if __name__ == "__main__":
    main()
