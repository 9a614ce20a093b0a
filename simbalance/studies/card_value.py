"""``simbalance card-value``: what holding a card is worth to its holder, measured as an experiment
would (docs/card_value.md): the same game at the same moment with and without the card, played on
with the same random stream (players/card_value_nb.py), beside the observational card-impact
table of a run of the same lineup (studies/cards.py); and how much each kind of decision matters.

States are sampled at decision points of real games of the game's lineup (heuristics only: a
search seat's play-outs would be searches of their own), ``states`` per phase (early, middle, late:
thirds of each game's decisions). At each state every card any seat holds is valued (or only the
``cards`` asked for) by ``playouts`` paired play-outs. State ``k`` is game ``k`` of
``derive_seed(seed, "card-value")`` and draws everything from ``(seed, k)``, so the same seed gives
the same values on any thread count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from simbalance.analysis.card_value import (
    ALL,
    card_value_findings,
    card_values,
    decision_values,
    with_observed,
)
from simbalance.analysis.findings import Finding, thresholds
from simbalance.core.blocks import BlockSettings, KernelJob, check_not_stopped
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.core.execution import RunOptions
from simbalance.core.plan import check_whole
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.spec import SELECTION_UNSAID
from simbalance.core.study import Study, StudyParams, names_of, option, stop_requested
from simbalance.studies.settings import RunSettings, api_entry

PHASES = ("early", "middle", "late")
WHEN = ",".join(PHASES)  # the default: every phase
STATES = 2000  # per phase
PLAYOUTS = 4  # paired play-outs per (state, card)
DECISIONS = 300  # sampled decisions per phase (decision value)
OPTION_CAP = 8  # options tried per decision (a uniform sample of them when there are more)
OBSERVE = 100_000  # games of the run whose card-impact table stands beside the values
BLOCK = 20  # states per call of the kernel: the progress display moves between calls
MAX_STATES = 200_000  # per phase: a hundred times the default, memory grows with the states' pairs
MAX_PLAYOUTS = 1000


@dataclass
class CardValueResult:
    game: str
    players: int
    seed: int
    phases: list[str]
    states: int  # per phase
    playouts: int
    lineup: list[str]
    values: pd.DataFrame  # analysis/card_value.VALUE_COLUMNS: per card and phase, and over every phase
    beside: pd.DataFrame  # the pooled values beside the card-impact table's (analysis/card_value.with_observed)
    pairs: pd.DataFrame  # one row per (state, seat, card) valued
    decisions: pd.DataFrame | None  # analysis/card_value.DECISION_COLUMNS, or None (no decisions)
    holding: str
    swapped: str
    observed_kind: str | None  # the card-impact table's kind ("dealt", "held at the end"); None: no table
    observed_games: int
    seconds: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)  # states, play-outs, decisions played
    config: dict = field(default_factory=dict)
    note: str = ""  # why a part is missing (no decisions, no card-impact table)
    # how a player's choices can link holding a card to winning (core/spec.CardSwap.selection), None: none
    selection: str | None = SELECTION_UNSAID

    def findings(self) -> list[Finding]:
        return card_value_findings(self.values, self.beside, self.decisions, thresholds(self.config), self.game,
                                   self.observed_kind, self.selection)

    def value(self, card: str, phase: str = ALL) -> dict:
        """One card's row (``phase``: a phase or ``"all"``), as a dict."""
        rows = self.values[(self.values["card"] == card) & (self.values["phase"] == phase)]
        if rows.empty:
            raise KeyError(f"{card!r} in phase {phase!r}")
        return rows.iloc[0].to_dict()

    def priority(self) -> list[dict]:
        """The cards by the size of their value over every phase, largest first (``card``,
        ``value``, ``ci_low``, ``ci_high``, ``states``): the counts a deck search tries first."""
        pooled = self.values[self.values["phase"] == (ALL if len(self.phases) > 1 else self.phases[0])]
        pooled = pooled[pooled["states"] > 0]
        order = pooled.assign(size=pooled["value"].abs()).sort_values("size", ascending=False)
        return [{k: row[k] for k in ("card", "value", "ci_low", "ci_high", "states")} for _, row in order.iterrows()]

    def to_json(self) -> dict:
        from simbalance.analysis.metrics import json_records

        return {
            "game": self.game, "players": self.players, "seed": self.seed, "phases": self.phases,
            "states_per_phase": self.states, "playouts": self.playouts, "lineup": self.lineup,
            "holding": self.holding, "swapped": self.swapped, "selection": self.selection, "note": self.note,
            "values": json_records(self.values), "beside_card_impact": json_records(self.beside),
            "observed_kind": self.observed_kind, "observed_games": self.observed_games,
            "decisions": json_records(self.decisions) if self.decisions is not None else None,
            "priority": self.priority(), "seconds": self.seconds, "counts": self.counts,
            "findings": [f.to_dict() for f in self.findings()],
        }


def parse_phases(when: str | list[str] | tuple[str, ...]) -> list[str]:
    """``early,late`` -> ["early", "late"]: known phases, each once; anything else is one line."""
    items = [s.strip() for s in when.split(",")] if isinstance(when, str) else list(when)
    out = []
    for item in items:
        if item not in PHASES:
            raise SimbalanceError(f"--when {item!r}: not a phase{did_you_mean(item, PHASES)}; allowed: "
                                  f"{', '.join(PHASES)} (comma-separated)")
        if item in out:
            raise SimbalanceError(f"--when {when}: {item} is named twice")
        out.append(item)
    if not out:
        raise SimbalanceError("--when: name at least one phase of early, middle, late")
    return out


def parse_cards(cards: str | list[str] | None, labels: list[str]) -> list[str] | None:
    """``--cards`` as card names (the card-impact table's labels), each checked; None: every card."""
    if cards is None:
        return None
    items = [s.strip() for s in cards.split(",")] if isinstance(cards, str) else list(cards)
    known = list(dict.fromkeys(labels))
    for item in items:
        if item not in known:
            raise SimbalanceError(f"--cards {item!r}: not a card of this game{did_you_mean(item, known)}; "
                                  f"known: {', '.join(known[:12])}{' ...' if len(known) > 12 else ''}")
    if not items:
        raise SimbalanceError("--cards: name at least one card")
    return list(dict.fromkeys(items))


class _CardJob(KernelJob):
    """The card kernel over states ``lo .. hi - 1``: per state its game's ``length``, the
    ``decision`` it stopped before, the ``mover`` (-1: no state) and ``n``, the cards valued; and
    the pairs (``pair_state``, ``seat``, ``card``, ``in``, ``diff``, ``ok``) of the block, one per
    (state, seat, card) whose swap found a card at least once, kept compact as the block finishes
    (memory grows with the pairs, not with states x cards)."""

    def __init__(self, engine, lineup, prepared, seed, phase_codes, playouts, want: np.ndarray):
        super().__init__(engine, lineup, prepared, seed)
        self.phase_codes, self.playouts, self.want = phase_codes, playouts, want
        self.width = len(want) + 64  # a card valued per copy held (captain-future's kinds) may come more than once

    def __call__(self, lo: int, hi: int) -> dict[str, np.ndarray]:
        from simbalance.players import card_value_nb, game_kernel

        engine, ctx = self.kernel_inputs()
        res, swap, m, width = engine.resumable, engine.card_swap, hi - lo, self.width
        value_cards = game_kernel(swap.value_cards, card_value_nb.value_cards, {
            "start": res.start, "play_out": res.play_out, "to_move": res.to_move, "clone": res.clone,
            "held": swap.held, "swap": swap.swap, "rekey": swap.rekey, "outcome": swap.outcome})
        out = {key: np.zeros(m, np.int64) for key in ("length", "decision", "mover", "n")}
        part = {"seat": np.zeros((m, width), np.int64), "card": np.zeros((m, width), np.int64),
                "in": np.full((m, width), -1, np.int64), "diff": np.zeros((m, width), np.float64),
                "ok": np.zeros((m, width), np.int64)}
        block = (self.seats, self.strategy, self.params, np.uint64(self.seed), np.int64(lo), np.int64(hi),
                 self.phase_codes[lo:hi], np.int64(self.playouts), self.want, np.zeros(width, np.int64))
        value_cards(ctx, res.new_state(ctx), block, (out["length"], out["decision"], out["mover"], part["seat"],
                                                     part["card"], part["in"], part["diff"], part["ok"], out["n"]))
        used = (np.arange(width)[None, :] < out["n"][:, None]) & (part["ok"] > 0)
        rows, cols = np.nonzero(used)
        return {**out, "pair_state": (rows + lo).astype(np.int64), **{key: part[key][rows, cols] for key in part}}


class _DecisionJob(KernelJob):
    """The decision kernel over decisions ``lo .. hi - 1``: per decision the ``mover`` (-1: none)
    and per option kind (columns: ``swap.decision_kinds``) the ``options`` tried, the ``best`` and
    ``worst`` mean share and the ``split`` spread."""

    def __init__(self, engine, lineup, prepared, seed, phase_codes, playouts):
        super().__init__(engine, lineup, prepared, seed)
        self.phase_codes, self.playouts = phase_codes, playouts

    def __call__(self, lo: int, hi: int) -> dict[str, np.ndarray]:
        from simbalance.players import card_value_nb, game_kernel

        engine, ctx = self.kernel_inputs()
        res, search, swap, m = engine.resumable, engine.search, engine.card_swap, hi - lo
        value_decisions = game_kernel(swap.value_decisions, card_value_nb.value_decisions, {
            "start": res.start, "play_out": res.play_out, "to_move": res.to_move,
            "legal_options": res.legal_options, "apply_option": res.apply_option, "clone": res.clone,
            "determinize": search.determinize, "outcome": swap.outcome, "option_kind": swap.option_kind})
        kinds = len(swap.decision_kinds)
        n_options = res.max_options(ctx)
        out = {"mover": np.zeros(m, np.int64), "options": np.zeros((m, kinds), np.int64),
               "best": np.zeros((m, kinds)), "worst": np.zeros((m, kinds)), "split": np.zeros((m, kinds))}
        block = (self.seats, self.strategy, self.params, np.uint64(self.seed), np.int64(lo), np.int64(hi),
                 self.phase_codes[lo:hi], np.int64(self.playouts), np.int64(OPTION_CAP),
                 np.zeros(n_options, np.int64), np.zeros(n_options, np.int64))
        value_decisions(ctx, res.new_state(ctx), block,
                        (out["mover"], out["options"], out["best"], out["worst"], out["split"]))
        return out


def play_card_values(engine, lineup, prepared: tuple, seed: int, total: int, phase_codes: np.ndarray, playouts: int,
                     want: np.ndarray, how: BlockSettings, progress=None, label: str = "card-value",
                     key: dict | None = None) -> dict:
    """The card kernel over ``total`` states (state k's phase: ``phase_codes[k]``): per state its
    game's ``length``, the ``decision`` it stopped before, the ``mover`` (-1: no state) and ``n``,
    the cards valued; and ``pairs``, one entry per (state, seat, card) valued whose swap found a
    card at least once (``state``, ``seat``, ``card``, ``in``: a card swapped in, ``diff``, ``ok``:
    its play-outs), in state order."""
    job = _CardJob(engine, lineup, prepared, seed, phase_codes, playouts, want)
    got = how.play(job, total, BLOCK, progress, label, "states", "card-values",
                   {**(key or {}), "seed": seed, "playouts": playouts})
    keys = ("state", "seat", "card", "in", "diff", "ok")
    pairs = {key: got.get("pair_state" if key == "state" else key,
                          np.zeros(0, np.float64 if key == "diff" else np.int64)) for key in keys}
    out = {key: got.get(key, np.zeros(0, np.int64)) for key in ("length", "decision", "mover", "n")}
    return {**out, "pairs": pairs}


def play_decision_values(engine, lineup, prepared: tuple, seed: int, total: int, phase_codes: np.ndarray,
                         playouts: int, how: BlockSettings, progress=None, label: str = "decisions",
                         key: dict | None = None) -> dict:
    """The decision kernel over ``total`` sampled decisions (_DecisionJob)."""
    job = _DecisionJob(engine, lineup, prepared, seed, phase_codes, playouts)
    return how.play(job, total, BLOCK, progress, label, "decisions", "decision-values",
                    {**(key or {}), "seed": seed, "playouts": playouts})


@dataclass(frozen=True)
class CardValueParams(StudyParams):
    """card-value's parameters, in the order of its options (the checks that need the game, the
    cards' names and the lineup, are run's); the API takes cards, states and when by position
    after the game, as it always has."""

    cards: str | tuple[str, ...] | None = option(None, positional=True, help="Only these cards, comma-separated, named as in the "
                                                            "card-impact table (default: every card).")
    states: int = option(STATES, count=True, positional=True, help="Sampled states per phase.")
    when: str | tuple[str, ...] = option(WHEN, positional=True, help="Phases, comma-separated: early, middle, late (thirds of each "
                                                     "game's decisions).")
    playouts: int = option(PLAYOUTS, kind=int, help="Paired play-outs per (state, card), and per option of a sampled "
                                                     "decision.")
    decisions: int = option(DECISIONS, count=True, zero=True, help="Sampled decisions per phase for the decision "
                                                                    "values (0: none).")
    observe: int = option(OBSERVE, count=True, zero=True, shown="100000",
                          help="Games of the run whose card-impact table stands beside the values (0: none).")
    strategies: str | tuple[str, ...] | None = option(None, help="Heuristics, one per seat, comma-separated, seats "
                                                                 "rotated (default: the game config's lineup).")

    def check(self) -> None:
        check_whole("--states", self.states, 1, MAX_STATES)
        check_whole("--playouts", self.playouts, 1, MAX_PLAYOUTS)
        check_whole("--decisions", self.decisions, 0, MAX_STATES)
        check_whole("--observe", self.observe, 0, 10**7)  # kept in memory for the card-impact table
        parse_phases(self.when)
        names_of(self.strategies, "--strategies")


def run_card_value(settings: RunSettings, params: CardValueParams, progress: ProgressFactory | None = None, *,
                   stop: Callable[[], bool] | None = None, checkpoints: str | Path | None = None) -> CardValueResult:
    """Value every card (or ``cards``, by name) of the game for its holder at ``states`` sampled
    states per phase of ``when``, ``playouts`` paired play-outs each; value ``decisions`` sampled
    decisions per phase by kind; set the values beside the card-impact table of ``observe`` games of
    the same lineup (0: none). The settings: studies/settings.RunSettings (the lineup is the game's
    default or ``strategies``, heuristics only); the states and decisions play on its threads or
    backend (core/blocks.py). ``stop``: asked between blocks and once more when every part is played
    (Ctrl-C: RunInterrupted, the finished blocks kept); ``checkpoints``: a folder where the finished
    blocks are kept, so that the same call after a stop plays only the rest."""
    cards, when, playouts, decisions, observe = (params.cards, params.when, params.playouts, params.decisions,
                                                 params.observe)
    states = params.states
    strategies = names_of(params.strategies, "--strategies")
    if strategies is not None and len(strategies) == 1:
        strategies = strategies[0]
    phases = parse_phases(when)
    plan = settings.plan(max(observe, 1), strategies=strategies, rotate=strategies is not None
                         and not isinstance(strategies, str) and len(set(strategies)) > 1)
    engine, spec = plan.engine, plan.spec
    if engine.card_swap is None or engine.resumable is None:
        raise SimbalanceError(f"{spec.id} has no card-swap hooks yet (card_value_nb.py, docs/card_value.md): "
                              "card-value cannot value its cards")
    if engine.cards is None and engine.card_swap.labels is None:
        raise SimbalanceError(f"{spec.id} names no cards (Engine.cards): card-value cannot label its values")
    if engine.searches(plan.lineup):
        raise SimbalanceError("card-value plays heuristics: a search player (mcts, flat) in the lineup would search "
                              "in every play-out; seat heuristics with --players/--strategies")
    labels = (engine.cards.labels(plan.config)[0] if engine.cards is not None
              else engine.card_swap.labels(plan.config))
    chosen = parse_cards(cards, labels)
    want = np.array([chosen is None or label in chosen for label in labels], dtype=np.bool_)
    swap = engine.card_swap
    code = {name: i for i, name in enumerate(PHASES)}
    total = states * len(phases)
    phase_codes = np.array([code[phases[k % len(phases)]] for k in range(total)], np.int64)
    seconds, counts = {}, {}
    begin = time.perf_counter()
    seed_cards = derive_seed(settings.seed, "card-value")
    stop = stop if stop is not None else stop_requested  # the command's Ctrl-C (core/study.stopping)
    how = BlockSettings.of(plan, stop, checkpoints)
    # what the blocks are of: a checkpoint of other rules, lineup or phases is refused, never mixed in
    key = {"game": spec.id, "config": plan.config, "lineup": plan.lineup.describe(), "phases": phases,
           "cards": chosen, "engine_version": engine.version}
    raw = play_card_values(engine, plan.lineup, plan.prepared, seed_cards, total, phase_codes, playouts, want, how,
                           progress, f"{spec.id}: card values, states", key)
    seconds["cards"] = time.perf_counter() - begin
    got = raw["pairs"]
    ks, ids = got["state"], got["card"]
    pairs = pd.DataFrame({"state": ks, "phase": np.array(phases, dtype=object)[ks % len(phases)],
                          "seat": got["seat"], "card_id": ids, "label": np.array(labels, dtype=object)[ids],
                          "diff": got["diff"], "playouts": got["ok"]})
    values = card_values(pairs, phases, [lab for lab, w in zip(labels, want, strict=True) if w])
    sampled = int(np.sum(raw["mover"] >= 0))
    counts.update(states=sampled, pairs=int(len(pairs)),
                  playouts=int(playouts * np.sum(raw["n"] > 0) + got["ok"].sum()),  # the states as they are, the swaps
                  sampling_games=2 * total)
    note = []
    table = None
    if decisions > 0 and engine.search is not None and engine.has_decisions:
        begin = time.perf_counter()
        n_dec = decisions * len(phases)
        dec_codes = np.array([code[phases[k % len(phases)]] for k in range(n_dec)], np.int64)
        draw = play_decision_values(engine, plan.lineup, plan.prepared,
                                    derive_seed(settings.seed, "card-value decisions"), n_dec, dec_codes, playouts,
                                    how, progress, f"{spec.id}: decision values", key)
        seconds["decisions"] = time.perf_counter() - begin
        kinds = swap.decision_kinds
        rows, cols = np.nonzero((draw["options"] >= 2) & (draw["mover"] >= 0)[:, None])
        frame = pd.DataFrame({
            "kind": np.array(kinds, dtype=object)[cols], "phase": np.array(phases, dtype=object)[rows % len(phases)],
            "spread": draw["split"][rows, cols], "raw_spread": (draw["best"] - draw["worst"])[rows, cols],
            "options": draw["options"][rows, cols], "playouts": draw["options"][rows, cols] * playouts})
        table = decision_values(frame, phases, kinds)
        counts.update(decisions=int(np.sum(draw["mover"] >= 0)), decision_playouts=int(frame["playouts"].sum()))
    elif decisions > 0:
        note.append(f"{spec.id} has no informed decisions (its picks are blind): no decision is valued"
                    if not engine.has_decisions else
                    f"{spec.id} has no search hooks (determinize): no decision is valued")
    observed, observed_kind = None, None
    if engine.cards is None:
        note.append(f"{spec.id} has no card-impact table: its values stand alone")
    elif observe > 0:
        from simbalance.studies.cards import card_table
        from simbalance.studies.run import play

        begin = time.perf_counter()
        played = play(plan, progress, f"{spec.id}: card-impact run", RunOptions(stop=stop))
        observed = card_table(plan, played.games)
        observed_kind = str(observed["kind"].iloc[0]) if observed is not None and len(observed) else None
        seconds["observed"] = time.perf_counter() - begin
    beside = with_observed(values, observed)
    check_not_stopped(stop, total, "states", checkpoints)  # a Ctrl-C as the last block finished: never ignored
    how.finish()  # every part played: the blocks kept for a Ctrl-C are not needed any more
    return CardValueResult(spec.id, plan.players, settings.seed, phases, states, playouts,
                           list(plan.lineup.describe()[0].split(",")), values, beside, pairs, table, swap.holding,
                           swap.swapped, observed_kind, observe, seconds, counts, plan.config, "; ".join(note),
                           selection=swap.selection)


STUDY = Study(
    "card-value", rank=100, params=CardValueParams, run=run_card_value, stoppable=True, keeps_blocks=True,
    summary="""Each card's value for its holder (95% CI, by phase) from paired play-outs with and without it,
    beside the observational card-impact table; the spread of each decision kind; writes
    card_value.html.""",
    writer="simbalance.report.card_value_page:write_card_value_folder", page="card_value.html",
    view="simbalance.cli.card_value_cmd:show",
    out_help="Output folder: card_value.html, card_value.json, findings.json (default: "
             "reports/card-value-<game>-<time>).",
    example=("captain-action", "--states", "40", "--decisions", "20"),
)
card_value = api_entry(STUDY)
