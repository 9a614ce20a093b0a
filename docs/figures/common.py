"""Helpers shared by the docs figure scripts (docs/figures/<game>.py)."""

from __future__ import annotations

from functools import cache


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def strategy_share(result, name: str) -> float:
    """The win rate per seat played by strategy ``name`` in a run, over all games (ties 1/k)."""
    return float(next(r["win_rate"] for r in result.summary()["strategies"] if r["strategy"] == name))


def lead_passage(result, what: str) -> str:
    """The whole-game metrics of a run (summary()["lead"], docs/metrics.md) in one passage: lead
    changes, decisiveness, comebacks, drama and how often the leader after rounds 1 and 3 wins."""
    lead = result.summary()["lead"]
    r1, r3 = lead["rounds"][0], lead["rounds"][2]

    def num(x) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    def leader(row) -> str:
        if not row["decided_with_sole_leader"]:
            return "n/a"
        return (f"{pct(row['leader_wins'])} (95% CI {pct(row['ci_low'])} to {pct(row['ci_high'])}, "
                f"{row['decided_with_sole_leader']:,} games)")

    return (
        f"Whole-game metrics ({what}; progress: {lead['progress']}; docs/metrics.md): "
        f"{lead['lead_changes_mean']:.2f} lead changes per game, the lead changing hands at "
        f"{pct(lead['lead_change_rate'])} of the checkpoints (Ludii's lead change); the winner leads for good "
        f"after {pct(lead['decisiveness'])} of the game on average (decisiveness), was never behind in "
        f"{pct(lead['never_behind'])} of the games and was last at some point in {pct(lead['comeback_wins'])} "
        f"(comeback wins); drama {num(lead['drama'])}. The sole leader after round 1 wins {leader(r1)}, after "
        f"round 3 {leader(r3)}, against a fair {pct(r1['fair_share'])}; mean lead margin after round 1 "
        f"{num(r1['mean_margin'])}, after round 3 {num(r3['mean_margin'])}, at the end {num(lead['final_margin'])}."
    )


def ladder_passage(game: str, budgets: str, n: int, n_pairs: int | None = None, **kwargs) -> str:
    """`simbalance ladder` in a table and its findings in words (docs/strategies.md)."""
    from simbalance.studies.ladder import ladder

    res = ladder(game, budgets, n, n_pairs=n_pairs, **kwargs)
    fair = 1 / res.players
    yard = res.yardstick
    rows = ["| " + res.budget_param + f" | win rate against {res.against} (fair {pct(fair)}) | head to head against "
            "the budget before" + (f" | head to head against {yard}, same budget" if yard else "") + " | games/s |",
            "|---|---|---|---|" + ("---|" if yard else "")]
    for _, r in res.table.iterrows():
        h2h = (f"{pct(r['h2h_share'])} ({pct(r['h2h_ci_low'])} to {pct(r['h2h_ci_high'])})" if r["h2h_games"]
               else "")
        if yard:
            h2h += (f" | {pct(r['yard_share'])} ({pct(r['yard_ci_low'])} to {pct(r['yard_ci_high'])})"
                    if r["yard_games"] else " | ")
        secs = res.seconds[int(r["budget"])]
        played = r["games"] + r["h2h_games"] + r["yard_games"]
        rows.append(f"| {int(r['budget']):,} | {pct(r['win_rate'])} ({pct(r['ci_low'])} to {pct(r['ci_high'])}) | "
                    f"{h2h} | {played / secs:,.1f} |")
    said = " ".join(f"**{f.severity}**: {f.text}" for f in res.findings())
    command = (f"`simbalance ladder {game} --budgets {budgets} --n {n}"
               + (f" --n-pairs {n_pairs}" if n_pairs is not None else "")
               + (f" --against {kwargs['against']}" if kwargs.get("against") else "")
               + (f" --yardstick {yard}" if yard else "") + "`")
    yard_text = (f"; then against {yard} at the same budget per decision (split evenly among the options, at least "
                 f"one play-out each) in {res.n_pairs:,} games" if yard else "")
    return (f"{command}: {res.search} at each budget in {res.n:,} games, one seat against {res.players - 1} x "
            f"{res.against}, seats rotated; then against the budget before it in {res.n_pairs:,} games{yard_text} "
            "(win rates per seat over decided games, 95% CIs; games/s on this machine, all its measurements).\n\n"
            + "\n".join(rows) + "\n\n" + said)


def robustness_passage(game: str, n: int, budget: int, search_n: int, **kwargs) -> str:
    """`simbalance robustness` in a table and its conclusions in words (docs/strategies.md)."""
    from simbalance.studies.robustness import robustness

    res = robustness(game, n, budget=budget, search_n=search_n, **kwargs)
    p = res.players
    rows = ["| all seats | games | " + " | ".join(f"player {s + 1}" for s in range(p)) + " | first player |",
            "|---|---|" + "---|" * p + "---|"]
    for _, m in res.models.iterrows():
        rates = res.seats[res.seats["model"] == m["model"]].sort_values("seat")["win_rate"]
        rows.append(f"| {m['model']} | {int(m['games']):,} | " + " | ".join(pct(v) for v in rates)
                    + f" | {100 * m['first_player']:+.1f} pp ({100 * m['fp_ci_low']:+.1f} to "
                    f"{100 * m['fp_ci_high']:+.1f}) |")
    said = "\n".join(f"- **{c['topic']}: {c['verdict']}.** {c['text']}" for c in res.conclusions)
    searched = [m for m in res.models["model"] if "@" in m]
    stop = " ".join(f"All {m}: {'the cap stopped it first' if m in res.capped else 'the precision was reached'}."
                    for m in searched)
    return (f"`simbalance robustness {game} --n {n} --budget {budget} --search-n {search_n}`: every seat the same "
            f"player model; win rates per seat over decided games (fair {pct(1 / p)}). A search model plays until "
            f"every seat's 95% CI half-width is below {100 * res.precision:g} points, at most {search_n:,} games. "
            + stop + "\n\n" + "\n".join(rows) + "\n\n" + said + _default_seat_under_search(res, searched))


def _default_seat_under_search(res, searched: list[str]) -> str:
    """The question a run report raises, answered from the table: does the seat the game's default
    players favour most keep its advantage under the search model?"""
    default = res.config.get("game", {}).get("strategies")
    default = default[0] if isinstance(default, list) and len(set(default)) == 1 else default
    if not searched or not isinstance(default, str) or default not in set(res.models["model"]):
        return ""
    fair = 1 / res.players
    mine = res.seats[res.seats["model"] == default]
    top = mine.loc[mine["win_rate"].idxmax()]
    seat = int(top["seat"])
    parts = []
    for m in searched:
        row = res.seats[(res.seats["model"] == m) & (res.seats["seat"] == seat)].iloc[0]
        games = int(res.models.set_index("model").loc[m, "games"])
        if row["ci_low"] > fair:
            verdict = "keeps an advantage"
        elif row["ci_high"] < fair:
            verdict = "is disfavoured instead"
        else:
            verdict = "has no advantage shown"
        parts.append(f"under {m} ({games:,} games) it {verdict}: {pct(row['win_rate'])} (95% CI "
                     f"{pct(row['ci_low'])} to {pct(row['ci_high'])})")
    return (f"\n\nThe game's default players (`{default}` at every seat) favour player {seat + 1} most "
            f"({pct(top['win_rate'])}, fair {pct(fair)}); " + "; ".join(parts) + ".")


@cache
def setting_row(game: str, name: str, changes: tuple = (), n: int = 300, seed: int = 1, overrides: tuple = ()) -> dict:
    """One search seat (``name`` with its parameters changed by ``changes``, (key, value) pairs) among
    the game's strongest heuristic (the ladder's default), seats rotated, ``n`` games of ``seed``
    (``overrides``: config keys, e.g. ``search.evaluation=hand``): its win rate per seat over the
    decided games with the 95% CI, the share of games with no winner, games/s. Cached: every passage
    and config comment that quotes a setting quotes the same run (issue 53 item 6: the docs and the
    configs' comments cannot disagree)."""
    from simbalance.analysis.metrics import strategy_table
    from simbalance.core.aggregate import wilson
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.ladder import default_against
    from simbalance.studies.run import SimulationResult, plan_run

    base = plan_run(game, 1)
    p = base.players
    infos = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)
    against = default_against(base.config, [k for k, i in infos.items()
                                            if not i.preset and not base.engine.is_search(i.base)])
    info = infos[name]
    table = {"base": info.base, "idea": name, **info.params, **dict(changes)}
    plan = plan_run(game, n, seed=seed, strategies=["setting"] + [against] * (p - 1), rotate=True,
                    presets={"setting": table}, overrides=list(overrides))
    res = SimulationResult.from_plan(plan)
    row = strategy_table(res.games, p, plan.lineup.slot_names).set_index("strategy").loc["setting"]
    stalled = int(res.aggregate.n - res.aggregate.decided)
    lo, hi = wilson(stalled, res.aggregate.n)
    return {"players": p, "against": against, "win": float(row["win_rate_decided"]),
            "lo": float(row["decided_ci_low"]), "hi": float(row["decided_ci_high"]), "n": n, "seed": seed,
            "no_winner": stalled / res.aggregate.n, "no_winner_lo": float(lo), "no_winner_hi": float(hi),
            "games_per_s": res.games_per_second}


def row_of(game: str, name: str, changes: dict, n: int, seed: int, evaluation: str = "fitted") -> dict:
    """``setting_row`` with its key normalized: a change to the value the strategy already has, and
    the default evaluation, are no change (the same run, whichever passage asks)."""
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.run import plan_run

    base = plan_run(game, 1)
    own = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)[name].params
    changes = tuple(sorted((k, v) for k, v in changes.items() if own.get(k) != v))
    overrides = () if evaluation == "fitted" else (f"search.evaluation={evaluation}",)
    return setting_row(game, name, changes, n, seed, overrides)


def search_settings_passage(game: str, settings: list[tuple[str, str, dict]], n: int, seed: int = 1) -> str:
    """One search seat among the game's strongest heuristic (the ladder's default), seats rotated,
    per setting ``(label, strategy or preset, parameter changes)``: its win rate per seat over the
    decided games with the 95% CI and the share of games with no winner, in one table (how a game's
    search presets were chosen; ``setting_row``)."""
    rows = [row_of(game, name, changes, n, seed) for _, name, changes in settings]
    p, against = rows[0]["players"], rows[0]["against"]
    lines = [f"| search seat | win rate against {p - 1} x {against} (fair {pct(1 / p)}) | 95% CI | no winner | games |",
             "|---|---|---|---|---|"]
    lines += [f"| {label} | {pct(r['win'])} | {pct(r['lo'])} to {pct(r['hi'])} | {pct(r['no_winner'])} | {n:,} |"
              for (label, _, _), r in zip(settings, rows, strict=True)]
    return (f"One search seat among {p - 1} x `{against}`, seats rotated, {n:,} games per setting (seed {seed}); "
            "win rates per seat over decided games, and the share of all games that ended with no winner:\n\n"
            + "\n".join(lines))


def search_settings_comment(game: str, settings: list[tuple[str, str, dict]], n: int, seed: int = 1) -> str:
    """The same runs as ``search_settings_passage``, as the lines of a config's comment."""
    rows = [row_of(game, name, changes, n, seed) for _, name, changes in settings]
    p, against = rows[0]["players"], rows[0]["against"]
    lines = [f"measured by `make docs-figures` (docs/figures/run.py {game}; the same runs as docs/rules/{game}.md,",
             f"\"Search players\"): one search seat among {p - 1} x {against}, seats rotated, {n:,} games each, seed {seed};",
             "its win rate per seat over decided games (95% CI), the share of games with no winner:"]
    lines += [f"  {label.replace('`', '')}: {pct(r['win'])} ({pct(r['lo'])} to {pct(r['hi'])}), "
              f"no winner {pct(r['no_winner'])}" for (label, _, _), r in zip(settings, rows, strict=True)]
    return "\n".join(lines)


def strength_at_cut_comment(game: str, name: str, depths: list[int], n: int, seed: int = 1) -> str:
    """The same runs as ``strength_at_cut_passage``, as the lines of a config's comment."""
    lines = [f"measured by `make docs-figures` (docs/figures/run.py {game}; the same runs as docs/strategies.md,",
             f"\"Strength at a cut\"): {name} in one seat, seats rotated, {n:,} games each, seed {seed}; its win rate",
             "per seat over decided games (95% CI), the share of games with no winner:"]
    for depth in depths:
        for evaluation in (("fitted", "hand") if depth > 0 else ("fitted",)):
            r = row_of(game, name, {"depth": float(depth)}, n, seed, evaluation)
            at = f"cut at {depth}, {evaluation} evaluation" if depth > 0 else "to the end"
            lines.append(f"  {at}: {pct(r['win'])} ({pct(r['lo'])} to {pct(r['hi'])}) against {r['players'] - 1} x "
                         f"{r['against']}, no winner {pct(r['no_winner'])}")
    return "\n".join(lines)


def strength_at_cut_passage(game: str, name: str, depths: list[int], n: int, seed: int = 1) -> str:
    """docs/strategies.md, "Strength at a cut": ``name`` with play-outs cut at each depth, scored by the
    fitted evaluation and by the hand-written one (``setting_row``: the rules page quotes the same
    runs)."""
    lines = ["| depth | evaluation at the cut | win rate per seat (95% CI) | no winner | games/s |",
             "|---:|---|---:|---:|---:|"]
    first = None
    for depth in depths:
        for evaluation in (("fitted", "hand") if depth > 0 else ("fitted",)):
            r = row_of(game, name, {"depth": float(depth)}, n, seed, evaluation)
            first = first or r
            label = evaluation if depth > 0 else "(none: to the end)"
            lines.append(f"| {depth} | {label} | {pct(r['win'])} ({pct(r['lo'])} to {pct(r['hi'])}) | "
                         f"{pct(r['no_winner'])} | {r['games_per_s']:.1f} |")
    return (f"`{game}`: `{name}` in one seat against {first['players'] - 1} x `{first['against']}`, seats rotated, "
            f"{n:,} games per row (seed {seed}); win rates per seat over decided games, fair "
            f"{pct(1 / first['players'])}; games/s on one thread of this machine (compare within the table):\n\n"
            + "\n".join(lines))


STALLS = {True: 'fitted as the "no winner" outcome', False: "no such outcome fitted"}


def fitted_evaluation_passage(game: str) -> str:
    """The committed fit (configs/<game>/eval.json, made by `simbalance fit-eval GAME`): its held-out
    log-loss and accuracy beside the hand-written evaluate, its weights and its calibration table.
    A fit stale for the default rules is an error: refit it first (docs/strategies.md)."""
    import json

    from simbalance.core.config import load_config
    from simbalance.games.registry import get_game
    from simbalance.studies.evaluation import eval_path, rules_digest, stale_reason

    data = json.loads(eval_path(game).read_text())
    engine = get_game(game).load()
    why = stale_reason(data, engine, rules_digest(load_config(game)))
    if why is not None:
        raise SystemExit(f"{eval_path(game)} is {why}: run `simbalance fit-eval {game}` first")
    held = data["held_out"]
    lines = [f"`simbalance fit-eval {game}` (configs/{game}/eval.json): {data['games']:,} games of "
             f"{', '.join(data['strategies'])} at {data['players']} players (seats rotated), a cut every "
             f"{data['cut_every']} decisions: {data['points']:,} positions, "
             f"{data['games'] - data['decided_games']:,} of the games with no winner "
             f"({STALLS[data.get('no_winner') is not None]}); "
             f"{data['held_out_games']:,} games ({data['held_out_points']:,} positions) held out. The log-loss and "
             "accuracy are over the held-out games with a winner.",
             "",
             "| evaluation | held-out log-loss (nats) | predicted leader wins |",
             "|---|---:|---:|",
             f"| fitted | {held['fitted']['log_loss']:.3f} | {pct(held['fitted']['accuracy'])} |",
             f"| hand-written `evaluate` | {held['hand_written']['log_loss']:.3f} | "
             f"{pct(held['hand_written']['accuracy'])} |",
             f"| uniform (1/{data['players']}) | {held['uniform']['log_loss']:.3f} | |",
             "",
             "| feature | weight may be | weight |", "|---|---|---:|"]
    allowed = {1: "at least 0", -1: "at most 0", 0: "either"}
    lines += [f"| `{name}` | {allowed[sign]} | {w:+.4f} |"
              for name, sign, w in zip(data["features"], data["signs"], data["weights"], strict=True)]
    if data.get("no_winner"):
        stall = data["no_winner_held_out"]
        lines += ["", f"\"No winner\" (a logistic regression on the seats' mean features: intercept "
                  f"{data['no_winner']['intercept']:+.4f} and these weights; each seat's share is multiplied by the "
                  f"chance that anyone wins); held out, {pct(stall['observed'])} of the positions' games had no winner, "
                  f"{pct(stall['predicted'])} predicted:", "", "| feature (seats' mean) | weight |", "|---|---:|"]
        lines += [f"| `{name}` | {w:+.4f} |" for name, w in zip(data["features"], data["no_winner"]["weights"],
                                                                strict=True)]
    lines += ["", "Calibration on the held-out positions (every seat's predicted share, in deciles of the "
              "prediction):", "", "| predicted | fitted: observed | positions |", "|---:|---:|---:|"]
    lines += [f"| {pct(r['predicted'])} | {pct(r['observed'])} | {r['n']:,} |" for r in data["calibration"]["fitted"]]
    return "\n".join(lines)


def compensation_passage(game: str, settings: list[dict], n: int, seed: int = 5, **kwargs) -> str:
    """Seat compensation (docs/rules/<game>.md, "Seat compensation"): each setting's seat win rates over
    decided games and balance, ``n`` games each on the same seed (the default lineup unless ``kwargs``
    say otherwise), as a table."""
    import simbalance

    rows, players = [], None
    for overrides in settings:
        s = simbalance.simulate(game, n, seed=seed, overrides=overrides, **kwargs).summary()
        players = len(s["seats"])
        what = ", ".join(f"`{k}={v}`" for k, v in overrides.items()) or "none (the rules as printed)"
        rates = " | ".join(pct(r["win_rate_decided"]) for r in s["seats"])
        rows.append(f"| {what} | {rates} | {s['balance']:.3f} |")
    head = "| `--set` | " + " | ".join(f"player {p + 1}" for p in range(players)) + " | balance |"
    rule = "|---|" + "---|" * players + "---|"
    return (f"{n:,} games per row, seed {seed}, the default lineup; the share of decided games each player wins:\n\n"
            + "\n".join([head, rule, *rows]))


def solve_passage(game: str, targets: list[str], knobs: list[str] | None, *, strategies: str | None = None,
                  budget: str = "20m", seed: int = 1, **kwargs) -> str:
    """`simbalance solve` in words: today's rules, the chosen change with its verified interval and
    side effects, the other players' verdicts, the search's cost (docs/solve.md). ``knobs`` None:
    the config's ``[knobs]``."""
    import shlex

    from simbalance.analysis.solve import targets_words, test_words
    from simbalance.studies.solve import solve

    res = solve(game, targets, knobs, budget=budget, strategies=strategies, seed=seed, **kwargs)
    parts = ["simbalance", "solve", game] + (["--strategies", strategies] if strategies else [])
    parts += [a for t in targets for a in ("--target", t)] + [a for k in knobs or [] for a in ("--knob", k)]
    parts += ["--budget", budget, "--seed", str(seed)]
    command = " ".join(shlex.quote(p) for p in parts)
    today = "; ".join(test_words(t) for t in res.today["tests"])
    tried = len(res.candidates)
    played = int(res.candidates["games"].sum()) if tried else 0
    head = (f"`{command}` ({', '.join(k.text() for k in res.knobs)}; targets: {targets_words(res.targets)}). "
            f"Today's rules, {res.verify_n:,} games: {today}.")
    if res.no_change_needed:
        return head + " No change needed."
    cost = (f"The search tried {tried} candidates in {played:,} games; the whole solve took {res.seconds:.0f} s"
            + (" (the budget stopped the search)" if res.budget_spent else "") + ".")
    chosen = res.chosen
    if chosen is None:
        said = " ".join(f.text for f in res.findings())
        return f"{head} {said} {cost}"
    metrics = "; ".join(test_words(t) for t in chosen.judged["tests"])
    effect = res.side_effects().get(chosen.words, "")
    models = " ".join(
        f"Under {m['model']} ({m['games']:,} games): {m['verdict']} ("
        + "; ".join(test_words(t) for t in m["tests"]) + ")." for m in chosen.models)
    return (f"{head} **{chosen.words}** (`{' '.join(f'--set {k}={v}' for k, v in chosen.change.items())}`): "
            f"{metrics} on {res.verify_n:,} fresh games; {effect}. {models} {cost}")


def tree_vs_flat_row(game: str, budget: int, changes: dict, n: int, seed: int) -> dict:
    """One ``mcts`` seat at ``budget`` iterations (the game's own parameters with ``changes``) and one
    ``flat`` seat at the same budget per decision (the same depth, confidence and rollout), the other
    seats the game's default heuristic, seats rotated, one thread: ``mcts``'s share of the pair's
    wins over decided games with its 95% interval (analysis/ladder.pair_share, as the ladder's
    yardstick), and the games either won."""
    import time

    import numpy as np

    import simbalance
    from simbalance.analysis.ladder import pair_share
    from simbalance.api import plan_run

    config = plan_run(game, 1).config
    p = config["game"]["players"]
    heuristic = config["game"]["strategies"][0]
    mcts = config["strategies"]["mcts"]
    overrides = [f"strategies.flat.{k}={mcts[k]}" for k in ("depth", "confidence", "rollout")]
    overrides += [f"strategies.flat.playouts={budget}", "strategies.flat.per_decision=1",
                  f"strategies.mcts.iterations={budget}"]
    overrides += [f"strategies.mcts.{k}={v}" for k, v in changes.items()]
    t = time.time()
    res = simbalance.simulate(game, n, players=p, seed=seed, strategies=["mcts", "flat"] + [heuristic] * (p - 2),
                              rotate=True, threads=1, overrides=overrides)
    share, lo, hi = pair_share(res.games, p, 0, 1)
    slots, winners = res.records["strategy"][:, :p], res.records["winners"].astype(np.int64)
    won = [((winners >> np.argmax(slots == slot, axis=1)) & 1).astype(bool) for slot in (0, 1)]
    return {"share": share, "lo": lo, "hi": hi, "either": int((won[0] | won[1]).sum()), "players": p,
            "heuristic": heuristic, "secs": time.time() - t}


def tree_vs_flat_passage(game: str, budgets: list[int], variants: list[tuple[str, dict]], n: int, seed: int) -> str:
    """Does the tree below the root earn its budget (issue 53 item 2)? ``tree_vs_flat_row`` at each
    budget for each variant ``(label, mcts parameter changes)``: a table of ``mcts``'s share of the
    pair's wins against ``flat``, 50% even."""
    rows = {(label, b): tree_vs_flat_row(game, b, changes, n, seed) for label, changes in variants for b in budgets}
    first = next(iter(rows.values()))
    head = "| `mcts` below its root | " + " | ".join(f"{b:,} iterations" for b in budgets) + " |"
    lines = [head, "|---|" + "---:|" * len(budgets)]
    for label, _ in variants:
        cells = [f"{pct(r['share'])} ({pct(r['lo'])} to {pct(r['hi'])}; {r['either']:,})"
                 for r in (rows[label, b] for b in budgets)]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return (f"One `mcts` seat and one `flat` seat at the same budget per decision (`flat`'s play-outs split "
            f"evenly among the options, at least one each; the same cut, `confidence` and rollout), "
            f"{first['players'] - 2} x `{first['heuristic']}`, seats rotated, {n:,} games per cell (seed {seed}, "
            "one thread): `mcts`'s share of the pair's wins over decided games (50% is even), its 95% CI and "
            "the games either of the two won:\n\n" + "\n".join(lines))
