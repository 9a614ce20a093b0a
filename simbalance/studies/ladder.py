"""The skill ladder: a search player (``mcts``, ``flat`` or one of their presets) at rising budgets,
each against the best heuristic and against the budget before it (analysis/ladder.py).

Each budget is a preset of the search player made on the fly, named ``<search>@<budget>``: the
search player's own parameters with its budget (``iterations`` for ``mcts``, ``playouts`` for
``flat``) replaced. Against the heuristic: one seat of the budget, the other seats the heuristic,
seats rotated. Against the budget before it: one seat of each, the other seats (if any) the
heuristic, seats rotated. With a yardstick (``flat`` for ``mcts``): against it at the same budget,
one seat each, the same way; ``flat``'s budget is then the decision's, split among the options
(``per_decision``), so both spend as many play-outs on a decision. Every budget plays the same seed
and game indices (common random numbers).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.ladder import LADDER_COLUMNS, ladder_findings, pair_share
from simbalance.analysis.metrics import strategy_table
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.core.lineup import all_strategies
from simbalance.core.plan import MAX_BUDGET
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings, api_entry

# The parameter that is a search player's budget.
BUDGET_PARAMS = {"mcts": "iterations", "flat": "playouts"}


@dataclass
class LadderResult:
    game: str
    players: int
    search: str  # the search player (or preset) the budgets are made from
    budget_param: str  # iterations (mcts) or playouts (flat)
    against: str  # the heuristic every budget plays against
    table: pd.DataFrame  # LADDER_COLUMNS, one row per budget (analysis/ladder.py)
    n: int
    n_pairs: int
    seed: int
    seconds: dict[int, float] = field(default_factory=dict)  # play time of each budget's games
    config: dict = field(default_factory=dict)
    yardstick: str | None = None  # the other search player each budget played head to head (flat), if any

    def findings(self) -> list[Finding]:
        """A curve that does not rise, budgets that buy nothing, the first budget that beats the
        heuristic or none, and how the search fares against its yardstick (analysis/findings.py)."""
        return ladder_findings(self.table, self.search, self.budget_param, self.against, self.players,
                               thresholds(self.config), yardstick=self.yardstick)


def parse_budgets(text: str | list[int]) -> list[int]:
    """``8,32,128`` -> [8, 32, 128]: whole numbers >= 1, rising; anything else is one line."""
    items = [s.strip() for s in text.split(",")] if isinstance(text, str) else list(text)
    budgets = []
    for item in items:
        try:
            value = int(float(item)) if isinstance(item, str) else int(item)
        except (TypeError, ValueError):
            raise SimbalanceError(f"--budgets {text}: {item!r} is not a whole number; give rising budgets such as "
                                  "8,32,128,512") from None
        if isinstance(item, str) and float(item) != value or not 1 <= value <= MAX_BUDGET:
            raise SimbalanceError(f"--budgets {text}: {item!r} must be a whole number from 1 to {MAX_BUDGET:,}")
        budgets.append(value)
    if len(budgets) < 2 or any(b <= a for a, b in zip(budgets, budgets[1:], strict=False)):
        raise SimbalanceError(f"--budgets {text}: give at least two budgets, each larger than the one before "
                              "(8,32,128,512)")
    return budgets


def budget_preset(info, budget_param: str, budget: int, per_decision: bool = False) -> dict:
    """A preset table (as in presets.toml) of search player ``info`` with ``budget``: its own
    parameters, the budget replaced. ``per_decision`` (``flat``): the budget is the decision's, split
    among its options, as ``mcts``'s iterations are."""
    if per_decision:
        return {"base": info.base, "idea": f"{info.name} with {budget} {budget_param} per decision, split evenly "
                "among the options", **info.params, budget_param: float(budget), "per_decision": 1.0}
    unit = "per option" if info.base == "flat" and not info.params.get("per_decision") else "per decision"
    return {"base": info.base, "idea": f"{info.name} with {budget} {budget_param} {unit}", **info.params,
            budget_param: float(budget)}


def default_against(cfg: dict, heuristics: list[str]) -> str:
    """The heuristic a ladder climbs against by default: the config's ``game.strongest`` (where a
    tournament named it), else the game's default lineup's strategy (the one its config chose as
    the strongest), or, where that is ``random``, its first other heuristic."""
    strongest = cfg.get("game", {}).get("strongest")
    if strongest is not None:
        if strongest not in heuristics:
            raise SimbalanceError(f"game.strongest = {strongest!r}: not a heuristic of this game; known: "
                                  f"{', '.join(heuristics)}")
        return strongest
    default = cfg.get("game", {}).get("strategies", ["random"])
    first = default[0] if isinstance(default, list) and default else default
    if first in heuristics and first != "random":
        return first
    others = [h for h in heuristics if h != "random"]
    if not others:
        raise SimbalanceError("this game has no heuristic other than random to climb against; name one with --against")
    return others[0]


@dataclass(frozen=True)
class LadderParams(StudyParams):
    """The ladder's parameters, in the order of its options; the API takes budgets and n by position."""

    budgets: str | tuple[int, ...] = option("8,32,128,512", positional=True,
                                            help="Rising budgets, comma-separated: iterations per decision for mcts, "
                                                 "play-outs per option for flat.")
    search: str = option("mcts", help="The search player, or one of its presets (its other parameters stay).")
    against: str | None = option(None, help="The heuristic every budget plays against (default: the game's default "
                                            "strategy, or its first heuristic when that is random).")
    n: int = option(400, count=True, positional=True, help="Games per budget against the heuristic.")
    n_pairs: int | None = option(None, flag="--n-pairs", count=True, zero=True,
                                 help="Games per budget against the budget before it (default: --n).")
    yardstick: str | None = option(None, help="Also play each budget head to head against this one-step lookahead "
                                              "player (flat or a preset of it) with as many play-outs per decision "
                                              "(--n-pairs games).")

    def check(self) -> None:
        parse_budgets(self.budgets)


def run_ladder(settings: RunSettings, params: LadderParams, progress: ProgressFactory | None = None) -> LadderResult:
    """Each budget of ``search`` against ``against`` (default: the game's own strongest heuristic,
    ``default_against``) in ``n`` games, and against the budget before it in ``n_pairs`` games
    (default ``n``); with ``yardstick`` (the other search player, e.g. ``flat``), also head to head
    against it at the same budget in ``n_pairs`` games."""
    budgets, n, search, against, n_pairs, yardstick = (params.budgets, params.n, params.search, params.against,
                                                      params.n_pairs, params.yardstick)
    values = parse_budgets(budgets)
    base = settings.plan(1)
    engine, p = base.engine, base.players
    if engine.search is None:
        raise SimbalanceError(f"{base.spec.id} has no search players (mcts, flat): "
                              f"{'it has no decisions' if not engine.has_decisions else 'not built for it yet'}")
    infos = all_strategies(base.config, engine.strategies, engine.strategy_params)
    searches = [name for name, info in infos.items() if engine.is_search(info.base)]
    if search not in searches:
        raise SimbalanceError(f"--search {search!r}: not a search player of {base.spec.id}"
                              f"{did_you_mean(search, searches)}; known: {', '.join(searches)}")
    heuristics = [name for name, info in infos.items() if not engine.is_search(info.base)]
    if against is None:
        against = default_against(base.config, [h for h in heuristics if not infos[h].preset])
    elif against not in heuristics:
        raise SimbalanceError(f"--against {against!r}: not a heuristic of {base.spec.id}"
                              f"{did_you_mean(against, heuristics)}; known: {', '.join(heuristics)}")
    info = infos[search]
    budget_param = BUDGET_PARAMS[info.base]
    named = {b: f"{search}@{b}" for b in values}
    presets = {name: budget_preset(info, budget_param, b) for b, name in named.items()}
    yard_named = {}
    if yardstick is not None:
        if info.base != "mcts":
            raise SimbalanceError(f"--yardstick {yardstick}: the yardstick is for the tree search; climb with --search "
                                  f"mcts (or one of its presets), not {search!r}")
        flats = [s for s in searches if infos[s].base == "flat"]
        if yardstick not in flats:
            raise SimbalanceError(f"--yardstick {yardstick!r}: not a one-step lookahead player of {base.spec.id}"
                                  f"{did_you_mean(yardstick, flats)}; known: {', '.join(flats)}")
        yinfo = infos[yardstick]
        yard_named = {b: f"{yardstick}@{b}" for b in values}
        presets.update({name: budget_preset(yinfo, BUDGET_PARAMS[yinfo.base], b, per_decision=True)
                        for b, name in yard_named.items()})
    n_pairs = n if n_pairs is None else n_pairs
    rows, seconds = [], {}

    def head_to_head(me: str, other: str, stream: str) -> tuple[float, float, float, float]:
        """``me`` and ``other`` one seat each, the other seats ``against``, seats rotated, ``n_pairs``
        games: ``me``'s share of the two players' wins with its 95% interval, and the play time."""
        pair = settings.but(players=p, seed=derive_seed(settings.seed, stream)).plan(
            n_pairs, presets=presets, strategies=[me, other] + [against] * (p - 2), rotate=True)
        played = play(pair, progress, f"{base.spec.id}: {me} vs {other}")
        names = pair.lineup.slot_names
        return (*pair_share(played.games, p, names.index(me), names.index(other)), played.elapsed)

    for i, b in enumerate(values):
        me = named[b]
        plan = settings.but(players=p, seed=derive_seed(settings.seed, "ladder")).plan(
            n, presets=presets, strategies=[me] + [against] * (p - 1), rotate=True)
        result = play(plan, progress, f"{base.spec.id}: {me} vs {against}")
        row = strategy_table(result.games, p, plan.lineup.slot_names).set_index("strategy").loc[me]
        seconds[b] = result.elapsed
        out = {"budget": b, "name": me, "win_rate": float(row["win_rate_decided"]),
               "ci_low": float(row["decided_ci_low"]), "ci_high": float(row["decided_ci_high"]),
               "decided_seat_games": int(row["decided_seat_games"]), "games": n,
               "h2h_share": float("nan"), "h2h_ci_low": float("nan"), "h2h_ci_high": float("nan"), "h2h_games": 0,
               "yard_share": float("nan"), "yard_ci_low": float("nan"), "yard_ci_high": float("nan"), "yard_games": 0}
        if i > 0 and n_pairs > 0:
            share, lo, hi, secs = head_to_head(me, named[values[i - 1]], "ladder pairs")
            seconds[b] += secs
            out.update(h2h_share=share, h2h_ci_low=lo, h2h_ci_high=hi, h2h_games=n_pairs)
        if yard_named and n_pairs > 0:
            share, lo, hi, secs = head_to_head(me, yard_named[b], "ladder yardstick")
            seconds[b] += secs
            out.update(yard_share=share, yard_ci_low=lo, yard_ci_high=hi, yard_games=n_pairs)
        rows.append(out)
    table = pd.DataFrame(rows, columns=LADDER_COLUMNS)
    return LadderResult(base.spec.id, p, search, budget_param, against, table, n, n_pairs, settings.seed, seconds,
                        base.config, yardstick)


STUDY = Study(
    "ladder", rank=80, params=LadderParams, run=run_ladder, stoppable=True,
    summary="""The skill ladder: each budget of a search player against the best heuristic and against the
    budget before it, win rates with 95% CIs, a curve; writes ladder.html.""",
    writer="simbalance.report.ladder_page:write_ladder_folder", page="ladder.html",
    view="simbalance.cli.ladder_cmd:show",
    out_help="Output folder: ladder.html, ladder.json, findings.json (default: reports/ladder-<game>-<time>).",
    example=("captain-action", "--budgets", "8,32", "--n", "10"),
)
ladder = api_entry(STUDY)
