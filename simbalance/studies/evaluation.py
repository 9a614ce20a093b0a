"""The fitted evaluation of a game's cut play-outs (docs/strategies.md, "The fitted evaluation"):
recording and fitting it (what ``simbalance fit-eval``, studies/fit_eval.py, runs), and the rule
that no run uses a stale one (``evaluation_weights``, which every run's plan asks: kept apart from
studies/fit_eval.py, which plans its games with studies/settings.plan_run, so that no import circles).

A fit plays ``games`` games with the game's heuristics, records every seat's features (the game's
``search_nb.features``) at cut points spread over each game (every ``every``-th decision, the first
cut offset by the game's index, at most ``CUTS_CAP`` a game) and every seat's final share of the
win; holds out a fifth of the GAMES (never single positions: the positions of one game are not
independent) for the accuracy; fits the conditional logit on the rest (analysis/fit_eval.py) and
scores the fit and the game's hand-written ``evaluate`` on the same held-out positions.

**Stale.** A fit is for one engine version, one set of rules (``rules_digest``: the config's keys
that change play, every section but ``NOT_RULES``) and one list of features (names and sign
bounds). A run whose search seat cuts its play-outs (depth > 0) reads ``configs/<game>/eval.json``;
when that file is missing or was fitted for another engine version, other rules (a variant, ``--set
rules.x=...``) or other features, the run refits on the fly: ``REFIT_GAMES`` games from the fixed seed
``REFIT_SEED`` (so the same run seed gives the same games), one line on stderr saying so, and the
refit cached in ``cache_dir()`` (keyed by game, engine version, rules digest and players), where
the next run with those rules finds it. A run whose search seats play to the end (depth 0) never
reads a fit, and neither does one whose config says ``search.evaluation = "hand"``.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simbalance.analysis.fit_eval import (
    L2,
    accuracy,
    calibration,
    fit_logit,
    holdout_games,
    kernel_weights,
    log_loss,
    no_winner_share,
    softmax_shares,
)
from simbalance.core.blocks import BlockSettings, KernelJob, cache_root
from simbalance.core.config import ConfigError, config_dir, play_config
from simbalance.core.errors import SimbalanceError
from simbalance.core.lineup import resolve_lineup
from simbalance.core.owned import begun_as
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.strategy_ids import FLAT, MCTS, is_search_id

FIT_GAMES = 20_000  # `simbalance fit-eval`'s default: some 10^5 positions, under a minute or two on one core
MAX_FIT_GAMES = 10**6
REFIT_GAMES = 1500  # a refit on the fly: a run pays for it once per rules (cached), so fewer games
REFIT_SEED = 0  # every refit's seed (derived again per purpose below): the same rules, the same fit
CUTS_PER_GAME = 12  # cuts aimed at per game: the decisions between cuts are a game's median decisions / this
CUTS_CAP = 48  # at most this many cuts of one game (a long game's later ones are not recorded)
BLOCK = 100  # games per block of the recording (core/blocks.py): the progress display moves between blocks
PILOT = 20  # games played first to learn a game's length (how many decisions between cuts)
HOLDOUT = 0.2  # share of the games held out for the accuracy
EVAL_FILE = "eval.json"
# The config's sections that do not change how a game is played: the rest is "the rules".
NOT_RULES = ("game", "bounds", "strategies", "presets", "findings", "search")
EVALUATIONS = ("fitted", "hand")  # search.evaluation: the fitted one when a fit is in use, or the game's own


@dataclass(frozen=True)
class FitEvalResult:
    """A fit: ``data`` is what eval.json holds; ``elapsed`` its seconds (play and fit)."""

    data: dict
    elapsed: float

    def findings(self) -> list:
        """A fit states no claim of its own: its held-out scores beside the hand-written evaluation's
        are its table and eval.json's ``held_out``."""
        return []

    def brief(self) -> str:
        """What the command's last line says of the fit written (core/study.Study.out_file)."""
        data = self.data
        stalled = data["games"] - data["decided_games"]
        return (f"{data['points']} positions of {data['games']} games, {stalled} of them with no winner, fitted as "
                f"such; {self.elapsed:.0f} s")

    @property
    def weights(self) -> np.ndarray:
        """The search kernel's vector (``kernel_weights``: the seats' weights, then "no winner"'s)."""
        return stored_weights(self.data)


def stored_weights(data: dict) -> np.ndarray:
    """The search kernel's vector of an eval.json's ``data`` (analysis/fit_eval.kernel_weights)."""
    return kernel_weights(data["weights"], data.get("no_winner"))


def provenance(data: dict, source: str, path: Path) -> dict:
    """What a run's manifest.json and page say of the fit its search seats used: where it came from
    (``committed``: configs/<game>/eval.json; ``refit``: refitted on the fly for the run's rules,
    cached), the games it was fitted on, its seed and rules digest, and how well it predicts
    held-out games (log-loss against the uniform's, accuracy; issue 53)."""
    held = data.get("held_out", {})
    return {
        "source": source,
        "path": str(path),
        "engine_version": data.get("engine_version"),
        "rules_digest": data.get("rules_digest"),
        "strategies": data.get("strategies"),
        "players": data.get("players"),
        "seed": data.get("seed"),
        "games": data.get("games"),
        "no_winner_games": data.get("games", 0) - data.get("decided_games", 0),
        "no_winner_fitted": data.get("no_winner") is not None,
        "held_out_log_loss": held.get("fitted", {}).get("log_loss"),
        "held_out_accuracy": held.get("fitted", {}).get("accuracy"),
        "uniform_log_loss": held.get("uniform", {}).get("log_loss"),
    }


def rules_digest(config: dict) -> str:
    """A digest of the config's keys that change play (every section but ``NOT_RULES``): a fit is
    for the rules it was fitted under, whatever the players, strategies or output options."""
    rules = {key: value for key, value in play_config(config).items() if key not in NOT_RULES}
    text = json.dumps(rules, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_dir() -> Path:
    """Where refits on the fly are kept: ``$SIMBALANCE_CACHE_DIR``, else ``$XDG_CACHE_HOME/simbalance``,
    else ``~/.cache/simbalance``; the refits in ``eval/`` below it."""
    return cache_root() / "eval"


def eval_path(game: str) -> Path:
    """The game's committed fit: ``configs/<game>/eval.json`` (a plug-in's own config folder)."""
    return config_dir(game) / game / EVAL_FILE


def default_strategies(engine) -> list[str]:
    """The heuristics a fit plays by default: every heuristic but ``random`` (all of them if that
    leaves none), in turn on the seats, seats rotated: positions as competent, varied players reach them."""
    return [name for name in engine.heuristics if name != "random"] or list(engine.heuristics)


def seated(names: list[str], players: int) -> list[str]:
    """``names`` in turn on ``players`` seats."""
    return [names[s % len(names)] for s in range(players)]


def record_and_fit(game: str, engine, config: dict, players: int, lineup, prepared: tuple, games: int, seed: int,
                   progress: ProgressFactory | None, how: BlockSettings | None = None) -> FitEvalResult:
    """Record ``games`` games of ``lineup`` and fit (module doc); ``how``: the threads or backend the
    games play on (default: one thread here)."""
    begin = time.perf_counter()
    search = engine.search
    feats, hand, final, n_points, every = _record(engine, lineup, prepared, games, seed, progress,
                                                  how or BlockSettings())
    decided = final.sum(axis=1) > 0
    held = holdout_games(games, derive_seed(seed, "fit-eval holdout"), HOLDOUT)
    # Every game's positions (feats and hand hold each game's cuts in turn, n_points of them), a game
    # with no winner (a stalemate, a timeout) included: the fit's "no winner" alternative learns what
    # stalls a game (issue 53; dropped before).
    of_game = np.repeat(np.arange(games), n_points)
    rows = np.arange(len(of_game))
    x, h, y = feats[rows], hand[rows], final[of_game]
    test = held[of_game]
    won = decided[of_game]
    if not (~test & won).any() or not (test & won).any():
        raise SimbalanceError(f"{game}: too few decided games with positions to fit ({int(decided.sum())} of {games}); "
                              "play more (--games)")
    weights, no_winner, info = fit_logit(x[~test], y[~test], signs=search.feature_signs)
    # Scored on the held-out positions of decided games (comparable with the hand-written
    # evaluation, which has no "no winner"): the fitted seats' shares given that someone wins.
    fitted, own = softmax_shares(x[test & won], weights), h[test & won]
    stall = no_winner_share(x[test], weights, no_winner)
    stalled = (~won[test]).astype(np.float64)
    data = {
        "game": game,
        "engine_version": engine.version,
        "rules_digest": rules_digest(config),
        "players": players,
        "strategies": list(lineup.slot_names),
        "seats_rotated": len(lineup.seats) > 1,
        "seed": int(seed),
        "games": games,
        "decided_games": int(decided.sum()),
        "held_out_games": int(held.sum()),
        "cut_every": every,
        "points": int(len(rows)),
        "held_out_points": int(test.sum()),
        "features": list(search.feature_names),
        "signs": list(search.feature_signs),
        "weights": [float(w) for w in weights],
        "no_winner": no_winner,
        "fit": {"model": "conditional logit with a no-winner alternative", "l2": L2, "standardized": True, **info},
        "held_out": {
            "fitted": {"log_loss": log_loss(fitted, y[test & won]), "accuracy": accuracy(fitted, y[test & won])},
            "hand_written": {"log_loss": log_loss(own, y[test & won]), "accuracy": accuracy(own, y[test & won])},
            "uniform": {"log_loss": float(np.log(players))},
        },  # over the positions of held-out games with a winner (the hand-written evaluate has no "no winner")
        "no_winner_held_out": {
            "observed": float(stalled.mean()),
            "predicted": float(stall.mean()),
            "calibration": calibration(stall[:, None], stalled[:, None]),
        },
        "calibration": {"fitted": calibration(fitted, y[test & won]), "hand_written": calibration(own, y[test & won])},
    }
    return FitEvalResult(data, time.perf_counter() - begin)


class _RecordJob(KernelJob):
    """Games ``lo .. hi - 1`` played and recorded (players/fit_eval_nb.record_positions): a block
    job of core/blocks.py, so the same games on any thread count or backend."""

    def __init__(self, engine, lineup, prepared: tuple, seed: int, every: int):
        super().__init__(engine, lineup, prepared, seed)
        self.every = every

    def __call__(self, lo: int, hi: int) -> dict[str, np.ndarray]:
        from simbalance.players import fit_eval_nb, game_kernel

        engine, ctx = self.kernel_inputs()
        res, search = engine.resumable, engine.search
        record_positions = game_kernel(search.record_positions, fit_eval_nb.record_positions, {
            "start": res.start, "to_move": res.to_move, "play_out": res.play_out, "outcome": search.outcome,
            "evaluate": search.evaluate, "features": search.features})
        m, players, n_feat = hi - lo, self.seats.shape[1], len(search.feature_names)
        out = {"feats": np.zeros((m * CUTS_CAP, players, n_feat), np.float64),
               "hand": np.zeros((m * CUTS_CAP, players), np.float64), "final": np.zeros((m, players), np.float64),
               "n_points": np.zeros(m, np.int64)}
        block = (self.seats, self.strategy, self.params, np.uint64(self.seed), np.int64(lo), np.int64(hi),
                 np.int64(self.every), np.int64(CUTS_CAP))
        record_positions(ctx, res.new_state(ctx), block, (out["feats"], out["hand"], out["final"], out["n_points"]))
        # each game's cuts only (a game has n_points of its CUTS_CAP rows): a checkpoint and the
        # fit hold the positions, not the empty rows
        cut = (np.arange(CUTS_CAP)[None, :] < out["n_points"][:, None]).ravel()
        return {**out, "feats": out["feats"][cut], "hand": out["hand"][cut]}


def _digest(arrays: tuple) -> str:
    """A digest of the game's prepared tables (what the rules make of the config)."""
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes() if isinstance(a, np.ndarray) else repr(a).encode())
    return h.hexdigest()[:16]


def _cut_every(res, search, ctx, lineup, games: int, seed: int) -> int:
    """Decisions between cuts: a game's median decisions / CUTS_PER_GAME, learnt from PILOT games."""
    state = res.new_state(ctx)
    sid0 = lineup.slot_strategy[lineup.seats[0]].astype(np.int64)
    prm0 = np.ascontiguousarray(lineup.slot_params[lineup.seats[0]])
    decisions, decided = [], []
    for g in range(min(PILOT, games)):  # how long a game is, in decisions
        res.start(ctx, state, np.uint64(seed), np.int64(g))
        decisions.append(int(res.play_out(ctx, state, sid0, prm0, np.int64(-1))))
        decided.append(search.outcome(ctx, state) != 0)
    # The median of the decided games (only they are fitted): games that loop until a stalemate
    # ends them (lady-actions-escape's heuristics, half of their games) would stretch the cuts.
    lengths = [d for d, won in zip(decisions, decided, strict=True) if won] or decisions
    return max(1, int(round(np.median(lengths) / CUTS_PER_GAME)))


def _record(engine, lineup, prepared: tuple, games: int, seed: int, progress: ProgressFactory | None,
            how: BlockSettings):
    """Play and record, block after block (core/blocks.py: threads or Dask, progress, Ctrl-C)."""
    res, search = engine.resumable, engine.search
    every = _cut_every(res, search, res.context(*prepared), lineup, games, seed)
    key = {"game": engine.module, "engine_version": engine.version, "lineup": lineup.describe(), "seed": seed,
           "every": every, "prepared": _digest(prepared)}
    got = how.play(_RecordJob(engine, lineup, prepared, seed, every), games, BLOCK, progress,
                   f"fit-eval: {games} games", "games", "fit-eval", key)
    return got["feats"], got["hand"], got["final"], got["n_points"], every


# An eval.json says whose it is in its first lines: simbalance replaces only a file that it wrote
# (recognised by this, or, for one written before the marker, by a fit's own keys), and a temporary
# file a kill left (``.eval.json.writing-XXXXXXXX``) is recognised by the same first bytes.
EVAL_MARKER = {"written_by": "simbalance", "kind": "fitted evaluation"}
EVAL_HEADER = json.dumps(EVAL_MARKER, indent=1)[:-2]  # '{\n "written_by": ..., "kind": "fitted evaluation"'
FIT_KEYS = frozenset({"game", "engine_version", "rules_digest", "features", "signs", "weights"})
EVAL_MOST_BYTES = 1 << 24  # a fit is a few kB; a larger file is not one


def eval_text(data: dict) -> str:
    """eval.json's text: the marker first, then the fit."""
    return json.dumps({**EVAL_MARKER, **data}, indent=1) + "\n"


def is_written_eval(path: Path) -> bool:
    """Is ``path`` an eval.json simbalance wrote (a regular file of a fit's content)?"""
    import stat

    try:
        info = Path(path).lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > EVAL_MOST_BYTES:
            return False
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    if not isinstance(data, dict):
        return False
    return all(data.get(k) == v for k, v in EVAL_MARKER.items()) or FIT_KEYS <= data.keys()


def is_half_written_eval(path: Path) -> bool:
    """A temporary eval.json a kill left: its bytes so far are a fit's (the marker's first bytes)."""
    return begun_as(path, EVAL_HEADER)


def write_eval(result: FitEvalResult, path: Path) -> Path:
    """eval.json, written whole or not at all (report/files.write_file_whole: a temporary file of a
    name of its own, renamed into place), never over a file simbalance did not write."""
    from simbalance.report.files import write_file_whole

    write_file_whole(Path(path), eval_text(result.data), is_written_eval, "a fitted evaluation simbalance wrote")
    return Path(path)


def write_eval_file(result: FitEvalResult, path: Path, command: str) -> Path:
    """fit-eval's writer (core/study.Study.writer): eval.json at ``path``, whole or not at all."""
    return write_eval(result, Path(path))


# ---- a run's fit: the one on file, or a refit on the fly ----------------------------------------


def cuts_playouts(lineup) -> bool:
    """Does a search seat of ``lineup`` cut its play-outs (depth > 0)? Only then is a fit read."""
    from simbalance.players.common_nb import P_FLAT_DEPTH, P_MCTS_DEPTH

    for sid, row in zip(lineup.slot_strategy, lineup.slot_params, strict=True):
        if is_search_id(int(sid)):
            depth = row[P_MCTS_DEPTH] if sid == MCTS else (row[P_FLAT_DEPTH] if sid == FLAT else 0.0)
            if depth > 0:
                return True
    return False


def stale_reason(data: dict | None, engine, digest: str) -> str | None:
    """Why a fit cannot be used for a run (None: it can)."""
    if data is None:
        return "missing"
    if data.get("engine_version") != engine.version:
        return f"for engine version {data.get('engine_version')} (this is {engine.version})"
    if data.get("rules_digest") != digest:
        return "for other rules"
    if (tuple(data.get("features", ())) != tuple(engine.search.feature_names)
            or tuple(data.get("signs", ())) != tuple(engine.search.feature_signs)):
        return "for other features"
    return None


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


@dataclass(frozen=True)
class Refit:
    """A step a plan needs before its games: the fitted evaluation refitted for these rules
    (REFIT_GAMES games of the default strategies, kept in the user's cache). Planning a run makes
    this step and never runs it (a plan never plays, writes or prints); ``RunPlan.ready`` runs it,
    with the run's progress, before the first game."""

    game: str
    engine: Any = field(repr=False)
    config: dict = field(repr=False)
    players: int
    why: str  # "missing", "for other rules"...
    cached: Path  # where the refit is kept

    @property
    def description(self) -> str:
        return (f"the fitted evaluation of {self.game} is {self.why}; refitting it for this run: {REFIT_GAMES} games "
                f"(cached in {self.cached.parent}; `simbalance fit-eval {self.game}` writes {eval_path(self.game)})")

    def run(self, progress: ProgressFactory | None = None) -> tuple[np.ndarray, dict]:
        """Play the refit's games, keep the fit in the cache and return its weights and provenance."""
        # The one line a run says before it refits (stderr: the records and reports stay the run's own).
        print(self.description, file=sys.stderr)
        engine, config, players = self.engine, self.config, self.players
        names = seated(default_strategies(engine), players)
        fit_lineup = resolve_lineup(config, engine.strategies, engine.strategy_params, players, names,
                                    len(set(names)) > 1)
        prepared = engine.prepare(config, players, False)
        result = record_and_fit(self.game, engine, config, players, fit_lineup, prepared, REFIT_GAMES,
                                derive_seed(REFIT_SEED, "fit-eval refit"), progress)
        try:
            write_eval(result, self.cached)
        except (OSError, SimbalanceError):  # a read-only cache: the run goes on with its refit, the next run refits again
            pass
        return result.weights, provenance(result.data, "refit", self.cached)


def evaluation_weights(game: str, engine, config: dict, players: int, lineup) -> np.ndarray | Refit | None:
    """The fitted evaluation's kernel vector for a run of ``lineup`` (``evaluation_fit``), the
    ``Refit`` step that makes it, or None."""
    found = evaluation_fit(game, engine, config, players, lineup)
    return found[0] if isinstance(found, tuple) else found


def evaluation_fit(game: str, engine, config: dict, players: int, lineup) -> tuple[np.ndarray, dict] | Refit | None:
    """The fitted evaluation's kernel vector for a run of ``lineup`` (module doc, "Stale") and its
    ``provenance``, None when none is used (no search seat cuts its play-outs, or
    ``search.evaluation = "hand"``), or the ``Refit`` step that makes them when no usable fit is
    stored (reads files, never writes or plays: RunPlan.ready runs it)."""
    mode = config.get("search", {}).get("evaluation", "fitted")
    if mode not in EVALUATIONS:  # checked in every run, so that a typo is not silent until a cut
        raise ConfigError(f"search.evaluation = {mode!r}: allowed {', '.join(map(repr, EVALUATIONS))}")
    if engine.search is None or not cuts_playouts(lineup) or mode == "hand":
        return None
    digest = rules_digest(config)
    stored = _read(eval_path(game))
    why = stale_reason(stored, engine, digest)
    if why is None:
        return stored_weights(stored), provenance(stored, "committed", eval_path(game))
    cached = cache_dir() / f"{game}-v{engine.version}-{digest}-{players}p.json"
    kept = _read(cached)
    if stale_reason(kept, engine, digest) is None:
        return stored_weights(kept), provenance(kept, "refit", cached)
    return Refit(game, engine, config, players, why, cached)
