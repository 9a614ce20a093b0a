"""Findings: what a designer most needs to hear, in plain words, at the top of every page.

Each finding is a pure function of a study's tables (a run's summary dict, a comparison's table,
a sweep's grid, a tournament's matchups, skill's and tune's tables): it says what it saw, with its
number and 95% CI, how serious it is, and where to dig in (an anchor of the page, ``#...``, or a
command). When a finding speaks up is set by thresholds in one table, ``FINDINGS_DEFAULTS`` in
``simbalance/core/config.py``; a game's config may change them in a ``[findings]`` table and any
command with ``--set findings.KEY=VALUE`` (docs/findings.md).

Players are numbered from 1 in every sentence ("player 1" is seat 0 of the tables).

This module holds what every study's findings share (``Finding``, the thresholds, the number
formats) and the run's own findings, which compare and tournament repeat per arm; each other
study's findings live in its analysis module (``analysis/compare.compare_findings``,
``analysis/sweep.sweep_findings``, ``analysis/tournament``, ``skill``, ``tune``, ``ladder``,
``robustness``), beside the statistics they speak of.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, replace

import numpy as np
import pandas as pd

from simbalance.analysis.labels import player
from simbalance.analysis.stats import (
    ABOVE_EVERY,
    APART,
    Comparison,
    compared,
    median_ranks,
    ranked,
    seat_gap,
    seats_apart,
    standard_error,
    words,
)
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
    # What the sentence asserts without its numbers ("player 2 wins the most and player 1 the least")
    # and its number in a few words ("59.9% and 40.1%"): a page that sums up several arms says a
    # finding holds "in every arm" only when every arm's own finding makes the same claim, and then
    # quotes each arm's own figure (analysis/compare.py). None: the finding is never summed up so.
    claim: str | None = None
    figure: str | None = None
    # Whether the finding holds under strong play (`simbalance run GAME --robust`): ``{model, games,
    # holds, figure, ci, precision, reached}`` (analysis/robustness.strong_play_check); None: not checked.
    robustness: dict | None = None
    # The comparisons that decide the sentence's comparative words (analysis/stats.Comparison: the
    # core's rule, its verdict, the intervals it was read from): "the most", "the strongest",
    # "overstates", "holds under strong play" each come from one, and tests read every verdict again
    # from its inputs and find its words (stats.words) in the sentence. Empty: the sentence compares
    # nothing, or only a figure with a threshold.
    decided_by: tuple[Comparison, ...] = ()

    def to_dict(self) -> dict:
        out = asdict(self)
        out["ci"] = list(self.ci) if self.ci is not None else None
        del out["claim"], out["figure"]  # the sentence says them; findings.json keeps its fields
        if self.robustness is None:
            del out["robustness"]  # only a finding checked under strong play has one
        if self.decided_by:
            out["decided_by"] = [c.to_dict() for c in self.decided_by]
        else:
            del out["decided_by"]  # only a comparative sentence has one
        return out


def severity(effect: float, ci: tuple[float, float] | None, size: float) -> str:
    """The one severity rule of every finding that measures an effect (docs/findings.md, "Severity").

    The effect counts as large as the end of its 95% CI nearest to no effect (0), its value when it
    has no CI: a large estimate from few games is not yet a large effect. That is held against the
    size at which the finding speaks up (its threshold, in the same unit): **high** from twice that
    size, **medium** from the size, **low** below it (the estimate is past the size, its CI is not).
    So a seat swing of 20 points is high whatever the finding that reports it."""
    if ci is None:
        sure = abs(effect)
    else:
        lo, hi = min(ci), max(ci)
        sure = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
    if sure >= 2 * size:
        return HIGH
    return MEDIUM if sure >= size else LOW


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
        return replace(f, dig_in=None)
    return f


def same_claim(a: Finding, b: Finding) -> bool:
    """Whether two findings assert the same thing, their numbers aside: the same kind and the same
    claim. A finding without a claim agrees with none: each part says it in its own words."""
    return a.kind == b.kind and a.claim is not None and a.claim == b.claim


def across(f: Finding, parts: dict[str, list[Finding]], whole: str, every: str,
           name_others: bool = False) -> Finding:
    """The finding ``f`` of a whole (``whole``: "the baseline", "all lineups together") on a page
    that has parts (``parts``: each part's own findings, keyed by how a sentence names it: "with
    big-hand", "in lineup builder, random"), said only as far as it is true of each part: "and
    ``every``" only when every part's own finding makes the same claim, with each one's own figure;
    otherwise ``f``'s sentence, the parts that agree with their figures, and the parts that do not
    (``name_others``: with what they show instead; else the caller gives them their own sentence)."""
    agree = {name: g for name, found in parts.items() for g in found if same_claim(g, f)}
    # the sentence repeats the parts' claims: it keeps the comparisons that decide them beside its own
    quoted = [*agree.values()]
    if parts and len(agree) == len(parts):
        figures = _some([f"{f.figure} {whole}"] + [f"{g.figure} {name}" for name, g in agree.items()], most=5)
        return elsewhere(replace(f, text=f"{whole[0].upper()}{whole[1:]} and {every}, {f.claim}: {figures}.",
                                 decided_by=_decided_by(f, quoted)))
    text = f"{whole[0].upper()}{whole[1:]}: {f.text}"
    if agree:  # (a tournament has dozens of lineups: a few are named, the rest counted)
        text += " The same " + _some([f"{name} ({g.figure})" for name, g in agree.items()]) + "."
    others = [name for name in parts if name not in agree]
    own = {name: next((g for g in parts[name] if g.kind == f.kind and g.claim), None) for name in others}
    if name_others and any(own.values()):
        text += " Not " + _some([f"{name}, where {g.claim} ({g.figure})" for name, g in own.items() if g]) + "."
        quoted += [g for g in own.values() if g]
    lacking = [name for name in others if not any(g.kind == f.kind for g in parts[name])]
    if lacking:
        text += f" Not {_list(lacking)}."
    return elsewhere(replace(f, text=text, decided_by=_decided_by(f, quoted)))


def _decided_by(f: Finding, quoted: list[Finding]) -> tuple[Comparison, ...]:
    """``f``'s comparisons, then those of the parts' findings its sentence quotes, each once."""
    out = list(f.decided_by)
    for g in quoted:
        out += [c for c in g.decided_by if c not in out]
    return tuple(out)


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
    """A share in percent; a value that rounds to zero has no sign ("0.0%", never "-0.0%": an
    interval's end at -1e-19 is rounding)."""
    if v is None or not np.isfinite(v):
        return "n/a"
    text = f"{100 * v:.{digits}f}"
    return (text[1:] if text.startswith("-") and float(text) == 0 else text) + "%"


def pp(v: float) -> str:
    return f"{100 * v:+.1f} pp"


P_FLOOR = 1e-16  # below this a double's p-value is rounding, not a number: said as "p < 1e-16"


def p_value(p: float | None, cell: bool = False) -> str:
    """A p-value the same way on every page and in the terminal: ``p = 0.012``, ``p < 1e-16`` (never
    a bare 0), ``p n/a`` when there is none; ``cell``: without the ``p`` (``0.012``, ``< 1e-16``),
    for a table's p column."""
    if p is None or not np.isfinite(p):
        text = "n/a"
    else:
        text = f"< {P_FLOOR:.0e}" if p < P_FLOOR else f"{'' if cell else '= '}{p:.2g}"
    return text if cell else f"p {text}"


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
    # The gap's CI: the two shares of the same decided games, their negative covariance included
    # (analysis/stats.seat_gap).
    interval = seat_gap(rates[hi] * decided, rates[lo] * decided, decided)
    ci = (interval.low, interval.high)
    # What it asserts: "the most" and "the least" only of a seat told apart from every other
    # (stats.told_apart: the multiplicity rule of a strongest or weakest of N); otherwise only that
    # the one wins more than the other.
    apart = seats_apart(rates * decided, decided, hi, lo)
    return [Finding("seat_imbalance", severity(gap, ci, th["seat_gap_min"]), text, gap, ci, dig_in,
                    claim=words(apart), figure=f"{pct(rates[hi])} and {pct(rates[lo])}", decided_by=(apart,))]


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
    lo_rank, hi_rank = median_ranks(n)
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
            median, ci, dig_in, claim="half the games are over almost at once",
            figure=f"median {amount(median, unit)}"))
    band = (targets or {}).get("length_median")
    if band is not None and band[1] > 0 and median > th["length_over_target"] * band[1]:
        out.append(Finding(
            "long_games", MEDIUM,
            f"Games last far longer than intended: median {amount(median, unit)}{ci_words}, against a target of "
            f"{band[0]:g} to {band[1]:g}.", median, ci, dig_in, claim="games last far longer than intended",
            figure=f"median {amount(median, unit)}"))
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
    for kind, key, what in (
            ("timeouts", "timeouts_max",
             f"never end: they hit the cap ({cap:,.0f} {unit}) and count as nobody's win" if cap else
             "never end: they hit the cap and count as nobody's win"),
            ("stalemates", "stalemates_max", "end in a stalemate: nobody can move on, nobody wins")):
        share = float(outcomes.get(kind) or 0.0)
        if share <= 0 or share < th[key]:
            continue
        ci = _share_ci(share, n)
        out.append(Finding(kind, severity(share, ci, th[key]), f"{pct(share, 2 if share < 0.1 else 1)} of games {what} "
                           f"({ci_text(*ci, fmt=lambda v: pct(v, 2))}).", share, ci, dig_in.get(kind),
                           claim=f"games {what.split(':')[0]}", figure=f"{pct(share, 2)} of games"))
    return out + loop_findings(summary, th)


def ties(summary: dict, th: dict, dig_in: str | None = None) -> list[Finding]:
    share = float(summary["outcomes"].get("ties") or 0.0)
    if share <= 0 or share < th["ties_max"]:
        return []
    ci = _share_ci(share, int(summary["n_games"]))
    return [Finding("ties", severity(share, ci, th["ties_max"]), f"{pct(share)} of games are ties, {one_in(share)} "
                    f"({ci_text(*ci)}): tied players share the win.", share, ci, dig_in,
                    claim=f"at least {pct(th['ties_max'])} of games are ties", figure=pct(share))]


def cards(summary: dict, th: dict, dig_in: str | None = "#cards") -> list[Finding]:
    """Cards (not groups) that swing the holder's win rate (CI clear of 0, at least ``card_effect_min``
    either way), and cards that never matter (never held, or the whole CI within ``card_null_max``).
    Without a decided game no card can change who wins, so nothing is said (a CI of +0.0 to +0.0
    over no winner is no evidence that a card never matters)."""
    if not any(s.get("decided_games") for s in summary.get("seats") or []):
        return []
    rows = [c for c in summary.get("cards") or [] if c.get("level") == "card"]
    out = []
    measured = [c for c in rows if None not in (c["difference"], c["ci_low"], c["ci_high"])
                and np.isfinite(c["difference"])]  # a tiny run leaves a card's CI unknown
    strong = [c for c in measured
              if abs(c["difference"]) >= th["card_effect_min"] and (c["ci_low"] > 0 or c["ci_high"] < 0)]
    for sign, verb in ((1, "helps"), (-1, "hurts")):
        side = sorted((c for c in strong if np.sign(c["difference"]) == sign),
                      key=lambda c: -abs(c["difference"]))
        if side:
            top = side[0]
            more = f"; {len(side) - 1} more card{'s' if len(side) > 2 else ''} too" if len(side) > 1 else ""
            # "most" only when told apart from every other card of its kind after the multiplicity
            # adjustment (analysis/stats.standout); otherwise it is the largest estimate, no more
            rivals = [c for c in measured if c["kind"] == top["kind"] and c["ci_high"] > c["ci_low"]]
            # no other card to be told apart from: neither "most" nor "not told apart"
            rank = (ranked([c["difference"] for c in rivals],
                           standard_error([c["ci_low"] for c in rivals], [c["ci_high"] for c in rivals]),
                           rivals.index(top), "most" if sign > 0 else "least", "card",
                           claim=f"{_card(top)} {verb} its holder most") if top in rivals and len(rivals) > 1 else None)
            most = rank is not None and rank.verdict == APART
            out.append(Finding(
                f"card_{verb}", severity(top["difference"], (top["ci_low"], top["ci_high"]), th["card_effect_min"]),
                f"{_card(top)} {verb} its holder{' most' if most else ''}: win rate {pct(top['win_rate_with'])} with "
                f"it, {pct(top['win_rate_without'])} without ({pp(top['difference'])}, "
                f"{ci_text(top['ci_low'], top['ci_high'], pp)}; {top['kind']})"
                f"{'' if rank is None or most else ', the largest such difference, ' + words(rank) + ' card'}"
                f"{more}.",
                top["difference"], (top["ci_low"], top["ci_high"]), dig_in, decided_by=(rank,) if rank else ()))
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


def _some(items: list[str], most: int = 4) -> str:
    """Items that hold figures of their own ("62.0% and 38.0% with start"), apart by semicolons: the
    first ``most``, the rest counted."""
    rest = len(items) - most
    return "; ".join(items[:most]) + (f"; and {rest} more" if rest > 0 else "")


def _list(names: Iterable[str], most: int = 4) -> str:
    names = list(names)
    if len(names) > most:
        return ", ".join(names[:most]) + f" and {len(names) - most} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def strategies(summary: dict, th: dict, players: int, dig_in: str | None = "#win-rates") -> list[Finding]:
    """In a run of several strategies: one whose per-seat win rate over decided games is above every
    other's (CIs apart) and above the fair share by at least ``dominance_margin``, CI included."""
    # a strategy with no decided game (a tiny run that seated it nowhere) has no rate to compare
    rows = [r for r in summary.get("strategies") or [] if r.get("win_rate_decided") is not None]
    if len(rows) < 2:
        return []
    fair = 1.0 / players
    best = max(rows, key=lambda r: r["win_rate_decided"])
    others = [r for r in rows if r is not best]
    claim = f"{best['strategy']} wins more than every other strategy"

    def interval(r: dict) -> list[float]:
        return [float(r["win_rate_decided"]), float(r["decided_ci_low"]), float(r["decided_ci_high"])]

    # above every other strategy and the fair share plus the margin, by intervals (stats.above_every)
    apart = compared(ABOVE_EVERY, {"best": interval(best), "others": [interval(r) for r in others],
                                   "floor": fair + th["dominance_margin"]}, "strategy", claim=claim)
    if apart.verdict == APART:
        edge = (best["decided_ci_low"] - fair, best["decided_ci_high"] - fair)
        return [Finding(
            "dominant_strategy", severity(best["win_rate_decided"] - fair, edge, th["dominance_margin"]),
            f"{best['strategy']} wins more than every other strategy: {pct(best['win_rate_decided'])} of its seats "
            f"win ({ci_text(best['decided_ci_low'], best['decided_ci_high'])}), where {pct(fair)} is fair; next "
            f"best {max(others, key=lambda r: r['win_rate_decided'])['strategy']}.", best["win_rate_decided"],
            (best["decided_ci_low"], best["decided_ci_high"]), dig_in, claim=claim,
            figure=f"{pct(best['win_rate_decided'])} of its seats win", decided_by=(apart,))]
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
    dig = (f"simbalance replay ... --game {int(top['example_game'])}" if top.get("example_game") is not None
           else "#outcomes")
    return [Finding("loop", severity(share, ci, th["stalemates_max"]), "Why games do not end: " + "; ".join(words(r) for r in reasons[:3]) + ".",
                    share, ci, dig, claim=f"games stall most often by {top['reason']}",
                    figure=f"{pct(share, 2)} of games")]


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
                rate, (lo, hi), "#whole-game", claim=f"the leader after round {row['round']} goes on to win "
                f"at least {pct(th['leader_wins_max'])} of games", figure=pct(rate)))
            break
    comebacks, games = lead.get("comeback_wins"), int(lead.get("single_winner_games") or 0)
    if comebacks is not None and games:
        lo, hi = (float(v) for v in wilson(comebacks * games, games))
        if hi < th["comeback_min"]:
            out.append(Finding(
                "no_comebacks", MEDIUM,
                f"Almost no comebacks: only {pct(comebacks)} of games are won by a player who was last at "
                f"some point of the game ({ci_text(lo, hi)}).", comebacks, (lo, hi), "#whole-game",
                claim="almost no game is won by a player who was last", figure=pct(comebacks)))
    return out


# ---- compare -----------------------------------------------------------------------------------





# ---- sweep -------------------------------------------------------------------------------------





# ---- tournament, skill, tune -------------------------------------------------------------------













