"""The solver's race (docs/solve.md, "The search"): successive halving that keeps a reserve.

Every candidate of a stage first plays block 0 (``start_n`` games under every player model of the
race). Then, round after round, the candidates still *open* (neither meeting every target nor
refuted by an interval wholly outside a target) are ranked by evidence: the nearest to meeting
first (the largest Holm-adjusted p across models × targets: of two estimates on target, the one
measured on more games, or further inside, comes first), then the smallest change. The better half
plays its next block (twice its last block's games); the other half waits in **reserve** and comes
back as soon as those ahead of it leave (met, refuted, or at the most games a candidate plays). So
no candidate that is still possible is abandoned while budget remains, and the budget goes first
where the evidence says an answer is likeliest: successive halving's economy, with the reserve
making it anytime (a longer budget settles more candidates, never fewer).

Block ``k`` plays the same games for every candidate and every model (``derive_seed(seed, "solve
rung", k)``): common random numbers across candidates and models, and a candidate's blocks merge
into one aggregate per model (core/aggregate.RunAggregate). A candidate is refuted only at the
level ``alpha / (tests × looks)`` (analysis/stats.judge_models, the statistics core): it is looked at after each of its
blocks, and Bonferroni over those looks keeps a change that meets from being refuted by chance
more often than ``alpha`` however long the race.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from simbalance.analysis.solve import FAILS, MEETS, OPEN, Target, judge_models
from simbalance.core.aggregate import RunAggregate

# (change, model, block, games) -> the aggregate of that block's games under that model
PlayBlock = Callable[[dict, str, int, int], RunAggregate]


@dataclass
class Entry:
    """One candidate in the race: its change and size, what it played under each model, and the
    judgement of all of it."""

    change: dict
    size: tuple[int, float]
    stage: int
    aggs: dict[str, RunAggregate] = field(default_factory=dict)
    blocks: int = 0  # blocks played: its games per model are start_n × (2^blocks − 1)
    judged: dict | None = None

    @property
    def verdict(self) -> str:
        return self.judged["verdict"] if self.judged is not None else OPEN

    @property
    def games(self) -> int:
        """Games per model played so far (the run models'; the metagame's per composition when it is
        the only model of the race)."""
        runs = [int(a.n) for a in self.aggs.values() if isinstance(a, RunAggregate)]
        return min(runs or (int(a.n) for a in self.aggs.values()), default=0)

    def rank(self) -> tuple:
        """Nearest to meeting first (the worst adjusted p), then the smaller change."""
        return (self.judged["p_worst"] if self.judged is not None else 1.0, self.size)


@dataclass
class Race:
    """Successive halving with a reserve over the candidates of one stage (module docstring)."""

    play_block: PlayBlock
    models: list[str]
    targets: dict[str, list[Target]]  # per model: the targets and the kept metrics
    start_n: int
    most_n: int  # the most games of one block (the verification's games: a block beyond is not played)
    answers: int  # the race of a stage ends when this many changes met and every open one is larger
    # time.perf_counter() at which the search's budget is spent: a number, or asked anew before each
    # block (the solver's reserve follows the verification's cost as it is measured)
    deadline: float | Callable[[], float]
    # the seconds a block of n games under every model is expected to take: a block starts only when
    # it ends before the deadline (0: checked at the start of a block only)
    block_seconds: Callable[[int], float] = lambda n: 0.0
    budget_spent: bool = False

    def _over(self, n: int) -> bool:
        deadline = self.deadline() if callable(self.deadline) else self.deadline
        return time.perf_counter() + self.block_seconds(n) > deadline

    @property
    def looks(self) -> int:
        """The most blocks a candidate can play: the looks at it the refutation corrects for."""
        return max(1, int(math.floor(math.log2(self.most_n / self.start_n))) + 1)

    def block_games(self, block: int) -> int:
        return self.start_n * 2 ** block

    def can_play(self, entry: Entry) -> bool:
        return self.block_games(entry.blocks) <= self.most_n

    def play(self, entry: Entry) -> None:
        """The entry's next block under every model, merged and judged."""
        n = self.block_games(entry.blocks)
        for model in self.models:
            agg = self.play_block(entry.change, model, entry.blocks, n)
            entry.aggs[model] = agg if model not in entry.aggs else entry.aggs[model].merge(agg)
        entry.blocks += 1
        entry.judged = judge_models(entry.aggs, self.targets, looks=self.looks)

    def next_round(self, entries: list[Entry], found: list[Entry]) -> list[Entry]:
        """Who plays next: every candidate not yet played, else the better half of the open ones that
        can still play (the rest wait in reserve). Empty: the stage is over."""
        playable = [e for e in entries if e.verdict == OPEN and self.can_play(e)]
        if len(found) >= self.answers:  # only a change smaller than the answers found can still matter
            bar = sorted(f.size for f in found)[self.answers - 1]
            playable = [e for e in playable if e.size < bar]
        fresh = [e for e in playable if e.blocks == 0]
        if fresh:
            return fresh
        playable.sort(key=Entry.rank)
        return playable[: math.ceil(len(playable) / 2)]

    def run(self, entries: list[Entry], found: list[Entry], show=None) -> None:
        """Race ``entries`` until none is open and playable, ``answers`` smaller changes are found, or
        the deadline; the entries that meet every target are appended to ``found``. ``show(round,
        batch)`` opens the round's progress display (closed after the round, where it can be)."""
        rnd = 0
        while True:
            batch = self.next_round(entries, found)
            if not batch:
                return
            if self._over(self.block_games(batch[0].blocks)):
                self.budget_spent = True
                return
            shown = show(rnd, batch) if show is not None else None
            try:
                for entry in batch:
                    if self._over(self.block_games(entry.blocks)):
                        self.budget_spent = True
                        return
                    self.play(entry)
                    if entry.verdict == MEETS:
                        found.append(entry)
            finally:
                if shown is not None and hasattr(shown, "close"):
                    shown.close()
            rnd += 1


def unsettled(entries: list[Entry]) -> list[Entry]:
    """The candidates still possible: played, neither meeting nor refuted."""
    return [e for e in entries if e.blocks and e.verdict == OPEN]


def refuted(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.verdict == FAILS]
