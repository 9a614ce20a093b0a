"""Lengths: how long a game of GAME lasts, in the game's own unit (picks, turns...: the records'
``length``), as a distribution: the quantiles and how many games end at each length. The smallest
study, written as the template of the contract (core/study.py): one file, no command or API entry
or page of its own (cli/study_command.py, report/study_folder.py make them)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simbalance.analysis.findings import Finding
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings, api_entry

QUANTILES = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


@dataclass(frozen=True)
class LengthsParams(StudyParams):
    n: int = option(10_000, shown="1e4", count=True, positional=True, help="Games: 1e4, 10_000 or 10000.")


@dataclass
class LengthsResult:
    game: str
    players: int
    n: int
    seed: int
    lengths: np.ndarray  # one a game, in the order played

    def quantiles(self) -> pd.DataFrame:
        values = np.quantile(self.lengths, QUANTILES, method="inverted_cdf")  # lengths that occurred
        return pd.DataFrame({"quantile": [f"{q:.0%}" for q in QUANTILES], "length": values.astype(int)})

    def counts(self) -> pd.DataFrame:
        lengths, games = np.unique(self.lengths, return_counts=True)
        return pd.DataFrame({"length": lengths.astype(int), "games": games, "share": games / len(self.lengths)})

    def tables(self) -> list[tuple[str, pd.DataFrame]]:
        return [(f"{self.game}: game length over all {self.n:,} games", self.quantiles()),
                ("games ending at each length", self.counts())]

    def numbers(self) -> dict:
        return {"game": self.game, "players": self.players, "n": self.n, "seed": self.seed,
                "mean": float(np.mean(self.lengths)), "quantiles": self.quantiles().to_dict(orient="records"),
                "counts": self.counts().to_dict(orient="records")}

    def findings(self) -> list[Finding]:
        return []  # a distribution to read, not a claim to make


def run_lengths(settings: RunSettings, params: LengthsParams, progress: ProgressFactory | None = None) -> LengthsResult:
    plan = settings.plan(params.n)
    result = play(plan, progress, f"{settings.game}: lengths")
    return LengthsResult(plan.spec.id, plan.players, params.n, settings.seed, result.games["length"].to_numpy())


STUDY = Study(
    "lengths", rank=115, params=LengthsParams, run=run_lengths, stoppable=True,
    summary="How long a game lasts, in the game's own unit: the quantiles and the games ending at each "
            "length; writes lengths.html.",
    page="lengths.html", out_help="Output folder (default: reports/lengths-<game>-<time>).",
    example=("find-dr-evil", "--n", "200"),
)
lengths = api_entry(STUDY)  # the API function, made from the params
