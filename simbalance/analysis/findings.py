"""Findings: what a designer most needs to hear, in plain words, at the top of every page.

Each finding is a pure function of a study's tables (a run's summary dict, a comparison's table,
a sweep's grid, a tournament's matchups, skill's and tune's tables): it says what it saw, with its
number and 95% CI, how serious it is, and where to dig in (an anchor of the page, ``#...``, or a
command). When a finding speaks up is set by thresholds in one table, ``FINDINGS_DEFAULTS`` in
``simbalance/core/config.py``; a game's config may change them in a ``[findings]`` table and any
command with ``--set findings.KEY=VALUE`` (docs/findings.md).

Players are numbered from 1 in every sentence ("player 1" is seat 0 of the tables).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from simbalance.analysis.labels import player
from simbalance.core.aggregate import wilson
from simbalance.core.config import FINDINGS_DEFAULTS
from simbalance.core.errors import ConfigError, did_you_mean

HIGH, MEDIUM, LOW = "high", "medium", "low"
SEVERITIES = (HIGH, MEDIUM, LOW)


@dataclass(frozen=True)
class Finding:
    """One thing a page says first: ``kind`` (a stable id such as ``seat_imbalance``), ``severity``
    (high, medium, low), ``text`` (a plain sentence, players numbered from 1), ``number`` (the share
    or count the sentence turns on), ``ci`` (its 95% CI, or None), ``dig_in`` (an anchor of the
    page, ``#cards``, or a command to run)."""

    kind: str
    severity: str
    text: str
    number: float | None = None
    ci: tuple[float, float] | None = None
    dig_in: str | None = None

    def to_dict(self) -> dict:
        out = asdict(self)
        out["ci"] = list(self.ci) if self.ci is not None else None
        return out


def thresholds(cfg: dict | None) -> dict:
    """The thresholds of a run: the defaults, then the config's ``[findings]`` table (checked: a
    typo or a wrong type is a ConfigError naming the key, before any game runs)."""
    out = dict(FINDINGS_DEFAULTS)
    table = (cfg or {}).get("findings")
    if table is None:
        return out
    if not isinstance(table, dict):
        raise ConfigError(f"findings = {table!r}: expected a table of thresholds (docs/findings.md)")
    for key, value in table.items():
        if key not in FINDINGS_DEFAULTS:
            allowed = [f"findings.{k}" for k in FINDINGS_DEFAULTS]
            raise ConfigError(f"unknown config key 'findings.{key}'{did_you_mean(f'findings.{key}', allowed)}; "
                              f"allowed keys: {', '.join(allowed)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ConfigError(f"findings.{key} = {value!r}: expected a number >= 0 (default "
                              f"{FINDINGS_DEFAULTS[key]!r})")
        out[key] = float(value)
    if not 0 < out["alpha"] < 1:
        raise ConfigError(f"findings.alpha = {out['alpha']!r}: allowed between 0 and 1")
    return out


def elsewhere(f: Finding) -> Finding:
    """A finding shown on another page than its own: a link to a part of its own page goes (a
    command to run stays)."""
    if f.dig_in and f.dig_in.startswith("#"):
        return Finding(f.kind, f.severity, f.text, f.number, f.ci, None)
    return f


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """High first, then medium, then low; the order each group was found in otherwise."""
    return sorted(findings, key=lambda f: SEVERITIES.index(f.severity))


# ---- words -------------------------------------------------------------------------------------

def one_in(rate: float) -> str:
    """A share in a designer's words: '1 game in 3', '7 games in 10', 'every game', 'no game'."""
    if rate is None or not np.isfinite(rate) or rate <= 0:
        return "no game"
    if rate >= 0.995:
        return "every game"
    k = round(1 / rate)
    if k >= 2 and abs(1 / k - rate) <= 0.15 * rate:
        return f"1 game in {k}"
    tenths = max(1, round(rate * 10))
    return f"{tenths} games in 10"


def amount(v: float, unit: str) -> str:
    """``1 turn``, ``2 turns``, ``1.5 rounds``: a length in its unit, singular for exactly 1."""
    return f"{v:g} {unit[:-1] if v == 1 and unit.endswith('s') else unit}"


def pct(v: float, digits: int = 1) -> str:
    return "n/a" if v is None or not np.isfinite(v) else f"{100 * v:.{digits}f}%"


def pp(v: float) -> str:
    return f"{100 * v:+.1f} pp"


def ci_text(lo: float, hi: float, fmt: Callable[[float], str] = pct) -> str:
    return f"95% CI {fmt(lo)} to {fmt(hi)}"


def _share_ci(share: float, n: int) -> tuple[float, float]:
    lo, hi = wilson(share * n, n)
    return float(lo), float(hi)


# ---- a run -------------------------------------------------------------------------------------

def seat_imbalance(summary: dict, th: dict, dig_in: str | None = "#win-rates") -> list[Finding]:
    """The best and the worst seat over decided games, when they differ by at least
    ``seat_gap_min`` and the chi-square test of equal seats says so (p below ``alpha``)."""
    seats = summary["seats"]
    test = summary["equal_seats_chi_square"]
    if len(seats) < 2 or summary.get("balance") is None or test.get("p_value") is None:
        return []
    rates = np.array([s["win_rate_decided"] for s in seats], dtype=float)
    decided = int(seats[0]["decided_games"])
    hi, lo = int(np.argmax(rates)), int(np.argmin(rates))
    gap = float(rates[hi] - rates[lo])
    if gap < th["seat_gap_min"] or test["p_value"] >= th["alpha"]:
        return []
    fair = 1.0 / len(seats)
    hi_ci, lo_ci = _share_ci(rates[hi], decided), _share_ci(rates[lo], decided)
    if one_in(rates[hi]) != one_in(rates[lo]):
        text = (f"{player(hi).capitalize()} wins {one_in(rates[hi])} ({pct(rates[hi])}, {ci_text(*hi_ci)}), "
                f"{player(lo)} {one_in(rates[lo]).replace('1 game in', 'one in')} ({pct(rates[lo])}, "
                f"{ci_text(*lo_ci)}); fair: {one_in(fair)} ({pct(fair)}). Over the {decided:,} games with a winner.")
    else:  # too close for '1 in k' words to tell apart
        text = (f"{player(hi).capitalize()} wins {pct(rates[hi])} of games ({ci_text(*hi_ci)}), {player(lo)} "
                f"{pct(rates[lo])} ({ci_text(*lo_ci)}); fair: {pct(fair)}. Over the {decided:,} games with a winner.")
    ratio = rates[hi] / rates[lo] if rates[lo] > 0 else np.inf
    severity = HIGH if gap >= 2 * th["seat_gap_min"] or ratio >= 1.5 else MEDIUM
    # The gap's CI: the two rates' Wilson half-widths combined (a conservative, independent reading).
    half = math.hypot((hi_ci[1] - hi_ci[0]) / 2, (lo_ci[1] - lo_ci[0]) / 2)
    return [Finding("seat_imbalance", severity, text, gap, (gap - half, gap + half), dig_in)]


def median_ci(hist: pd.DataFrame | None) -> tuple[float, float] | None:
    """The 95% CI of the median length from the length histogram (columns ``length``, ``games``):
    the order statistics n/2 -+ 1.96 sqrt(n)/2 (distribution-free)."""
    if hist is None or not len(hist):
        return None
    games = hist["games"].to_numpy(dtype=float)
    n = games.sum()
    if n < 1:
        return None
    cum = np.cumsum(games)
    lengths = hist["length"].to_numpy(dtype=float)
    half = 1.959963984540054 * math.sqrt(n) / 2
    lo_rank, hi_rank = max(1.0, n / 2 - half), min(n, n / 2 + half)
    return (float(lengths[np.searchsorted(cum, lo_rank)]), float(lengths[np.searchsorted(cum, hi_rank)]))


def degenerate_length(summary: dict, th: dict, targets: dict | None = None, hist: pd.DataFrame | None = None,
                      dig_in: str | None = "#length") -> list[Finding]:
    """Games over almost at once (median at or below ``length_median_min``), or far longer than the
    rules intend (median above ``length_over_target`` times the top of ``targets.length_median``)."""
    length = summary["length"]
    unit = length.get("unit", "turns")
    median = length["p50"]
    ci = median_ci(hist)
    ci_words = f", 95% CI {ci[0]:g} to {ci[1]:g}" if ci else ""
    out = []
    if median <= th["length_median_min"]:
        out.append(Finding(
            "short_games", HIGH,
            f"Half the games are over within {amount(median, unit)} (median {median:g}{ci_words}; 95% end by "
            f"{length['p95']:g}): players hardly play. Someone can end the game at once, or a strategy does.",
            median, ci, dig_in))
    band = (targets or {}).get("length_median")
    if band is not None and band[1] > 0 and median > th["length_over_target"] * band[1]:
        out.append(Finding(
            "long_games", MEDIUM,
            f"Games last far longer than intended: median {amount(median, unit)}{ci_words}, against a target of "
            f"{band[0]:g} to {band[1]:g}.", median, ci, dig_in))
    return out


def no_end(summary: dict, th: dict, dig_in: dict[str, str] | None = None) -> list[Finding]:
    """Runaway games: timeouts (the cap reached) or stalemates at or above their threshold, with the
    loop diagnosis when the summary has one (``loop_findings``)."""
    n = int(summary["n_games"])
    outcomes = summary["outcomes"]
    cap = summary["length"].get("max")
    unit = summary["length"].get("unit", "turns")
    dig_in = dig_in or {}
    out = []
    for kind, key, words in (
            ("timeouts", "timeouts_max",
             f"never end: they hit the cap ({cap:,.0f} {unit}) and count as nobody's win" if cap else
             "never end: they hit the cap and count as nobody's win"),
            ("stalemates", "stalemates_max", "end in a stalemate: nobody can move on, nobody wins")):
        share = float(outcomes.get(kind) or 0.0)
        if share <= 0 or share < th[key]:
            continue
        ci = _share_ci(share, n)
        severity = HIGH if share >= 10 * th[key] or share >= 0.1 else MEDIUM
        out.append(Finding(kind, severity, f"{pct(share, 2 if share < 0.1 else 1)} of games {words} "
                           f"({ci_text(*ci, fmt=lambda v: pct(v, 2))}).", share, ci, dig_in.get(kind)))
    return out + loop_findings(summary, th)


def ties(summary: dict, th: dict, dig_in: str | None = None) -> list[Finding]:
    share = float(summary["outcomes"].get("ties") or 0.0)
    if share <= 0 or share < th["ties_max"]:
        return []
    ci = _share_ci(share, int(summary["n_games"]))
    severity = MEDIUM if share >= 2 * th["ties_max"] else LOW
    return [Finding("ties", severity, f"{pct(share)} of games are ties, {one_in(share)} "
                    f"({ci_text(*ci)}): tied players share the win.", share, ci, dig_in)]


def cards(summary: dict, th: dict, dig_in: str | None = "#cards") -> list[Finding]:
    """Cards (not groups) that swing the holder's win rate (CI clear of 0, at least ``card_effect_min``
    either way), and cards that never matter (never held, or the whole CI within ``card_null_max``)."""
    rows = [c for c in summary.get("cards") or [] if c.get("level") == "card"]
    out = []
    strong = [c for c in rows if c["difference"] is not None and np.isfinite(c["difference"])
              and abs(c["difference"]) >= th["card_effect_min"] and (c["ci_low"] > 0 or c["ci_high"] < 0)]
    for sign, words in ((1, "helps"), (-1, "hurts")):
        side = sorted((c for c in strong if np.sign(c["difference"]) == sign),
                      key=lambda c: -abs(c["difference"]))
        if side:
            top = side[0]
            more = f"; {len(side) - 1} more card{'s' if len(side) > 2 else ''} too" if len(side) > 1 else ""
            out.append(Finding(
                f"card_{words}", MEDIUM,
                f"{_card(top)} {words} its holder most: win rate {pct(top['win_rate_with'])} with it, "
                f"{pct(top['win_rate_without'])} without ({pp(top['difference'])}, "
                f"{ci_text(top['ci_low'], top['ci_high'], pp)}; {top['kind']}){more}.",
                top["difference"], (top["ci_low"], top["ci_high"]), dig_in))
    never = [c for c in rows if c["seat_games_with"] == 0]
    null = [c for c in rows if c["seat_games_with"] > 0 and c["ci_low"] is not None
            and np.isfinite(c["ci_low"]) and -th["card_null_max"] <= c["ci_low"] and c["ci_high"] <= th["card_null_max"]]
    if never:
        out.append(Finding("card_never_held", LOW, f"{_list(_card(c) for c in never)} never reached a hand "
                           f"({never[0]['kind']}): as the game is played, {'it does' if len(never) == 1 else 'they do'}"
                           " nothing.", 0.0, None, dig_in))
    if null:
        widest = max(null, key=lambda c: c["ci_high"] - c["ci_low"])
        out.append(Finding(
            "card_never_matters", LOW,
            f"{_list(_card(c) for c in null)} never matter{'s' if len(null) == 1 else ''}: having "
            f"{'it' if len(null) == 1 else 'one'} changes the win rate by less than "
            f"{100 * th['card_null_max']:.1f} points (widest {ci_text(widest['ci_low'], widest['ci_high'], pp)}).",
            widest["difference"], (widest["ci_low"], widest["ci_high"]), dig_in))
    return out


def _card(row: dict) -> str:
    copies = int(row.get("copies") or 1)
    return f"{row['subject']} (x{copies})" if copies > 1 else str(row["subject"])


def _list(names: Iterable[str], most: int = 4) -> str:
    names = list(names)
    if len(names) > most:
        return ", ".join(names[:most]) + f" and {len(names) - most} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def strategies(summary: dict, th: dict, players: int, dig_in: str | None = "#win-rates") -> list[Finding]:
    """In a run of several strategies: one whose per-seat win rate over decided games is above every
    other's (CIs apart) and above the fair share by at least ``dominance_margin``, CI included."""
    rows = summary.get("strategies") or []
    if len(rows) < 2:
        return []
    fair = 1.0 / players
    best = max(rows, key=lambda r: r["win_rate_decided"])
    others = [r for r in rows if r is not best]
    if best["decided_ci_low"] - fair >= th["dominance_margin"] and all(
            best["decided_ci_low"] > r["decided_ci_high"] for r in others):
        return [Finding(
            "dominant_strategy", HIGH,
            f"{best['strategy']} wins more than every other strategy: {pct(best['win_rate_decided'])} of its seats "
            f"win ({ci_text(best['decided_ci_low'], best['decided_ci_high'])}), where {pct(fair)} is fair; next "
            f"best {max(others, key=lambda r: r['win_rate_decided'])['strategy']}.", best["win_rate_decided"],
            (best["decided_ci_low"], best["decided_ci_high"]), dig_in)]
    return []


def run_findings(summary: dict, th: dict, players: int, *, targets: dict | None = None,
                 hist: pd.DataFrame | None = None, examples: dict[str, str] | None = None) -> list[Finding]:
    """Every finding of one run, high first. ``examples`` maps a kind (``timeouts``, ``stalemates``,
    ``ties``, ``short_games``) to the command that shows one such game (``simbalance replay ...``)."""
    examples = examples or {}
    return ordered([
        *seat_imbalance(summary, th),
        *degenerate_length(summary, th, targets, hist, examples.get("short_games", "#length")),
        *no_end(summary, th, examples),
        *ties(summary, th, examples.get("ties")),
        *strategies(summary, th, players),
        *cards(summary, th),
        *whole_game_findings(summary, th),
    ])


# ---- loops and the whole game (the summary's "stalemates" and "lead": docs/metrics.md) -----------

def loop_findings(summary: dict, th: dict) -> list[Finding]:
    """The loop diagnosis behind stalemates: the most frequent reasons a game did not end
    (``summary["stalemates"]``: the engine's reason codes, counted; docs/metrics.md)."""
    reasons = [r for r in summary.get("stalemates") or [] if r.get("games")]
    if not reasons:
        return []
    n = int(summary["n_games"])
    reasons = sorted(reasons, key=lambda r: -float(r.get("share") or 0.0))

    def words(r: dict) -> str:
        what = r.get("description") or ""
        return f"{r['reason']}{f' ({what})' if what else ''}: {pct(float(r.get('share') or 0.0), 2)} of games"

    top = reasons[0]
    share = float(top.get("share") or 0.0)
    ci = _share_ci(share, n) if n else None
    severity = HIGH if share >= th["stalemates_max"] else LOW
    dig = (f"simbalance replay ... --game {int(top['example_game'])}" if top.get("example_game") is not None
           else "#outcomes")
    return [Finding("loop", severity, "Why games do not end: " + "; ".join(words(r) for r in reasons[:3]) + ".",
                    share, ci, dig)]


def whole_game_findings(summary: dict, th: dict) -> list[Finding]:
    """From the whole-game metrics (``summary["lead"]``, docs/metrics.md), when the engine tracks
    its progress: a game decided early (the sole leader after some round k goes on to win at least
    ``leader_wins_max`` of the games, CI included), and no comebacks (fewer than ``comeback_min`` of
    the games with one winner are won by a player who was last at some point of the game)."""
    lead = summary.get("lead") or {}
    out = []
    for row in sorted(lead.get("rounds") or [], key=lambda r: r["round"]):
        rate, lo, hi = row.get("leader_wins"), row.get("ci_low"), row.get("ci_high")
        if rate is None or lo is None or not row.get("decided_with_sole_leader"):
            continue
        if lo >= th["leader_wins_max"]:
            out.append(Finding(
                "decided_early", HIGH if row["round"] <= 2 else MEDIUM,
                f"The game is decided early: the leader after round {row['round']} goes on to win "
                f"{pct(rate)} of games ({ci_text(lo, hi)}; fair: {pct(row.get('fair_share') or 0.0)}).",
                rate, (lo, hi), "#whole-game"))
            break
    comebacks, games = lead.get("comeback_wins"), int(lead.get("single_winner_games") or 0)
    if comebacks is not None and games:
        lo, hi = (float(v) for v in wilson(comebacks * games, games))
        if hi < th["comeback_min"]:
            out.append(Finding(
                "no_comebacks", MEDIUM,
                f"Almost no comebacks: only {pct(comebacks)} of games are won by a player who was last at "
                f"some point of the game ({ci_text(lo, hi)}).", comebacks, (lo, hi), "#whole-game"))
    return out


# ---- compare -----------------------------------------------------------------------------------

def identical_arm(name: str, changes: str, games: int, same_plan: bool, strategies: str) -> Finding:
    """A variant that changed no game: the why, as far as it can be known."""
    if same_plan:
        why = (f"with these settings the engine plays exactly the baseline's game: {changes} is a setting "
               "this player count never reads, or one equal to the baseline's")
    else:
        why = (f"it changes {changes}, but no game went differently: with these players ({strategies}) the "
               "situation the rule covers never arises, or they never use it")
    return Finding("variant_changes_nothing", HIGH,
                   f"Variant {name} changed nothing: all {games:,} games were identical to the baseline's "
                   f"(every metric 0.00 pp); {why}.", 0.0, (0.0, 0.0), "#arms")


def compare_findings(table: pd.DataFrame, th: dict, *, identical: dict[str, bool], same_plan: dict[str, bool],
                     changes: dict[str, str], games: int, strategies: str,
                     baseline: list[Finding] | None = None, arms: dict[str, list[Finding]] | None = None,
                     label: Callable[[str], str] = str) -> list[Finding]:
    """A comparison: arms that change no game (and why), each arm's largest significant change, the
    run findings an arm raises that the baseline does not, and the baseline's own high findings, which
    the designer came to fix (``baseline``, ``arms``: run findings)."""
    out = []
    base_kinds = {f.kind for f in baseline or []}
    base_out = []  # after the arms' own findings of the same severity: the page is about the arms
    for f in baseline or []:
        if f.severity == HIGH:
            every = bool(arms) and all(f.kind in {g.kind for g in found} for found in arms.values())
            where = "In the baseline and every arm" if every else "In the baseline"
            base_out.append(elsewhere(Finding(f.kind, f.severity, f"{where}: {f.text}", f.number, f.ci, f.dig_in)))
    for name, part in table.groupby("variant", sort=False):
        if identical.get(name):
            out.append(identical_arm(name, changes.get(name, "its keys"), games, same_plan.get(name, False),
                                     strategies))
            continue
        sig = part[part["p_holm"] < th["alpha"]]
        if len(sig):
            scaled = sig.assign(size=[abs(d) * (100 if k == "share" else 1) for d, k in zip(sig["diff"], sig["kind"],
                                                                                             strict=True)])
            top = scaled.sort_values("size", ascending=False).iloc[0]
            fmt = pp if top["kind"] == "share" else (lambda v, k=top["kind"]: f"{v:+,.3g} {k}")
            more = f" and {len(sig) - 1} more metric{'s' if len(sig) > 2 else ''}" if len(sig) > 1 else ""
            out.append(Finding(
                "variant_effect", MEDIUM if top["metric"] == "balance" or top["kind"] != "share" else LOW,
                f"Variant {name} changes {label(top['metric'])} by {fmt(top['diff'])} "
                f"({ci_text(top['ci_low'], top['ci_high'], fmt)}){more}.",
                float(top["diff"]), (float(top["ci_low"]), float(top["ci_high"])), "#every-metric"))
        for f in (arms or {}).get(name, []):
            if f.kind not in base_kinds and f.severity != LOW:
                out.append(elsewhere(Finding(f.kind, f.severity, f"With variant {name}: {f.text}", f.number, f.ci,
                                             f.dig_in)))
    return ordered(out + base_out)


# ---- sweep -------------------------------------------------------------------------------------

def sweep_findings(table: pd.DataFrame, keys: list[str], values: dict[str, list], th: dict, targets: dict,
                   describe_targets: Callable[[dict], str], game: str | None = None) -> list[Finding]:
    """The best point at the grid's edge (the best may lie beyond: the command sweeps on past it), and
    no point meeting the targets."""
    if not len(table):
        return []
    out = []
    if "timeouts" in table:
        runaway = table[table["timeouts"] >= max(th["timeouts_max"], 1e-12)]
        if len(runaway):
            worst = runaway.sort_values("timeouts", ascending=False).iloc[0]
            where = _list((_setting(table, i, keys) for i in runaway.index), most=3)
            out.append(Finding(
                "timeouts", HIGH if worst["timeouts"] >= 0.1 else MEDIUM,
                f"Games never end at {len(runaway)} of {len(table)} points ({where}): up to {pct(worst['timeouts'])} "
                "of games hit the cap.", float(worst["timeouts"]), None, "#every-point"))
    table = table.assign(shortfall=table["shortfall"].fillna(np.inf))  # no decided game: no balance to meet
    if not np.isfinite(table["shortfall"]).any():
        out.append(Finding("no_point_on_target", HIGH, "No point of the grid has a game with a winner: the "
                           "targets cannot be judged.", None, None, "#every-point"))
        return ordered(out)
    best_index = table.sort_values(["shortfall", "balance"], ascending=[True, False]).index[0]
    best = table.loc[best_index]
    setting = _setting(table, best_index, keys)
    if float(best["shortfall"]) > 0:
        out.append(Finding(
            "no_point_on_target", HIGH,
            f"No point of the grid meets the targets ({describe_targets(targets)}). The closest, {setting}, "
            f"has balance {pct(best['balance'])} and median length {best['length_median']:g} (shortfall "
            f"{best['shortfall']:.3f}). Widen the grid or sweep another key.",
            float(best["shortfall"]), None, "#every-point"))
    for k in keys:
        vals = list(values[k])
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals)
        if len(vals) < 3 or not numeric:
            continue
        lo, hi = min(vals), max(vals)
        here = table.at[best_index, k]
        if here in (lo, hi):
            side = "top" if here == hi else "bottom"
            step = sorted(vals)[1] - sorted(vals)[0]
            beyond = (f"{hi}:{hi + 4 * step:g}:{step:g}" if side == "top" else f"{max(lo - 4 * step, 0):g}:{lo}:{step:g}")
            others = "".join(f" --param {o}={','.join(str(v) for v in values[o])}" for o in keys if o != k)
            out.append(Finding(
                "best_at_edge", MEDIUM,
                f"The best point, {setting}, is at the {side} edge of the grid for {k} ({lo} to {hi}): the best "
                "setting may lie beyond it.", float(here), None,
                f"simbalance sweep {game or 'GAME'} --param {k}={beyond}{others}"))
    return ordered(out)


def _setting(table: pd.DataFrame, index, keys: list[str]) -> str:
    """``key = value`` of one grid point, each value as its column holds it (an int stays an int)."""
    return ", ".join(f"{k} = {table.at[index, k]}" for k in keys)


# ---- tournament, skill, tune -------------------------------------------------------------------

def tournament_findings(matchups: pd.DataFrame, names: list[str], th: dict, command: str | None = None) -> list[Finding]:
    """A strategy whose head-to-head share's CI is above an even 50% against every other strategy."""
    out = []
    for name in names:
        rows = matchups[matchups["strategy"] == name]
        others = [o for o in names if o != name]
        if len(others) == 0 or len(rows) < len(others):
            continue
        if (rows["h2h_ci_low"] > 0.5).all():
            worst = rows.sort_values("h2h_share").iloc[0]
            margin = float(worst["h2h_ci_low"]) - 0.5 >= th["dominance_margin"]
            out.append(Finding(
                "dominant_strategy", HIGH if margin else MEDIUM,
                f"{name} beats every other strategy head to head: its share of the wins is above an even 50% "
                f"against each, the lowest {pct(worst['h2h_share'])} against {worst['opponent']} "
                f"({ci_text(worst['h2h_ci_low'], worst['h2h_ci_high'])}).",
                float(worst["h2h_share"]), (float(worst["h2h_ci_low"]), float(worst["h2h_ci_high"])),
                "#matchups"))
    return out


def skill_findings(agency: pd.DataFrame, restricted: pd.DataFrame, players: int, th: dict,
                   has_decisions: bool = True) -> list[Finding]:
    """A restricted strategy that beats the full one ('not playing events wins more'), and decisions
    that do not matter (no heuristic beats random players)."""
    fair = 1.0 / players
    out = []
    for _, r in restricted.iterrows():
        if r["ci_low"] > fair:
            out.append(Finding(
                "restricted_wins", HIGH,
                f"{r['strategy']} ({r['against']} with one ability taken away) beats the full {r['against']}: "
                f"{pct(r['win_rate'])} of its seats win ({ci_text(r['ci_low'], r['ci_high'])}), where {pct(fair)} "
                f"is fair. Not using that ability wins more.", float(r["win_rate"]),
                (float(r["ci_low"]), float(r["ci_high"])), "#restricted"))
    if has_decisions and len(agency) and (agency["ci_low"] <= fair).all():
        best = agency.sort_values("win_rate", ascending=False).iloc[0]
        out.append(Finding(
            "decisions_do_not_matter", HIGH,
            f"No strategy beats random players: the best, {best['strategy']}, wins {pct(best['win_rate'])} "
            f"({ci_text(best['ci_low'], best['ci_high'])}) where {pct(fair)} is fair. Decisions do not matter.",
            float(best["win_rate"]), (float(best["ci_low"]), float(best["ci_high"])), "#agency"))
    strong = agency[agency["ci_low"] - fair >= th["dominance_margin"]] if len(agency) else agency
    if len(strong) and not out:
        best = strong.sort_values("win_rate", ascending=False).iloc[0]
        out.append(Finding(
            "skill_matters", LOW,
            f"Skill matters: {best['strategy']} wins {pct(best['win_rate'])} against random players "
            f"({ci_text(best['ci_low'], best['ci_high'])}) where {pct(fair)} is fair.",
            float(best["win_rate"]), (float(best["ci_low"]), float(best["ci_high"])), "#agency"))
    return ordered(out)


def tune_findings(strategy: str, dominance: pd.DataFrame, players: int, margin: dict, th: dict,
                  dominance_margin: float) -> list[Finding]:
    """The tuned strategy dominating every strategy tested (a dominant strategy players will find), and
    a tuning that finds nothing better than the defaults."""
    fair = 1.0 / players
    out = []
    if len(dominance) and bool(dominance["dominates"].all()):
        worst = dominance.sort_values("edge").iloc[0]
        out.append(Finding(
            "dominant_strategy", HIGH,
            f"The tuned {strategy} dominates every strategy tested: alone against each it wins at least "
            f"{pct(worst['win_rate'])} of its seats (against {worst['against']}, "
            f"{ci_text(worst['ci_low'], worst['ci_high'])}) where {pct(fair)} is fair. Players will find it.",
            float(worst["win_rate"]), (float(worst["ci_low"]), float(worst["ci_high"])), "#dominance"))
    if margin["ci_low"] > 0:
        out.append(Finding(
            "tuned_better", MEDIUM if margin["diff"] >= dominance_margin else LOW,
            f"The tuned parameters beat {strategy}'s defaults by {pp(margin['diff'])} "
            f"({ci_text(margin['ci_low'], margin['ci_high'], pp)}).", float(margin["diff"]),
            (float(margin["ci_low"]), float(margin["ci_high"])), "#parameters"))
    return ordered(out)


def _budget(value, param: str) -> str:
    """``8 iterations``, ``1 iteration``."""
    return f"{int(value):,} {param if int(value) != 1 else param.removesuffix('s')}"


def ladder_findings(table: pd.DataFrame, search: str, budget_param: str, against: str, players: int,
                    th: dict, yardstick: str | None = None) -> list[Finding]:
    """The skill ladder (analysis/ladder.py): a curve that does not rise (a search that ignores its
    budget is a bug), single steps that buy nothing, the first budget that beats the heuristic, or
    none; with a yardstick, the budgets at which the tree search beats one-step lookahead at the
    same budget, or loses to it."""
    fair = 1.0 / players
    out = []
    steps = table.iloc[1:]
    steps = steps[steps["h2h_games"] > 0]
    rising = steps["h2h_ci_low"] > 0.5
    # a step "shows no gain" when even the top of its CI is below an even share plus the smallest
    # gain worth a budget step; otherwise the games were too few to tell
    flat = steps["h2h_ci_high"] < 0.5 + th["ladder_gain_min"]
    shares = ", ".join(pct(v) for v in steps["h2h_share"])
    last = steps.iloc[-1] if len(steps) else None
    if len(steps) and not rising.any() and flat.all():
        out.append(Finding(
            "ladder_flat", HIGH,
            f"{search} does not get stronger with its budget: no budget beats the one before it head to head "
            f"(shares {shares}, where 50% is even; none gains {pct(th['ladder_gain_min'], 0)}). A search player that "
            f"does not improve with more {budget_param} is a bug, or the game leaves it little to decide against "
            f"{against}.", float(last["h2h_share"]), (float(last["h2h_ci_low"]), float(last["h2h_ci_high"])),
            "#ladder"))
    elif len(steps) and not rising.any():
        out.append(Finding(
            "ladder_unclear", MEDIUM,
            f"Too few games to tell whether {search} gets stronger with its budget: no budget beats the one before "
            f"it head to head (shares {shares}, where 50% is even), but the 95% CIs are too wide to rule out a gain. "
            "Play more games (--n-pairs).", float(last["h2h_share"]),
            (float(last["h2h_ci_low"]), float(last["h2h_ci_high"])), "#ladder"))
    else:
        for (_, r), prev in zip(steps[~rising].iterrows(), table["budget"].shift(1)[steps[~rising].index], strict=True):
            out.append(Finding(
                "ladder_step_no_gain", LOW,
                f"{_budget(r['budget'], budget_param)} do not beat {int(prev):,}: a head-to-head share of "
                f"{pct(r['h2h_share'])} ({ci_text(r['h2h_ci_low'], r['h2h_ci_high'])}), where 50% is even. "
                "More budget buys little here (or the games were too few to tell).",
                float(r["h2h_share"]), (float(r["h2h_ci_low"]), float(r["h2h_ci_high"])), "#ladder"))
    beats = table[table["ci_low"] > fair]
    if len(beats):
        r = beats.iloc[0]
        out.append(Finding(
            "search_beats_heuristic", LOW,
            f"{search} with {_budget(r['budget'], budget_param)} beats {against}: {pct(r['win_rate'])} of its seats "
            f"win ({ci_text(r['ci_low'], r['ci_high'])}) where {pct(fair)} is fair. Balance measured with {against} "
            "players may change under stronger play (simbalance robustness).", float(r["win_rate"]), (float(r["ci_low"]), float(r["ci_high"])), "#ladder"))
    elif len(table):
        r = table.sort_values("win_rate").iloc[-1]
        out.append(Finding(
            "heuristic_unbeaten", MEDIUM,
            f"No budget of {search} beats {against}: the best, {_budget(r['budget'], budget_param)}, wins "
            f"{pct(r['win_rate'])} of its seats ({ci_text(r['ci_low'], r['ci_high'])}) where {pct(fair)} is fair. "
            "Either the heuristic plays this game well, or the search needs more budget or a better rollout.",
            float(r["win_rate"]), (float(r["ci_low"]), float(r["ci_high"])), "#ladder"))
    if yardstick is not None and "yard_games" in table:
        out.extend(_yardstick_findings(table[table["yard_games"] > 0], search, budget_param, yardstick))
    return ordered(out)


def _yardstick_findings(yard: pd.DataFrame, search: str, budget_param: str, yardstick: str) -> list[Finding]:
    """The tree search against one-step lookahead at the same budget (both as many play-outs per
    decision): a budget at which the lookahead wins is a high finding (the tree adds nothing or
    harms: a bug, or a game whose decisions the first step settles); the budgets where the tree
    wins, one low finding; neither shown, one low finding that the games were too few."""
    if not len(yard):
        return []
    shares = ", ".join(f"{pct(r['yard_share'])} at {int(r['budget']):,}" for _, r in yard.iterrows())
    loses = yard[yard["yard_ci_high"] < 0.5]
    wins = yard[yard["yard_ci_low"] > 0.5]
    out = []
    for _, r in loses.iterrows():
        out.append(Finding(
            "yardstick_beats_search", HIGH,
            f"{yardstick} beats {search} at {_budget(r['budget'], budget_param)}: {search} takes only "
            f"{pct(r['yard_share'])} of the wins between them ({ci_text(r['yard_ci_low'], r['yard_ci_high'])}), "
            f"where 50% is even, at the same budget per decision (flat's split evenly among the options, at least one "
            "play-out each: more than the budget where a decision has more options). The tree search is weaker than "
            "one-step lookahead here: a bug, or a game whose decisions the first step settles.",
            float(r["yard_share"]), (float(r["yard_ci_low"]), float(r["yard_ci_high"])), "#ladder"))
    if len(wins):
        r = wins.iloc[-1]
        out.append(Finding(
            "search_beats_yardstick", LOW,
            f"{search} beats {yardstick} at the same budget at {', '.join(f'{int(b):,}' for b in wins['budget'])} "
            f"{budget_param} (head-to-head shares: {shares}; 50% is even): the tree search earns its cost.",
            float(r["yard_share"]), (float(r["yard_ci_low"]), float(r["yard_ci_high"])), "#ladder"))
    elif not len(loses):
        r = yard.iloc[-1]
        out.append(Finding(
            "yardstick_unclear", LOW,
            f"{search} is not shown to beat {yardstick} at the same budget (head-to-head shares: {shares}; 50% is "
            "even): the 95% CIs take in an even share. Play more games (--n-pairs) to tell.",
            float(r["yard_share"]), (float(r["yard_ci_low"]), float(r["yard_ci_high"])), "#ladder"))
    return out


def robustness_findings(conclusions: list[dict], models: pd.DataFrame, th: dict) -> list[Finding]:
    """Robustness (analysis/robustness.py): a seat conclusion that flips with the players (high),
    one that shows only under some of them or a first-player size that differs (medium); when every
    one holds, one finding says so (low)."""
    out = []
    for c in conclusions:
        if c["verdict"] == "holds":
            continue
        severity = HIGH if c["verdict"] == "flips" else MEDIUM
        kind = "players_flip_" if c["verdict"] == "flips" else "depends_on_players_"
        out.append(Finding(kind + c["topic"].replace(" ", "_").replace("-", "_"), severity,
                           c["text"] + " A balance verdict on this holds only for the players it was measured with.",
                           dig_in="#models"))
    if conclusions and not out:
        out.append(Finding("robust_to_players", LOW,
                           f"The seat conclusions hold under all {len(models)} player models. "
                           + " ".join(c["text"] for c in conclusions if c["topic"] in ("first player", "seats")),
                           dig_in="#models"))
    return ordered(out)
