"""The study contract (core/study.py), held against every study the registry finds, as
tests/test_contract.py holds every game to the game contract: a new module under
``simbalance/studies/`` with a ``STUDY`` is in every test below without an edit here.

- The declaration: a study declares its parameters once (a frozen dataclass of ``option`` fields),
  and its command's options and its API function's keywords are exactly those; a study that does
  not is refused by the registry's check (``check_study``), with one line naming what it lacks.
- Bad input: one line ``error: ...`` naming the option and the value, exit 2, nothing written.
- The same seed gives the same folder on 1 and 2 threads (the numbers: every ``*.json`` but the
  manifest, every ``*.parquet``). Dask: the studies that play on a backend are held to it in the
  exhaustive tier (``test_dask_gives_the_threads_result``); card-value and fit-eval among them
  since they play on the one executor (core/blocks.py, issue 52 item 2).
- Ctrl-C: the folder is whole (its manifest and page) or absent, never half; every declared study
  is stoppable (core/study.Study.stoppable) and stops inside its play, not after it: exit 130, one
  line, nothing written (tests/cli/test_study_interrupts.py sends it real signals).
- Every finding's claim is checked against its figure: one plain line, a known severity, its
  number inside its own interval, and each comparative claim against the comparison it keeps
  (``decided_by``: its verdict read again from its intervals, its words in the sentence).

Cheap games (find-dr-evil, captain-action) and a few hundred games; the studies whose cheapest run
still takes long (solve, tune, ladder, robustness, card-value, fit-eval) are in the exhaustive tier.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
from pathlib import Path

import pandas as pd
import pytest
import typer
from claims import check_claims
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.core.errors import SimbalanceError
from simbalance.core.study import Study, StudyParams, check_study, flag_of, option
from simbalance.studies.registry import all_studies, entry_of

runner = CliRunner()
STUDIES = {study.name: study for study in all_studies()}
# The studies whose command is still written by hand (issue 52 item 1, to be moved onto declared
# params one by one): a study not named here must declare its params. Shrink it, never grow it.
HAND_WRITTEN = {"check"}
# The cheapest example of these still takes more than a few seconds warm (or compiles a search kernel).
SLOW = {"solve", "tune", "ladder", "robustness", "card-value", "fit-eval"}
# ``check`` re-runs baselines (files, no GAME): its example is made by the test from a baseline.
NEEDS_A_BASELINE = {"check"}


def command(name: str):
    return typer.main.get_command(app).commands[name]


def options_of(name: str) -> set[str]:
    return {opt for param in command(name).params for opt in getattr(param, "opts", ()) if opt.startswith("-")}


def example_of(study: Study, tmp_path: Path) -> list[str]:
    if study.name in NEEDS_A_BASELINE:
        baseline = tmp_path / "baseline.json"
        if not baseline.exists():
            done = runner.invoke(app, ["baseline", "find-dr-evil", "--n", "300", "--out", str(baseline)])
            assert done.exit_code == 0, done.output
        return [str(baseline), "--n", "300"]
    return list(study.example)


def everyday(names):
    return [pytest.param(name, marks=pytest.mark.exhaustive) if name in SLOW else name for name in names]


def one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], (word, lines[0])


# ---------------------------------------------------------------- the declaration


def test_the_registry_finds_every_study_and_the_commands_and_api_come_from_it():
    import simbalance.api as api

    names = set(STUDIES)
    assert {"run", "compare", "sweep", "solve", "card-value", "robustness", "ladder", "tournament", "skill", "tune",
            "check", "fit-eval", "lengths"} <= names
    commands = set(typer.main.get_command(app).commands)
    assert names <= commands
    for study in STUDIES.values():
        assert getattr(api, study.entry_name) is entry_of(study) or study.declared


def test_every_study_not_yet_moved_is_listed_and_every_other_declares_its_params():
    assert {name for name, study in STUDIES.items() if not study.declared} == HAND_WRITTEN


@pytest.mark.parametrize("name", sorted(n for n in STUDIES if n not in HAND_WRITTEN))
def test_a_declared_study_s_options_and_keywords_are_its_params(name):
    study = STUDIES[name]
    fields = dataclasses.fields(study.params)
    flags = options_of(name)
    for f in fields:
        assert flag_of(f) in flags
    assert {"--out", "--seed", "--threads", "--players", "--set", "--variant", "--config", "--backend"} <= flags
    declared = {flag_of(f) for f in fields}  # a shared option may be the study's own (compare's --variant)
    own = flags - ({"--out", "--seed", "--threads", "--players", "--set", "--variant", "--config", "--backend",
                    "--scheduler", "--dask-timeout", "--help"} - declared)
    own -= {"--resume"} if study.resumable else set()  # a resumable study's checkpoint (core/study.Study.resumable)
    own -= {"--quiet"} if study.quiet else set()
    assert own == declared  # nothing declared twice, nothing beside the params
    keywords = inspect.signature(entry_of(study)).parameters
    runs = ("stop", "checkpoints") if study.keeps_blocks else ()  # block jobs: core/study.Study.keeps_blocks
    assert sorted(f.name for f in fields) == sorted(k for k in keywords
                                                    if k not in ("game", "progress", "settings", *runs))


@dataclasses.dataclass(frozen=True)
class GoodParams(StudyParams):
    n: int = option(100, count=True, help="Games.")


def _study(**changes) -> Study:
    good = Study("planted", rank=999, params=GoodParams, run=lambda settings, params, progress: None,
                 summary="A planted study.", page="planted.html", out_help="Output folder.",
                 example=("find-dr-evil",))
    return dataclasses.replace(good, **changes)


@dataclasses.dataclass
class NotFrozen(StudyParams):
    n: int = option(100, count=True, help="Games.")


@dataclasses.dataclass(frozen=True)
class NoHelp(StudyParams):
    n: int = 100


@dataclasses.dataclass(frozen=True)
class NotStudyParams:
    n: int = option(100, count=True, help="Games.")


@pytest.mark.parametrize(("change", "words"), [
    ({"params": NotFrozen}, "frozen dataclass"),
    ({"params": NoHelp}, "parameter n: declare it with core.study.option"),
    ({"params": NotStudyParams}, "StudyParams"),
    ({"run": None}, "declare run"),
    ({"example": ()}, "give example"),
    ({"page": ""}, "give summary, out_help and page"),
    ({"name": "Planted Study"}, "lowercase words"),
    ({"params": None}, "declare params and run, or name a hand-written command"),
    ({"keeps_blocks": True}, "takes run\\(settings, params, progress, \\*, stop, checkpoints\\)"),
    ({"resumable": True}, "a resumable or quiet study names its steps"),
    ({"quiet": "Print only the path."}, "a resumable or quiet study names its steps"),
    ({"out_after": "nosuch"}, "out_after 'nosuch': name one of the params"),
])
def test_a_new_study_that_does_not_meet_the_contract_is_refused(change, words):
    check_study(_study())  # the planted study itself meets it
    with pytest.raises(SimbalanceError, match=words):
        check_study(_study(**change))


def test_a_declared_parameter_is_checked_once_whichever_way_it_comes():
    with pytest.raises(SimbalanceError, match=r"n = 0: expected a whole number of games >= 1"):
        GoodParams(n=0)
    assert GoodParams(n=1e3).n == 1000  # the API may write a count as a float, as the CLI does
    skill = STUDIES["skill"].params
    assert skill(n=200, search_n=0).search_n == 0
    with pytest.raises(SimbalanceError, match="search_n -1: allowed a whole number from 0"):
        skill(n=200, search_n=-1)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_bad_input_is_one_line_exit_2_and_nothing_written(name, tmp_path, monkeypatch):
    study = STUDIES[name]
    monkeypatch.chdir(tmp_path)
    example = example_of(study, tmp_path)
    before = sorted(tmp_path.rglob("*"))
    flags = options_of(name)
    out = ["--out", str(tmp_path / "out")] if "--out" in flags else []
    one_line_error(runner.invoke(app, [name, *example, "--seed", "-1", *out]), "seed", "-1")
    if "--threads" in flags:
        one_line_error(runner.invoke(app, [name, *example, "--threads", "0", *out]), "--threads", "0")
    if "--n" in flags:
        one_line_error(runner.invoke(app, [name, *example, "--n", "many", *out]), "--n", "'many'")
    if "--out" in flags:
        (tmp_path / "a-file").write_text("mine")
        one_line_error(runner.invoke(app, [name, *example, "--out", str(tmp_path / "a-file" / "x")]), "a-file")
        assert (tmp_path / "a-file").read_text() == "mine"
        (tmp_path / "a-file").unlink()
    assert sorted(tmp_path.rglob("*")) == before  # no folder, no .partial, no report


# ---------------------------------------------------------------- one result whatever the threads


def numbers_of(folder: Path) -> dict:
    """The folder's numbers, as text (NaN equals NaN there): every JSON file but the manifest
    (which says when and how it ran) and every Parquet table; a study whose --out is one file
    (fit-eval's eval.json), that file's."""
    found = {}
    for path in [folder] if folder.is_file() else sorted(folder.rglob("*")):
        if (path.suffix == ".json" and path.name != "manifest.json") or path == folder:
            data = json.loads(path.read_text())
            if isinstance(data, dict):
                for volatile in ("elapsed", "elapsed_s", "seconds", "games_per_second", "created_utc", "command"):
                    data.pop(volatile, None)
            found["--out" if path == folder else path.name] = json.dumps(data, sort_keys=True)
        elif path.suffix == ".parquet":
            found[path.name] = pd.read_parquet(path).to_json()
    return found


def played(name: str, tmp_path: Path, label: str, *extra: str) -> Path:
    study = STUDIES[name]
    out = tmp_path / label
    args = [name, *example_of(study, tmp_path), "--seed", "3", *extra]
    if "--out" in options_of(name):
        args += ["--out", str(out)]
    done = runner.invoke(app, args)
    # CliRunner also says 1 for an exception it caught: only check's "a metric worse" is a verdict
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert done.exit_code in (0, 1), done.output
    assert out.exists() or "--out" not in options_of(name), done.output
    return out


@pytest.mark.parametrize("name", everyday(sorted(n for n in STUDIES if "--threads" in options_of(n))))
def test_the_same_seed_gives_the_same_folder_on_one_and_two_threads(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    one = numbers_of(played(name, tmp_path, "one", "--threads", "1"))
    two = numbers_of(played(name, tmp_path, "two", "--threads", "2"))
    assert one and one == two
    check_findings(tmp_path / "one")


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", sorted(n for n in STUDIES if "--backend" in options_of(n)))
def test_dask_gives_the_threads_result(name, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.chdir(tmp_path)
    local = numbers_of(played(name, tmp_path, "local", "--threads", "1"))
    dask = numbers_of(played(name, tmp_path, "dask", "--threads", "1", "--backend", "dask"))
    assert local == dask


# ---------------------------------------------------------------- the findings


def check_findings(folder: Path) -> None:
    """Every finding's claim against its figure: one plain line, a known severity, its number
    inside its own interval, and each comparative claim ("the most", "overstates", "beats every
    other") the verdict of the comparison it keeps, read again from its intervals (claims.check_claims)."""
    path = folder / "findings.json"
    if not path.exists():
        return
    for f in json.loads(path.read_text())["findings"]:
        check_claims(f)
        assert f["severity"] in ("high", "medium", "low")
        assert f["text"].strip() and "\n" not in f["text"] and "nan" not in f["text"].lower().split()
        if f.get("ci") is not None and f.get("number") is not None:
            low, high = f["ci"]
            assert low <= f["number"] + 1e-12 and f["number"] <= high + 1e-12, f
            assert not any(math.isnan(v) for v in (low, high, f["number"]))


# ---------------------------------------------------------------- Ctrl-C


class Interrupting:
    """A progress display that is Ctrl-C at its first update (studies show progress through the
    factory they are given: cli/terminal.RichProgress)."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        raise KeyboardInterrupt

    def close(self):
        pass


@pytest.mark.parametrize("name", everyday(sorted(n for n in STUDIES if "--out" in options_of(n))))
def test_ctrl_c_leaves_the_folder_whole_or_absent(name, tmp_path, monkeypatch):
    """Ctrl-C at the first progress update: exit 130 and no folder (a study writes its folder whole,
    at the end), or, for a run, its checkpoint alone in ``<out>.partial`` (what is known, to
    ``--resume``); a study that shows no progress finishes and writes its folder whole."""
    import simbalance.cli.terminal as terminal

    monkeypatch.chdir(tmp_path)
    example = example_of(STUDIES[name], tmp_path)
    before = {p.name for p in tmp_path.iterdir()}
    monkeypatch.setattr(terminal, "RichProgress", Interrupting)
    out = tmp_path / "out"
    done = runner.invoke(app, [name, *example, "--out", str(out)])
    assert done.exit_code in (0, 130), done.output
    assert "Traceback" not in done.output
    if done.exit_code == 130:
        assert not out.exists()
    else:
        assert (out / "manifest.json").exists() and (out / STUDIES[name].page).exists()
    partial = tmp_path / "out.partial"
    if partial.exists():
        # the checkpoint, and the marker that says simbalance wrote the folder (core/owned.py)
        assert sorted(p.name for p in partial.iterdir()) == [".simbalance", "checkpoint.npz"]
    assert {p.name for p in tmp_path.iterdir()} - before <= {"out", "out.partial"}


def test_every_declared_study_is_stoppable():
    """A declared study's command turns Ctrl-C and SIGTERM into a stop after the chunk in play only
    when it is stoppable (cli/study_command.stops_on_ctrl_c): a new study must be, as every other."""
    assert sorted(name for name, study in STUDIES.items() if study.declared and not study.stoppable) == []


@pytest.mark.parametrize("name", everyday(sorted(n for n in STUDIES if STUDIES[n].declared)))
def test_a_stop_asked_before_the_first_game_stops_the_play_itself(name, tmp_path, monkeypatch):
    """The command's handler (cli/interrupts.interruptible) planted as a Ctrl-C that came before the
    first game: the study's play must ask it (studies/run.play's default stop, or the stop a study
    passes on) and end, exit 130, with one line and nothing written. A study that plays without
    asking it runs to its end and is caught only by the command's check after the play ("after its
    last game"), which this test refuses."""
    import contextlib

    import simbalance.cli.interrupts as interrupts

    @contextlib.contextmanager
    def ctrl_c_already(aborted=""):
        yield lambda: True

    monkeypatch.setattr(interrupts, "interruptible", ctrl_c_already)
    monkeypatch.setenv("SIMBALANCE_CACHE_DIR", str(tmp_path / "cache"))  # block studies keep nothing of ours
    monkeypatch.chdir(tmp_path)
    (tmp_path / "work").mkdir()
    out = tmp_path / "work" / "out"
    done = runner.invoke(app, [name, *example_of(STUDIES[name], tmp_path), "--out", str(out)])
    assert done.exit_code == 130, done.output
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    if STUDIES[name].resumable:  # what is known stays in its checkpoint, and the line says how to finish it
        assert len(lines) == 1 and lines[0].startswith("interrupted after 0 of") and " --resume " in lines[0], lines
        assert not out.exists() and (tmp_path / "work" / "out.partial" / "checkpoint.npz").exists()
    else:
        assert len(lines) == 1 and lines[0].startswith(f"{name} interrupted") and "nothing written" in lines[0], lines
    assert "after its last game" not in lines[0], lines  # stopped in the play, not after it
    assert "Traceback" not in done.output
    kept = {"out.partial"} if STUDIES[name].resumable else set()
    assert {p.name for p in (tmp_path / "work").iterdir()} == kept
