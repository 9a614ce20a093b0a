"""Skill: each heuristic's agency against random players, restricted play of every preset marked
``restricts`` against the full strategy, and a verdict from the measured numbers (analysis/skill.py).
The search players join only when asked (``search_n`` games each: docs/strategies.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.metrics import strategy_table
from simbalance.analysis.skill import skill_findings, verdict
from simbalance.core.lineup import all_strategies
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings, api_entry


@dataclass
class SkillResult:
    game: str
    players: int
    has_decisions: bool
    agency: pd.DataFrame  # strategy, win_rate, ci_low, ci_high against random players
    restricted: pd.DataFrame  # preset, restricts, win_rate, ci against the full strategy
    verdict: str
    config: dict = field(default_factory=dict)  # the resolved config (thresholds of the findings)
    search: pd.DataFrame | None = None  # the search players against random players (search_n games each)
    n: int = 0  # games per measurement
    seed: int = 0

    def findings(self) -> list[Finding]:
        """A restricted strategy that wins more than the full one, decisions that do not matter
        (analysis/findings.py)."""
        return skill_findings(self.agency, self.restricted, self.players, thresholds(self.config),
                              self.has_decisions)


@dataclass(frozen=True)
class SkillParams(StudyParams):
    n: int = option(50_000, shown="5e4", count=True, positional=True,
                    help="Games per measurement: 1e5, 100_000 or 100000.")
    search_n: int = option(0, flag="--search-n", shown="0", count=True, zero=True,
                           help="Games of each search player (mcts, flat and their presets) alone against random "
                                "players; 0 leaves them out (each searches at every decision: slow).")


def run_skill(settings: RunSettings, params: SkillParams, progress: ProgressFactory | None = None) -> SkillResult:
    """Agency of every heuristic and preset against random players, restricted play of every
    preset marked ``restricts``, and a verdict from the measured numbers. ``search_n``: games of
    each search player and search preset against random players (0: they are left out). The
    verdict reads the heuristics only, so asking for the search players never changes it."""
    n, search_n = params.n, params.search_n
    base = settings.plan(1)
    p = base.players
    settings = settings.but(players=p)
    infos = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)
    # The search players (mcts, flat and their presets) play only search_n games: at thousands of
    # times a heuristic's cost per game, n of their games would take hours.
    searchers = [name for name, info in infos.items() if base.engine.is_search(info.base)] if search_n > 0 else []
    infos = {name: info for name, info in infos.items() if not base.engine.is_search(info.base)}
    has_decisions = base.engine.has_decisions

    def alone_against(name: str, field_name: str, count: int = n) -> dict:
        plan = settings.plan(count, strategies=[name] + [field_name] * (p - 1), rotate=True)
        result = play(plan, progress, f"{settings.game}: {name} vs {field_name}")
        # over decided games: held against the fair share 1/P, a timeout must not count as a loss
        row = strategy_table(result.games, p, plan.lineup.slot_names).set_index("strategy").loc[name]
        return {"strategy": name, "against": field_name, "win_rate": float(row["win_rate_decided"]),
                "ci_low": float(row["decided_ci_low"]), "ci_high": float(row["decided_ci_high"]),
                "seat_games": int(row["decided_seat_games"])}

    columns = ["strategy", "against", "win_rate", "ci_low", "ci_high", "seat_games"]
    agency = pd.DataFrame([alone_against(name, "random") for name in infos if name != "random"]
                          if has_decisions and "random" in infos else [], columns=columns)
    searched = pd.DataFrame([alone_against(name, "random", search_n) for name in searchers]
                            if "random" in infos else [], columns=columns)
    restricted = pd.DataFrame([alone_against(name, info.restricts) for name, info in infos.items() if info.restricts],
                              columns=["strategy", "against", "win_rate", "ci_low", "ci_high", "seat_games"])
    # the verdict and the findings read the heuristics; the search players are shown beside them
    return SkillResult(base.spec.id, p, has_decisions, agency, restricted, verdict(has_decisions, agency, p),
                       base.config, searched, n, settings.seed)


STUDY = Study(
    "skill", rank=60, params=SkillParams, run=run_skill, stoppable=True,
    summary="""Agency (each heuristic alone against random players), restricted play (a strategy without
    one ability against the full one) and a plain verdict on skill against luck; writes skill.html.""",
    writer="simbalance.report.skill_page:write_skill_folder", page="skill.html", view="simbalance.cli.skill_cmd:show",
    out_help="Output folder: skill.html, skill.json, findings.json (default: reports/skill-<game>-<time>).",
    example=("captain-action", "--n", "200"),  # find-dr-evil has no decisions: its skill plays no game
)
skill = api_entry(STUDY)  # the API function, made from the params
