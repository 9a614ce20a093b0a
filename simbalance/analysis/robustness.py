"""Balance under several player models: do the seat conclusions hold whoever plays?

A *player model* is one strategy at every seat (all random, all of one heuristic, all of a search
player at one budget). For each model: every seat's share of the decided games with its Wilson
interval (docs/metrics.md: held against the fair share 1/P, so over decided games), and the
first-player effect (player 1's share minus 1/P).

The conclusions a balance report draws, each checked across the models:
- **the first-player effect**: its direction (an advantage, a disadvantage: CI clear of 0; or
  none: CI across 0), and its size (the two models furthest apart, their difference against its
  own 95 % margin);
- **the seats that are favoured or disfavoured** (CI above or below the fair share).
A conclusion *holds* when every model draws the same one. It *flips* when two models draw
opposite ones (an advantage under one, a disadvantage under another); it is *weaker* when it shows
under some models and not under others (a model with fewer games, such as a search model, may
simply lack the power to show it: the words name the models).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from simbalance.analysis.findings import HIGH, LOW, MEDIUM, Finding, ordered
from simbalance.analysis.labels import player
from simbalance.core.aggregate import RunAggregate, wilson

SEAT_COLUMNS = ["model", "seat", "win_rate", "ci_low", "ci_high", "decided_games"]
MODEL_COLUMNS = ["model", "games", "decided", "first_player", "fp_ci_low", "fp_ci_high", "favoured", "disfavoured"]


def model_tables(model: str, agg: RunAggregate) -> tuple[pd.DataFrame, dict]:
    """One model's seat rows (SEAT_COLUMNS) and its summary row (MODEL_COLUMNS)."""
    p = agg.players
    fair = 1.0 / p
    decided = agg.decided
    lo, hi = wilson(agg.seat_wins, decided) if decided else (np.full(p, np.nan), np.full(p, np.nan))
    rate = agg.seat_wins / decided if decided else np.full(p, np.nan)
    seats = pd.DataFrame({"model": model, "seat": np.arange(p), "win_rate": rate, "ci_low": lo, "ci_high": hi,
                          "decided_games": decided}, columns=SEAT_COLUMNS)
    row = {"model": model, "games": int(agg.n), "decided": int(decided),
           "first_player": float(rate[0] - fair), "fp_ci_low": float(lo[0] - fair), "fp_ci_high": float(hi[0] - fair),
           "favoured": tuple(int(s) for s in np.flatnonzero(lo > fair)),
           "disfavoured": tuple(int(s) for s in np.flatnonzero(hi < fair))}
    return seats, row


def direction(lo: float, hi: float) -> str:
    """'advantage', 'disadvantage' or 'none' (the CI crosses 0)."""
    if lo > 0:
        return "advantage"
    if hi < 0:
        return "disadvantage"
    return "none"


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _verdict(kinds: list[str], neutral: str) -> str:
    """'holds' (every model the same), 'flips' (opposite directions under two models) or 'weaker'
    (shown under some models, not under others: a model with fewer games may lack the power)."""
    if len(set(kinds)) == 1:
        return "holds"
    return "flips" if len(set(kinds) - {neutral}) > 1 else "weaker"


def conclusions(models: pd.DataFrame) -> list[dict]:
    """The seat conclusions across the models: ``{"topic", "verdict", "text"}`` each, verdict
    ``holds``, ``weaker`` or ``flips`` (``_verdict``; the first-player size: ``holds`` or
    ``differs``), in plain words naming the models."""
    out = []
    if models.empty:
        return out
    names = list(models["model"])
    dirs = [direction(lo, hi) for lo, hi in zip(models["fp_ci_low"], models["fp_ci_high"], strict=True)]
    sizes = ", ".join(f"{100 * v:+.1f} pp ({m})" for m, v in zip(names, models["first_player"], strict=True))
    verdict = _verdict(dirs, "none")
    if verdict == "holds":
        what = {"advantage": "an advantage", "disadvantage": "a disadvantage", "none": "no measurable effect"}[dirs[0]]
        text = f"Player 1 has {what} under every player model: {sizes}."
    else:
        by = "; ".join(f"{'no measurable effect' if d == 'none' else 'an ' + d if d == 'advantage' else 'a ' + d} "
                       f"with {m}" for m, d in zip(names, dirs, strict=True))
        text = f"Whether player 1 is favoured depends on the players: {by} ({sizes})."
    out.append({"topic": "first player", "verdict": verdict, "text": text})
    # the size: the two models furthest apart, their difference against its own 95% margin
    se = (models["fp_ci_high"] - models["fp_ci_low"]).to_numpy() / (2 * 1.96)
    hi_i, lo_i = int(models["first_player"].idxmax()), int(models["first_player"].idxmin())
    span = float(models["first_player"][hi_i] - models["first_player"][lo_i])
    margin = 1.96 * float(np.hypot(se[hi_i], se[lo_i]))
    lo_m, hi_m = names[lo_i], names[hi_i]
    out.append({"topic": "first-player size", "verdict": "holds" if span <= margin else "differs",
                "text": (f"Its size differs by {100 * span:.1f} pp at most ({lo_m} to {hi_m}), within the 95% margin "
                         f"of that difference (±{100 * margin:.1f} pp)." if span <= margin else
                         f"Its size depends on who plays: from {100 * models['first_player'][lo_i]:+.1f} pp ({lo_m}) "
                         f"to {100 * models['first_player'][hi_i]:+.1f} pp ({hi_m}), a difference beyond its 95% "
                         f"margin (±{100 * margin:.1f} pp).")})
    seats_status = []
    for fav, dis in zip(models["favoured"], models["disfavoured"], strict=True):
        seats_status.append({s: "favoured" for s in fav} | {s: "disfavoured" for s in dis})
    seats = sorted({s for st in seats_status for s in st})  # a seat that never stands out holds
    steady, moving, flips = [], [], []
    for s in seats:
        kinds = [st.get(s, "neither") for st in seats_status]
        v = _verdict(kinds, "neither")
        if v == "holds":
            steady.append(f"{player(s)} {kinds[0]}")
            continue
        groups = {}
        for m, k in zip(names, kinds, strict=True):
            groups.setdefault(k, []).append(m)
        words = ", ".join(f"{k} with {_list(ms)}" for k, ms in groups.items())
        (flips if v == "flips" else moving).append(f"{player(s)}: {words}")
    if not moving and not flips:
        text = ("The same seats stand out under every model: " + (_list(steady) if steady else
                "none is favoured or disfavoured (CI clear of the fair share)") + ".")
        out.append({"topic": "seats", "verdict": "holds", "text": text})
    else:
        text = ("Which seats are favoured or disfavoured (CI clear of the fair share) depends on the players: "
                + "; ".join(flips + moving) + "." + (f" Under every model: {_list(steady)}." if steady else ""))
        out.append({"topic": "seats", "verdict": "flips" if flips else "weaker", "text": text})
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


# ---- a run's findings under strong play (`simbalance run GAME --robust`) -------------------------
#
# A run's seat finding and its first-player effect are measured with the run's players, most often
# heuristics. `run --robust` plays a sample beside it with every seat the search player (the same
# precision rule as this study's search model) and says, for each, whether it holds there. What
# "holds" means (docs/findings.md, "Under strong play"):
# - the seat finding ("player A wins the most and player B the least"): the search sample's gap
#   A - B over the decided games, with its 95% CI (the two Wilson half-widths combined, as the
#   finding's own gap): CI above 0, it holds (True); below 0, it goes the other way (False); across
#   0, it is not shown (None: the sample cannot tell, or there is no such gap);
# - the first-player effect (player 1's share of the decided games - 1/P, an advantage or a
#   disadvantage when its CI is clear of 0, none otherwise): the same direction with the search
#   sample's CI clear of 0 holds (True); the opposite direction clear of 0 does not (False); the
#   search CI across 0 is not shown (None). A run that shows no effect (CI across 0) does not hold
#   under strong play when the sample shows one (False), and is not shown otherwise (None: no effect
#   on both sides is not evidence of none).

STRONG_PLAY_WORDS = {True: "Holds under strong play", False: "Does not hold under strong play, it goes the other way",
                     None: "Not shown under strong play"}


@dataclass(frozen=True)
class StrongPlay:
    """The search sample of `run --robust`: every seat ``model`` (``mcts@100``), ``games`` played
    until every seat's win-rate 95% CI half-width was below ``precision`` or ``most`` games
    (``reached``: the precision first); ``seat_wins`` per seat (a k-way tie counts 1/k each) over
    ``decided`` games with a winner."""

    model: str
    games: int
    decided: int
    seat_wins: tuple[float, ...]
    precision: float
    most: int
    reached: bool
    seed: int | None = None

    @classmethod
    def of(cls, model: str, agg: RunAggregate, precision: float, most: int, seed: int | None = None) -> StrongPlay:
        from simbalance.core.execution import precision_reached

        reached = bool(agg.n and precision_reached(agg, precision))
        return cls(model, int(agg.n), int(agg.decided), tuple(float(v) for v in agg.seat_wins), float(precision),
                   int(most), reached, seed)

    @property
    def players(self) -> int:
        return len(self.seat_wins)

    def seat(self, s: int) -> tuple[float, float, float]:
        """Seat ``s``'s share of the decided games and its Wilson 95% CI (nan without a decided game)."""
        if not self.decided:
            return (float("nan"),) * 3
        lo, hi = wilson(np.array([self.seat_wins[s]]), self.decided)
        return self.seat_wins[s] / self.decided, float(lo[0]), float(hi[0])

    def stopped(self) -> str:
        """How the sample ended, in words: the precision reached, or the cap first."""
        if self.reached:
            return f"played until every seat's 95% CI was within ±{100 * self.precision:g} points"
        return (f"the cap of {self.most:,} games stopped it before every seat's 95% CI was within "
                f"±{100 * self.precision:g} points")

    def to_dict(self) -> dict:
        return {"model": self.model, "games": self.games, "decided": self.decided, "precision": self.precision,
                "most": self.most, "reached": self.reached, "seed": self.seed,
                "seats": [dict(zip(("win_rate", "ci_low", "ci_high"), self.seat(s), strict=True))
                          for s in range(self.players)]}


def _check(sample: StrongPlay, holds: bool | None, figure: str, ci: tuple[float, float] | None) -> dict:
    return {"model": sample.model, "games": sample.games, "holds": holds, "figure": figure,
            "ci": None if ci is None else [float(ci[0]), float(ci[1])], "precision": sample.precision,
            "reached": sample.reached}


def seat_check(sample: StrongPlay, hi: int, lo: int) -> dict:
    """Whether "``hi`` wins the most and ``lo`` the least" holds in ``sample``: the robustness object
    of the seat finding (``ci``: the gap ``hi - lo``'s 95% CI, as a share)."""
    r_hi, hi_lo, hi_hi = sample.seat(hi)
    r_lo, lo_lo, lo_hi = sample.seat(lo)
    if not sample.decided:
        return _check(sample, None, "no game had a winner", None)
    gap = r_hi - r_lo
    half = float(np.hypot((hi_hi - hi_lo) / 2, (lo_hi - lo_lo) / 2))
    ci = (gap - half, gap + half)
    holds = True if ci[0] > 0 else False if ci[1] < 0 else None
    figure = (f"{player(hi)} wins {100 * r_hi:.1f}% (95% CI {100 * hi_lo:.1f} to {100 * hi_hi:.1f}%), {player(lo)} "
              f"{100 * r_lo:.1f}% (95% CI {100 * lo_lo:.1f} to {100 * lo_hi:.1f}%)")
    return _check(sample, holds, figure, ci)


def first_player_check(sample: StrongPlay, ci_low: float | None, ci_high: float | None) -> dict:
    """Whether the run's first-player effect (its 95% CI ``ci_low`` to ``ci_high``, player 1's share
    of the decided games - 1/P) holds in ``sample`` (``ci``: the sample's own, same unit)."""
    if not sample.decided:
        return _check(sample, None, "no game had a winner", None)
    fair = 1.0 / sample.players
    rate, lo, hi = sample.seat(0)
    ci = (lo - fair, hi - fair)
    mine = direction(*ci)
    theirs = "none" if ci_low is None or ci_high is None else direction(ci_low, ci_high)
    if theirs == "none":
        holds = None if mine == "none" else False
    else:
        holds = None if mine == "none" else mine == theirs
    figure = (f"player 1 wins {100 * rate:.1f}% of the games with a winner, {100 * (rate - fair):+.1f} pp "
              f"(95% CI {100 * ci[0]:+.1f} to {100 * ci[1]:+.1f} pp)")
    return _check(sample, holds, figure, ci)


def strong_play_words(check: dict, sample: StrongPlay) -> str:
    """The sentence a checked finding gains: "Holds under strong play (mcts@100, 1,000 games: ...)"."""
    capped = "" if sample.reached else f"; {sample.stopped()}"
    return f"{STRONG_PLAY_WORDS[check['holds']]} ({check['model']}, {check['games']:,} games: {check['figure']}{capped})."


def strong_play_findings(findings: list[Finding], summary: dict, sample: StrongPlay | None, players_words: str,
                         command: str | None) -> list[Finding]:
    """A run's findings with its seat finding (``seat_imbalance``) checked under strong play: with
    ``sample``, its sentence says whether it holds there and it gains the ``robustness`` object;
    without, its sentence says which players measured it (``players_words``) and the ``command``
    that checks it (None: a game without decisions, where the players change nothing)."""
    out = []
    for f in findings:
        if f.kind == "seat_imbalance" and sample is not None:
            rates = np.array([s["win_rate_decided"] for s in summary["seats"]], dtype=float)
            check = seat_check(sample, int(np.argmax(rates)), int(np.argmin(rates)))
            f = replace(f, text=f"{f.text} {strong_play_words(check, sample)}", robustness=check)
        elif f.kind == "seat_imbalance" and command:
            f = replace(f, text=f"{f.text} Measured with {players_words}; whether it holds under strong play: "
                                f"{command}.")
        out.append(f)
    return out


def first_player_robustness(summary: dict, sample: StrongPlay) -> dict:
    """The robustness object of the run's first-player effect (``summary["first_player_advantage"]``)."""
    fpa = summary["first_player_advantage"]
    return first_player_check(sample, fpa.get("ci_low"), fpa.get("ci_high"))
