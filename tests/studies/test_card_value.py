"""`simbalance card-value` (issue 40; docs/card_value.md): the swap keeps every state valid, the
values say what the rules say (find-dr-evil's Dr. Ling, rule-identical cards, a deck of identical
cards), the same seed gives the same values on 1 and 2 threads, bad input is one line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from simbalance.cli.main import app
from simbalance.core.rng import seed_game
from simbalance.studies.card_value import PHASES, BlockSettings, card_value, play_card_values
from simbalance.studies.settings import RunSettings

runner = CliRunner()
HOOKED = ["find-dr-evil", "captain-action", "lady-actions-escape", "aquaman", "captain-future"]


def _n_cards(plan) -> int:
    engine = plan.engine
    return len(engine.cards.labels(plan.config)[0] if engine.cards is not None
               else engine.card_swap.labels(plan.config))


def _plan(game, **settings):
    return RunSettings.of(game, **settings).plan(1)


@pytest.mark.parametrize("game", HOOKED)
def test_swap_keeps_check_and_every_zone_count(game):
    """At decision points of many games, every held card of every seat swapped (several draws each):
    ``check`` holds, every zone keeps its count, the card left the seat's holding and the card
    swapped in joined it, the seat's other cards stayed, and no card was made or lost."""
    plan = _plan(game)
    engine = plan.engine
    res, swap = engine.resumable, engine.card_swap
    ctx = res.context(*plan.prepared)
    seats = plan.lineup.seats[0]
    sid = plan.lineup.slot_strategy[seats].astype(np.int64)
    prm = np.ascontiguousarray(plan.lineup.slot_params[seats])
    n_cards = _n_cards(plan)
    buf, zb, za = np.zeros(n_cards + 8, np.int64), np.zeros(32, np.int64), np.zeros(32, np.int64)
    rng = np.zeros(1, np.uint64)
    swaps = 0
    for g in range(20 if game in ("aquaman", "captain-future") else 60):
        state = res.new_state(ctx)
        res.start(ctx, state, np.uint64(3), np.int64(g))
        length = res.play_out(ctx, state, sid, prm, np.int64(-1))
        res.start(ctx, state, np.uint64(3), np.int64(g))
        res.play_out(ctx, state, sid, prm, np.int64(g % max(1, length)))
        if res.to_move(ctx, state) < 0:
            continue
        assert res.check(ctx, state) == 0
        nz = swap.zones(ctx, state, zb)
        for seat in range(plan.players):
            mine = sorted(buf[:swap.held(ctx, state, seat, buf)])
            everyone = sorted(c for s in range(plan.players) for c in buf[:swap.held(ctx, state, s, buf)])
            for card in mine:
                for draw in range(3):
                    copy = res.clone(state)
                    seed_game(rng, 11, g * 1000 + seat * 100 + draw)
                    came = swap.swap(ctx, copy, seat, card, rng)
                    if came < 0:
                        continue
                    swaps += 1
                    assert res.check(ctx, copy) == 0, (g, seat, card, came)
                    assert swap.zones(ctx, copy, za) == nz and (za[:nz] == zb[:nz]).all(), (g, seat, card)
                    now = sorted(buf[:swap.held(ctx, copy, seat, buf)])
                    rest = list(mine)
                    rest.remove(card)  # one copy (captain-future's hands are kinds: a seat may hold two)
                    assert now == sorted(rest + [came]), (g, seat, card, came)
                    if game == "find-dr-evil":  # the card went to the hand the other came from
                        after = sorted(c for s in range(plan.players) for c in buf[:swap.held(ctx, copy, s, buf)])
                        assert after == everyone
    assert swaps > 300


def test_dr_ling_is_worth_most_and_twins_agree():
    """find-dr-evil: Dr. Ling's holder wins (rule 4), so holding him is worth far more than any other
    card, every phase; two cards of one pose (no rule tells their backgrounds apart) get values
    whose CIs overlap."""
    res = card_value("find-dr-evil", states=150, playouts=4, decisions=0, observe=0, seed=5, threads=2)
    pooled = res.values[res.values["phase"] == "all"].set_index("card")
    ling = pooled.loc["Dr. Ling wildcard"]
    assert ling["ci_low"] > 0.05 and ling["value"] == pooled["value"].max(), ling
    for phase in PHASES:
        assert res.value("Dr. Ling wildcard", phase)["value"] > 0.03
    others = pooled.drop("Dr. Ling wildcard")
    assert (others["value"] < ling["ci_low"]).all()
    # Lady Action 9 and 10 (periwinkle, crimson): one pose, two backgrounds (the deck's order)
    a, b = pooled.loc["Lady Action 9 (periwinkle)"], pooled.loc["Lady Action 10 (crimson)"]
    assert a["ci_low"] <= b["ci_high"] and b["ci_low"] <= a["ci_high"], (a, b)


def test_a_deck_of_identical_cards_values_every_card_at_zero():
    """captain-action with every card made the same card (a context where no card does anything
    another would not): each swap leaves a game the rules cannot tell from the first, and with
    common random numbers both copies play alike: every value is exactly 0."""
    plan = _plan("captain-action")
    engine = plan.engine
    card_info = plan.prepared[0].copy()
    card_info[:] = card_info[1]
    n_cards = card_info.shape[0]
    raw = play_card_values(engine, plan.lineup, (card_info, *plan.prepared[1:]), 9, 30, np.arange(30) % 3, 2,
                           np.ones(n_cards, np.bool_), BlockSettings())
    assert (raw["n"] > 0).sum() > 20
    assert len(np.unique(raw["pairs"]["state"])) == (raw["n"] > 0).sum()  # every swap found a card
    assert np.abs(raw["pairs"]["diff"]).max() == 0.0


@pytest.mark.parametrize("game", [*HOOKED[:3], *(pytest.param(g, marks=pytest.mark.exhaustive) for g in HOOKED[3:])])
def test_the_same_seed_gives_the_same_values_on_1_and_2_threads(game):
    """The kernels are one code for every game: three games in the everyday tier, aquaman and
    captain-future (whose long games make the compile and the play a quarter of a minute) in the
    exhaustive one."""
    one = card_value(game, states=40, playouts=2, decisions=10, observe=0, seed=7, threads=1)
    two = card_value(game, states=40, playouts=2, decisions=10, observe=0, seed=7, threads=2)
    assert one.pairs.equals(two.pairs)
    assert one.values.equals(two.values)
    if one.decisions is not None:
        assert one.decisions.equals(two.decisions)


def test_captain_action_values_decisions_and_stands_beside_the_card_impact_table(tmp_path):
    """A small run of the command: the page, card_value.json (card, phase, value, CI, states,
    play-outs), the decision kinds, the card-impact table beside the values."""
    res = runner.invoke(app, ["card-value", "captain-action", "--states", "40", "--decisions", "20", "--observe",
                              "5000", "--playouts", "2", "--out", str(tmp_path / "cv")])
    assert res.exit_code == 0, (res.output, res.exception)
    data = json.loads((tmp_path / "cv" / "card_value.json").read_text())
    row = data["values"][0]
    assert {"card", "phase", "value", "ci_low", "ci_high", "states", "playouts"} <= set(row)
    assert {r["phase"] for r in data["values"]} == {*PHASES, "all"}
    assert {r["kind"] for r in data["decisions"]} == {"draw", "discard", "call"}
    assert all(0 <= r["spread"] <= 1 for r in data["decisions"] if r["decisions"])
    assert data["observed_kind"] == "held at the end"
    assert any(r["observed"] is not None for r in data["beside_card_impact"])
    html = (tmp_path / "cv" / "card_value.html").read_text()
    assert "Beside the card-impact table" in html and "data:image/png" in html


def test_find_dr_evil_says_its_picks_are_blind(tmp_path):
    res = card_value("find-dr-evil", states=5, playouts=1, decisions=5, observe=0, threads=1)
    assert res.decisions is None and "blind" in res.note


BAD = {
    "unknown card": (["--cards", "Dr. Lin wildcard"], "(did you mean Dr. Ling wildcard?)"),
    "unknown phase": (["--when", "early,lat"], "--when 'lat': not a phase (did you mean late?)"),
    "no states": (["--states", "0"], "--states"),
    "no play-outs": (["--playouts", "0"], "--playouts"),
    "a search seat": (["--strategies", "mcts"], "card-value plays heuristics"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, case):
    args, words = BAD[case]
    game = "captain-action" if case == "a search seat" else "find-dr-evil"
    res = runner.invoke(app, ["card-value", game, *args, "--states", "3", "--observe", "0", "--out",
                              str(tmp_path / "cv")] if "--states" not in args else
                        ["card-value", game, *args, "--observe", "0", "--out", str(tmp_path / "cv")])
    text = res.output.strip()
    assert res.exit_code == 2, (case, res.output, res.exception)
    assert len(text.splitlines()) == 1 and text.startswith("error: "), text
    assert words in text, text
    assert list(tmp_path.iterdir()) == []


def test_a_game_without_the_hooks_is_one_line(tmp_path, monkeypatch):
    """Every built-in game has the hooks; a game without them (a plug-in, here captain-future with
    its hooks taken away) is one line, exit 2, nothing written."""
    import dataclasses

    from simbalance.core.spec import GameSpec

    load = GameSpec.load
    monkeypatch.setattr(GameSpec, "load", lambda self: dataclasses.replace(load(self), card_swap=None))
    res = runner.invoke(app, ["card-value", "captain-future", "--states", "3", "--out", str(tmp_path / "cv")])
    assert res.exit_code == 2 and "has no card-swap hooks" in res.output and len(res.output.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


PLANTED = 5  # a captain-action card id: the card planted to win at once


def _planted_play_out():
    """captain-action's play_out with a planted rule: a play-out to the end is won by the seat that
    held card PLANTED when it began (nobody's if nobody held it), whatever happens after."""
    from numba import njit

    from simbalance.core.records import END_WIN
    from simbalance.games.captain_action.play_nb import play_out
    from simbalance.games.captain_action.state_nb import G_HAND, G_PLAYERS, V_END, V_WINNERS

    @njit
    def planted(ctx, state, seat_sid, seat_prm, max_decisions):
        if max_decisions >= 0:
            return play_out(ctx, state, seat_sid, seat_prm, max_decisions)
        winners = 0
        for s in range(ctx[2][G_PLAYERS]):
            for k in range(ctx[2][G_HAND]):
                if state[3][s, k] == PLANTED:
                    winners = 1 << s
        made = play_out(ctx, state, seat_sid, seat_prm, max_decisions)
        state[1][V_END] = END_WIN
        state[1][V_WINNERS] = winners
        return made

    return planted


def test_a_card_planted_to_win_at_once_is_worth_its_whole_effect():
    """A planted rule makes card PLANTED win at once for whoever holds it: holding it is worth
    exactly +100 points in every state (with it the holder wins, without it the card is elsewhere);
    another card is worth minus the chance that swapping it out brings PLANTED in (a few points)."""
    import dataclasses

    plan = _plan("captain-action")
    engine = plan.engine
    res = dataclasses.replace(engine.resumable, play_out=_planted_play_out())
    n_cards = len(engine.cards.labels(plan.config)[0])
    want = np.zeros(n_cards, np.bool_)
    want[[PLANTED, 30]] = True
    raw = play_card_values(dataclasses.replace(engine, resumable=res), plan.lineup, plan.prepared, 4, 300,
                           np.arange(300) % 3, 3, want, BlockSettings())
    got = raw["pairs"]
    planted = got["diff"][got["card"] == PLANTED]
    other = got["diff"][got["card"] == 30]
    assert len(planted) > 50 and len(other) > 50
    assert (planted == 1.0).all()
    assert -0.1 < other.mean() <= 0 and other.max() <= 0


def _stop_after(asked: int):
    """A Ctrl-C that comes after ``asked`` questions (one a block queued)."""
    count = iter(range(10**6))
    return lambda: next(count) >= asked


def test_ctrl_c_keeps_the_finished_blocks_and_the_same_call_again_ends_as_an_uninterrupted_one(tmp_path):
    from simbalance.core.errors import RunInterrupted

    asks = dict(states=60, playouts=2, decisions=0, observe=0, seed=3, threads=1)
    whole = card_value("find-dr-evil", **asks)
    with pytest.raises(RunInterrupted, match=r"interrupted after 80 of 180 states; the finished blocks are kept"):
        card_value("find-dr-evil", **asks, stop=_stop_after(4), checkpoints=tmp_path)
    (kept,) = tmp_path.iterdir()
    assert len(list(kept.glob("part-*.npz"))) == 1
    again = card_value("find-dr-evil", **asks, checkpoints=tmp_path)
    assert again.pairs.equals(whole.pairs) and again.values.equals(whole.values)
    assert not any(tmp_path.iterdir())  # done: its checkpoints are removed


@pytest.mark.exhaustive
def test_card_value_on_dask_gives_the_values_of_threads():
    """The local Dask cluster (a worker process that compiles the kernels itself: half a minute)."""
    pytest.importorskip("dask.distributed")
    asks = dict(states=30, playouts=2, decisions=10, observe=0, seed=7)
    threads = card_value("captain-action", **asks, threads=2)
    dask = card_value("captain-action", **asks, backend="dask")
    assert dask.pairs.equals(threads.pairs) and dask.values.equals(threads.values)
    assert dask.decisions.equals(threads.decisions)


@pytest.mark.exhaustive
def test_sigterm_keeps_the_blocks_and_the_same_command_again_writes_the_uninterrupted_values(tmp_path):
    """The command line: a SIGTERM once the first blocks are saved (a few seconds in) exits 130 with
    nothing written but the blocks in the cache; the same command again writes the values of an
    uninterrupted run, and leaves the cache as it found it (half a minute: compiles in two processes)."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    cache, out = tmp_path / "cache", tmp_path / "cv"
    env = dict(os.environ, SIMBALANCE_CACHE_DIR=str(cache))
    # 3 x 100,000 states at 4 play-outs each: long enough to outlast the first save
    # (core/blocks.CHECKPOINT_AFTER_S) on a fast machine; at 3 x 30,000 a fresh clone's CI finished the
    # job before any block was saved, and at 1 play-out so did a warm process once the card kernel was
    # loaded from numba's cache rather than compiled (issue 56)
    cmd = [sys.executable, "-m", "simbalance.cli.main", "card-value", "find-dr-evil", "--states", "100000",
           "--playouts", "4", "--decisions", "0", "--observe", "0", "--threads", "1", "--seed", "2", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 120
    while not list(cache.glob("blocks/*/part-*.npz")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "of 300,000 states; the finished blocks are kept in" in err and not out.exists()
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0, again.stderr
    assert not list(cache.glob("blocks/*"))  # done: the blocks are removed, their folder too
    written = json.loads((out / "card_value.json").read_text())["values"]
    whole = card_value("find-dr-evil", states=100000, playouts=4, decisions=0, observe=0, threads=1, seed=2)
    from simbalance.analysis.metrics import json_records

    assert written == json.loads(json.dumps(json_records(whole.values)))


def _interrupted_at(cmd: list[str], env: dict, out, when) -> tuple[int | None, str]:
    """Start ``cmd``, wait until ``when()`` says the instant has come, send SIGINT (Ctrl-C) and
    return the exit code and stderr; None when the command had ended before the signal was sent."""
    import signal
    import subprocess
    import time

    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 240
    while proc.poll() is None and not when() and time.time() < deadline:
        time.sleep(0.005)
    if proc.poll() is not None:
        proc.communicate()
        return None, ""
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    return proc.returncode, err


@pytest.mark.exhaustive
def test_ctrl_c_at_any_instant_exits_130_and_never_writes_a_report(tmp_path):
    """Issue 54 item 2: a Ctrl-C is never ignored once. card-value used to finish and write its full
    report, exit 0, when the Ctrl-C came after its last block was asked for (the card-impact run's
    last chunk, the analysis, the writing of the folder). SIGINT to the command at instants spread
    over an uninterrupted run's time, and once as its folder is being written (its temporary
    ``.<out>.writing-*`` beside it): every time exit 130, no traceback, and no folder, or, when the
    Ctrl-C came as it was written, the whole folder (a half one never). A minute or two: the command runs eight times."""
    import os
    import sys
    import time

    env = dict(os.environ, SIMBALANCE_CACHE_DIR=str(tmp_path / "cache"))

    def command(out):
        return [sys.executable, "-m", "simbalance.cli.main", "card-value", "find-dr-evil", "--states", "3000",
                "--playouts", "1", "--decisions", "0", "--observe", "20000", "--threads", "1", "--seed", "2",
                "--out", str(out)]

    import subprocess

    for label in ("warm", "whole"):  # the second, warm, is the one timed
        begin = time.time()
        done = subprocess.run(command(tmp_path / label), capture_output=True, text=True, env=env, timeout=600)
        took = time.time() - begin
        assert done.returncode == 0, done.stderr
    # The instants are spread over the command's own time, after Python has imported simbalance (the
    # command's --help takes as long): a Ctrl-C while the interpreter still imports numba and pandas is
    # Python's KeyboardInterrupt, before any simbalance code runs (a warm card-value, its kernels loaded
    # from numba's cache, is over in a few seconds, so 0.3 of it once landed there)
    begin = time.time()
    subprocess.run([sys.executable, "-m", "simbalance.cli.main", "--help"], capture_output=True, env=env, timeout=600)
    startup = min(time.time() - begin, 0.8 * took)
    signalled = 0
    for k, share in enumerate([0.3, 0.5, 0.7, 0.85, 0.95, "writing"]):
        out = tmp_path / f"cv{k}"
        if share == "writing":
            when = lambda out=out: any(p.name.startswith(f".{out.name}.writing-") for p in tmp_path.iterdir())  # noqa: E731
        else:
            at = time.time() + startup + share * (took - startup)
            when = lambda at=at: time.time() >= at  # noqa: E731
        code, err = _interrupted_at(command(out), env, out, when)
        if code is None:  # it ended first (a fast moment of a shared machine): no signal sent
            continue
        signalled += 1
        assert code == 130, (share, code, err)
        assert "Traceback" not in err, (share, err)
        if out.exists():  # the Ctrl-C came while the folder was written: it is whole, and the exit 130
            assert (out / "manifest.json").exists() and (out / "card_value.html").exists(), (share, err)
            assert "it is whole" in err, (share, err)
        assert not [p for p in tmp_path.iterdir() if ".writing-" in p.name]
    assert signalled >= 4


def test_a_ctrl_c_after_the_last_block_is_not_ignored(tmp_path, monkeypatch):
    """The instant the hostile sweep of issue 54 found: a SIGINT that arrives once every block has
    been asked for (here: as the card-impact table is computed, the last part of the study) used to
    set the stop flag that nothing asked any more: exit 0 and the full report. Now exit 130,
    "nothing written", no folder."""
    import os
    import signal

    from typer.testing import CliRunner

    import simbalance.studies.cards as cards
    from simbalance.cli.main import app

    real = cards.card_table

    def then_ctrl_c(*args, **kwargs):
        table = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # the command's handler only sets its flag
        return table

    monkeypatch.setattr(cards, "card_table", then_ctrl_c)
    monkeypatch.setenv("SIMBALANCE_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "cv"
    done = CliRunner().invoke(app, ["card-value", "find-dr-evil", "--states", "30", "--playouts", "1", "--decisions",
                                    "0", "--observe", "500", "--threads", "1", "--out", str(out)])
    assert done.exit_code == 130, done.output
    assert "interrupted after 90 of 90 states; every part was played" in done.stderr
    assert "nothing written" in done.stderr
    assert not out.exists()
