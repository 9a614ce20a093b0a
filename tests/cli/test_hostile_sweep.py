"""The project's own hostile sweep (issue 54 item 6): its table in docs/operations.md is generated
from the tests (tests/hostile_sweep.py) and must match them, and the cases no other test had yet:

- numbers written other than in ASCII digits, for every whole-number and decimal option kind of the
  commands (" 7 ", full-width, Arabic-Indic, a newline: Python's int() reads them all as 7);
- a plug-in game that exits, raises, loops or writes garbage from game 3000 on, in every command
  that plays it (``run``, ``compare``, ``sweep``);
- a SIGKILL of every study while it writes its folder (its whole folder built, not yet renamed into
  place): the same command again (a run: ``--resume``) gives the folder of an uninterrupted run,
  and no half-written folder is left.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import hostile_sweep
import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


# ---------------------------------------------------------------- the table


def test_the_docs_table_is_the_sweep_and_it_has_150_cases():
    rows = hostile_sweep.all_rows()
    assert len(rows) >= hostile_sweep.LEAST, len(rows)
    assert len({row.test for row in rows}) == len(rows), "a test named by two rows"
    held = hostile_sweep.page_table(hostile_sweep.DOC.read_text(encoding="utf-8"))
    assert held == hostile_sweep.render(rows), "docs/operations.md is out of date: python tests/hostile_sweep.py"
    kinds = {row.group for row in rows}
    assert {"paths", "numbers", "configs", "checkpoints", "plug-ins", "kills", "studies"} <= kinds, kinds


@pytest.mark.exhaustive
def test_pytest_collects_every_test_the_table_names():
    """Every row's test is one pytest collects (a row of a list computed when its module loads:
    that function)."""
    rows = hostile_sweep.all_rows()
    files = sorted({row.test.split("::")[0] for row in rows})
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly", "-n", "0",
                           "-m", "", *files], capture_output=True, text=True, cwd=ROOT)
    collected = {line.strip() for line in done.stdout.splitlines() if "::" in line}
    functions = {node.split("[")[0] for node in collected}
    missing = [row.test for row in rows
               if (row.test.split("[")[0] not in functions if row.test.endswith("[*]") else row.test not in collected)]
    assert not missing, missing[:10]


# ---------------------------------------------------------------- numbers in ASCII digits

NUMBER_TEXTS = {
    # the case: the text typed
    "spaces around": " 7 ",
    "a newline after": "7\n",
    "full-width digits": "\uff17",
    "Arabic-Indic digits": "\u0667",
}
NUMBER_OPTIONS = {
    # the option, in its command: the command before the number
    "run --threads": ["run", "find-dr-evil", "--n", "10", "--out", "{tmp}/r", "--threads"],
    "run --seed": ["run", "find-dr-evil", "--n", "10", "--out", "{tmp}/r", "--seed"],
    "run --players": ["run", "find-dr-evil", "--n", "10", "--out", "{tmp}/r", "--players"],
    "run --chunk-size": ["run", "find-dr-evil", "--n", "10", "--out", "{tmp}/r", "--chunk-size"],
    "run --precision": ["run", "find-dr-evil", "--n", "10", "--out", "{tmp}/r", "--precision"],
    "run --robust-budget": ["run", "find-dr-evil", "--n", "10", "--out", "{tmp}/r", "--robust", "--robust-budget"],
    "compare --seed": ["compare", "find-dr-evil", "--arm", "a:rules.pick_cap=5", "--n", "10", "--out", "{tmp}/c",
                       "--seed"],
    "sweep --recheck": ["sweep", "find-dr-evil", "--param", "rules.pick_cap=4:8:2", "--n", "10", "--out", "{tmp}/s",
                        "--recheck"],
    "tune --generations": ["tune", "captain-action", "--strategy", "builder", "--n", "10", "--out", "{tmp}/t",
                           "--generations"],
    "solve --max-keys": ["solve", "find-dr-evil", "--knob", "rules.first_card_to=0:3", "--out", "{tmp}/v",
                         "--max-keys"],
    "replay --game": ["replay", "find-dr-evil", "--game"],
    "card-value --playouts": ["card-value", "captain-action", "--out", "{tmp}/cv", "--playouts"],
    "tournament --threads": ["tournament", "captain-action", "--strategies", "random,builder", "--n", "16", "--out",
                             "{tmp}/tt", "--threads"],
}


@pytest.mark.parametrize("text", NUMBER_TEXTS)
@pytest.mark.parametrize("option", NUMBER_OPTIONS)
def test_a_number_not_in_ascii_digits_is_one_line(tmp_path, option, text):
    args = [a.replace("{tmp}", str(tmp_path)) for a in NUMBER_OPTIONS[option]] + [NUMBER_TEXTS[text]]
    res = runner.invoke(app, args)
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1, (res.output, res.exception)
    flag = option.split()[1]
    assert lines[0].startswith(f"error: {flag} {NUMBER_TEXTS[text]!r}: write the number in the digits 0-9"), lines[0]
    assert sorted(tmp_path.iterdir()) == []


# Numbers inside an option's text, read by the study's own parser (qa54b: all three exited 0): Python's
# int() takes "1_000_"'s underscores and full-width digits, re's \\d full-width digits.
NUMBER_VALUES = {
    # the case: (the command, the error's words)
    "--n with an underscore at its end": (["run", "find-dr-evil", "--n", "1_000_", "--out", "{tmp}/r"], "--n '1_000_'"),
    "--n with an underscore at its start": (["run", "find-dr-evil", "--n", "_1000", "--out", "{tmp}/r"], "--n '_1000'"),
    "sweep --param values in full-width digits": (
        ["sweep", "find-dr-evil", "--param", "rules.repeat_min_holders=\uff12,3", "--n", "100", "--out", "{tmp}/s"],
        "rules.repeat_min_holders takes whole numbers"),
    "sweep --param range in full-width digits": (
        ["sweep", "find-dr-evil", "--param", "rules.repeat_min_holders=\uff12:3:1", "--n", "100", "--out", "{tmp}/s"],
        "expected key=start:stop:step"),
    "solve --budget in full-width digits": (
        ["solve", "find-dr-evil", "--budget", "\uff120s", "--out", "{tmp}/v"], "--budget \uff120s: give a time"),
    "solve --knob bounds in full-width digits": (
        ["solve", "find-dr-evil", "--knob", "rules.first_card_to=0:\uff13", "--out", "{tmp}/v"], "rules.first_card_to"),
    "tune --range in full-width digits": (
        ["tune", "captain-action", "--strategy", "builder", "--range", "call_score=0:\uff11", "--out", "{tmp}/t"],
        "--range 'call_score=0:\uff11'"),
}


@pytest.mark.parametrize("case", NUMBER_VALUES)
def test_a_number_inside_an_options_value_not_in_ascii_digits_is_one_line(tmp_path, case):
    args, words = NUMBER_VALUES[case]
    res = runner.invoke(app, [a.replace("{tmp}", str(tmp_path)) for a in args])
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (res.output, res.exception)
    assert words in lines[0], lines[0]
    assert sorted(tmp_path.iterdir()) == []


def test_numbers_in_ascii_digits_are_still_read(tmp_path):
    res = runner.invoke(app, ["run", "find-dr-evil", "--n", "100", "--out", str(tmp_path / "r"), "--threads", "1",
                              "--seed", "7", "--players", "3", "--chunk-size", "1_000", "--quiet"])
    assert res.exit_code == 0, res.output


# ---------------------------------------------------------------- plug-ins in every command that plays one

PLANTED = ROOT / "tests" / "planted"
# The chunk watchdog's limit here: a chunk of the planted game before it loops takes milliseconds
# (its kernel is compiled or loaded before the first chunk is watched), and the looping chunk burns a
# core until the limit (issue 56: 20 s each, three commands).
LOOP_SECONDS = 8
PLUGIN_DOES = {
    # what the planted game does from game 3000 on: the words of the one line
    "exit": "the process ended abruptly (exit 0)",
    "raise": "raised ValueError: my game gave up at game 3000",
    "garbage": "record has length = 2147483647, outside what the record allows",
    "loop": f"did not finish within {LOOP_SECONDS} s: does it loop?",
}
PLUGIN_COMMANDS = {
    "run": ["run", "hostile-game", "--n", "6000", "--out", "{tmp}/o"],
    "compare": ["compare", "hostile-game", "--arm", "cap:rules.pick_cap=9000", "--n", "6000", "--out", "{tmp}/o"],
    "sweep": ["sweep", "hostile-game", "--param", "rules.pick_cap=8000:9000:1000", "--n", "6000", "--out", "{tmp}/o"],
}


def simbalance_process(*args: str, env: dict | None = None, seconds: float = 400,
                       cwd: Path | None = None) -> tuple[int | None, str]:
    """``simbalance ARGS`` in a process of its own (as a user runs it: the guard is the command
    line's): (exit code, its output); None when it outlasted ``seconds``."""
    environment = {**os.environ, "COLUMNS": "200", **(env or {})}
    try:
        done = subprocess.run([sys.executable, "-m", "simbalance.cli.main", *args], capture_output=True, text=True,
                              env=environment, timeout=seconds, stdin=subprocess.DEVNULL, cwd=cwd)
    except subprocess.TimeoutExpired:
        return None, "(hung)"
    return done.returncode, done.stdout + done.stderr


@pytest.mark.exhaustive
@pytest.mark.parametrize("does", PLUGIN_DOES)
@pytest.mark.parametrize("command", PLUGIN_COMMANDS)
def test_a_hostile_plugin_game_is_one_line_in_every_command(tmp_path, command, does):
    site = tmp_path / "site"
    info = site / "hostile_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hostile-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[simbalance.games]\nhostile-game = hostile_game\n")
    env = {"HOSTILE_DOES": does, "SIMBALANCE_CHUNK_SECONDS": str(LOOP_SECONDS), "SIMBALANCE_PROBE_SECONDS": "120",
           "PYTHONPATH": os.pathsep.join([str(site), str(PLANTED), *(p for p in sys.path if p)])}
    args = [a.replace("{tmp}", str(tmp_path)) for a in PLUGIN_COMMANDS[command]] + ["--threads", "1"]
    code, out = simbalance_process(*args, env=env)
    lines = [line for line in out.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (code, out)
    assert lines[0].startswith("error: plug-in game 'hostile-game' (plug-in hostile-game 0.1): "), lines[0]
    assert PLUGIN_DOES[does] in lines[0], lines[0]
    assert not (tmp_path / "o").exists()
    assert not (tmp_path / ".o.lock").exists()  # the guard removes a lock the ended command held (qa54)
    if command != "run":  # a study keeps no checkpoint: the line must not send the user to one
        assert "checkpoint" not in lines[0], lines[0]


# ---------------------------------------------------------------- a kill of every study while it writes

STUDY_KILLS = ["run", "compare", "sweep", "solve", "tournament", "skill", "tune", "ladder", "robustness", "card-value",
               "lengths"]
KILL_STEP = "before the folder's rename"  # report/run_folder.py: the folder whole, under its temporary name


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", STUDY_KILLS)
def test_a_kill_of_every_study_while_it_writes_gives_the_same_folder_again(tmp_path, name):
    from test_study_contract import STUDIES, numbers_of

    example = [*STUDIES[name].example, "--seed", "3", *(["--quiet"] if name == "run" else [])]
    env = {"SIMBALANCE_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    whole, killed = tmp_path / "whole", tmp_path / "killed"  # the same --out, o, in each: the same command
    whole.mkdir()
    killed.mkdir()
    code, out = simbalance_process(name, *example, "--out", "o", env=env, cwd=whole)
    assert code in (0, 1), out  # (1: a verdict, not an error)
    code, out = simbalance_process(name, *example, "--out", "o", env={**env, "SIMBALANCE_KILL_AT": KILL_STEP},
                                   cwd=killed)
    assert code == -9, (code, out)
    assert not (killed / "o").exists()
    again = ["run", "--resume", "o.partial", "--quiet"] if name == "run" else [name, *example, "--out", "o"]
    code, out = simbalance_process(*again, env=env, cwd=killed)
    assert code in (0, 1), out
    assert numbers_of(killed / "o") == numbers_of(whole / "o")
    assert not [p.name for p in killed.iterdir() if ".writing-" in p.name or p.name.endswith(".partial")]
