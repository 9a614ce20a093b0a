"""The fitted evaluation's study (studies/fit_eval.py): the same seed gives the same eval.json, and a
run never uses a stale fit silently (docs/strategies.md, "The fitted evaluation")."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simbalance.studies import evaluation as fe
from simbalance.studies.fit_eval import fit_eval
from simbalance.studies.run import plan_run

GAME = "captain-action"  # short games: a fit of a few hundred takes a second
CUT = ["strategies.mcts.depth=6", "strategies.mcts.iterations=4"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """Refits go to a fresh cache, and are small."""
    monkeypatch.setenv("SIMBALANCE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fe, "REFIT_GAMES", 200)
    return tmp_path / "cache" / "eval"


def test_the_same_seed_gives_the_same_fit_and_another_seed_another():
    a = fit_eval(GAME, 300, seed=5).data
    b = fit_eval(GAME, 300, seed=5).data
    c = fit_eval(GAME, 300, seed=6).data
    assert json.dumps(a) == json.dumps(b)
    assert a["weights"] != c["weights"]
    assert a["features"] == list(plan_run(GAME, 1).engine.search.feature_names)
    assert a["strategies"] == ["builder", "bold", "collector"] and a["seats_rotated"]
    assert a["held_out_games"] == pytest.approx(0.2 * a["decided_games"], abs=0.02 * a["games"])
    assert len(a["calibration"]["fitted"]) == 10


def test_the_committed_fit_is_used_as_it_is(cache, capsys):
    plan = plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"], overrides=CUT)
    stored = json.loads(fe.eval_path(GAME).read_text())
    np.testing.assert_array_equal(plan.search_eval, fe.stored_weights(stored))
    assert plan.search_eval_source["source"] == "committed" and plan.search_eval_source["games"] == stored["games"]
    assert capsys.readouterr().err == ""
    assert not cache.exists()


def test_a_fit_for_other_rules_is_refitted_once_with_a_notice(cache, capsys):
    rules = [*CUT, "rules.points_per_card=5"]
    planned = plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"], overrides=rules)
    # planning is pure: the refit is a step of the plan, run before the games (RunPlan.ready)
    assert capsys.readouterr().err == "" and not cache.exists() and planned.search_eval is None
    assert planned.refit is not None and "for other rules" in planned.refit.description
    first = planned.ready()
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(f"the fitted evaluation of {GAME} is for other rules; refitting it")
    (kept,) = cache.glob(f"{GAME}-*.json")
    stored = json.loads(fe.eval_path(GAME).read_text())
    assert json.loads(kept.read_text())["rules_digest"] != stored["rules_digest"]
    again = plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"], overrides=rules, seed=9).ready()
    assert capsys.readouterr().err == ""  # read from the cache: the same refit, whatever the run's seed
    np.testing.assert_array_equal(first.search_eval, again.search_eval)
    assert not np.array_equal(first.search_eval, fe.stored_weights(stored))
    for plan in (first, again):  # said where it came from: a refit on the fly, its games and rules
        told = plan.search_eval_source
        assert told["source"] == "refit" and told["games"] == fe.REFIT_GAMES and told["path"] == str(kept)
        assert told["rules_digest"] == json.loads(kept.read_text())["rules_digest"]


def test_a_fit_for_another_engine_version_or_none_is_refitted(cache, capsys, monkeypatch, tmp_path):
    stored = json.loads(fe.eval_path(GAME).read_text())
    old = tmp_path / "eval.json"
    old.write_text(json.dumps({**stored, "engine_version": stored["engine_version"] - 1}))
    monkeypatch.setattr(fe, "eval_path", lambda game: old)
    plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"], overrides=CUT).ready()
    assert "is for engine version" in capsys.readouterr().err
    monkeypatch.setattr(fe, "eval_path", lambda game: tmp_path / "none.json")
    for kept in cache.glob("*.json"):
        kept.unlink()
    weights = plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"], overrides=CUT).evaluation_weights
    assert len(weights)  # a plan played without ready() refits on its first use, never the hand evaluate
    assert f"the fitted evaluation of {GAME} is missing; refitting" in capsys.readouterr().err


def test_no_cut_no_fit_read(cache, monkeypatch):
    def never(game):
        raise AssertionError("a run without a cut read a fit")

    monkeypatch.setattr(fe, "eval_path", never)
    plan = plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"],
                    overrides=["strategies.mcts.depth=0", "rules.points_per_card=5"])
    assert plan.search_eval is None
    assert plan_run(GAME, 2, overrides=CUT).search_eval is None  # no search seat
    hand = plan_run(GAME, 2, strategies=["mcts", "builder", "builder", "builder"],
                    overrides=[*CUT, 'search.evaluation="hand"'])
    assert hand.search_eval is None
    assert not cache.exists()


def test_a_search_run_plays_the_same_games_on_its_fit_and_another_fit_plays_others(cache):
    from simbalance.testing import play

    plan = plan_run(GAME, 6, strategies=["mcts", "builder", "builder", "builder"], overrides=CUT, rotate=True)
    a, b = play(plan), play(plan)
    assert np.array_equal(a, b)
    import dataclasses

    hand = dataclasses.replace(plan, search_eval=None)
    assert not np.array_equal(a, play(hand))  # the evaluation is in use: other weights, other choices


def test_a_run_folder_says_which_weights_its_cut_play_outs_used(cache):
    from simbalance.report.run_folder import manifest
    from simbalance.studies.run_study import simulate

    cut = simulate(GAME, 2, strategies=["mcts", "builder", "builder", "builder"], overrides=CUT)
    said = manifest(cut, "test")["search_evaluation"]
    assert said["features"] == list(cut.plan.engine.search.feature_names)
    stored = json.loads(fe.eval_path(GAME).read_text())
    assert said["weights"] == stored["weights"]
    assert said["no_winner"] == stored.get("no_winner")
    told = said["provenance"]  # the fit's provenance (issue 53): where, games, seed, rules, quality
    assert told["source"] == "committed" and told["seed"] == stored["seed"] and told["games"] == stored["games"]
    assert told["rules_digest"] == stored["rules_digest"]
    assert told["held_out_log_loss"] == stored["held_out"]["fitted"]["log_loss"]
    assert manifest(simulate(GAME, 2), "test")["search_evaluation"] is None


def test_ctrl_c_keeps_the_recorded_blocks_and_the_same_call_again_fits_the_same(tmp_path):
    from simbalance.core.errors import RunInterrupted

    count = iter(range(10**6))
    whole = fit_eval(GAME, 300, seed=5, threads=2).data
    with pytest.raises(RunInterrupted, match=r"interrupted after \d+ of 300 games; the finished blocks are kept"):
        fit_eval(GAME, 300, seed=5, threads=1, stop=lambda: next(count) >= 2, checkpoints=tmp_path)
    assert any(tmp_path.iterdir())
    assert json.dumps(fit_eval(GAME, 300, seed=5, threads=1, checkpoints=tmp_path).data) == json.dumps(whole)
    assert not any(tmp_path.iterdir())


@pytest.mark.exhaustive
def test_fit_eval_on_dask_fits_what_threads_fit(monkeypatch):
    """On the local Dask cluster (its worker compiles the recording kernel: a quarter of a minute)."""
    pytest.importorskip("dask.distributed")
    from simbalance.core import runner

    clients = []
    client = runner._dask_client
    monkeypatch.setattr(runner, "_dask_client", lambda *a: clients.append(1) or client(*a))
    threads = fit_eval(GAME, 300, seed=5, threads=2).data
    assert not clients
    assert json.dumps(fit_eval(GAME, 300, seed=5, backend="dask").data) == json.dumps(threads)
    assert clients  # the games were played on Dask (before, fit-eval ignored --backend)


def _worth(data: dict, term: str) -> list[float]:
    """The weights of the features that carry ``term`` (captain-future: its early and late parts)."""
    return [w for name, w in zip(data["features"], data["weights"], strict=True)
            if name == term or name.startswith(f"{term}_")]


def test_captain_futures_committed_fit_weighs_the_score_and_the_majorities():
    """issue 53: every captain-future fit held the score's weights (its own and its product with
    progress) at the sign bound 0: the evaluation ignored the points that decide the winner. A point
    and a majority are worth more than 0 at the end of the game."""
    data = json.loads(fe.eval_path("captain-future").read_text())
    for term in ("score", "majorities"):
        assert _worth(data, term) and max(_worth(data, term)) > 0, (term, _worth(data, term))


@pytest.mark.exhaustive  # a refit of captain-future: 1,500 games and the recording kernel's compile, minutes
def test_a_refit_under_other_scoring_weighs_the_points(cache, monkeypatch):
    """issue 53: the `scoring.majority=2` refit gave the majorities weight 0 and the score 0: the
    evaluation ignored the points. Now the score (majority points included) is worth more than 0 at
    the end. (Its majorities' own early weight is 0 in this refit: their points are in the score.)"""
    monkeypatch.setattr(fe, "REFIT_GAMES", 1500)  # the size of a real refit on the fly (the fixture's 200 are noise)
    from simbalance.games.registry import get_game

    engine = get_game("captain-future").load()
    plan = plan_run("captain-future", 1, strategies=["mcts", "aggressor", "aggressor", "aggressor"],
                    overrides=["scoring.majority=2"]).ready()  # the refit: a step of the plan
    assert plan.search_eval_source["source"] == "refit"
    data = json.loads(next(cache.glob("captain-future-*.json")).read_text())
    assert data["features"] == list(engine.search.feature_names)
    assert max(_worth(data, "score")) > 0.05, _worth(data, "score")
