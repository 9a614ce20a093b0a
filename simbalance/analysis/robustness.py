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

from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from simbalance.analysis.findings import HIGH, LOW, MEDIUM, Finding, ordered, severity, thresholds
from simbalance.analysis.labels import player
from simbalance.analysis.stats import (
    EFFECT_VERDICTS,
    EFFECT_WORDS,
    FLIPPED,
    HOLDS,
    LARGER,
    NAN_INTERVAL,
    NOT_SETTLED,
    OVERSTATES,
    SMALLER,
    Comparison,
    Interval,
    difference,
    effect_verdict,
    held_up,
    say,
    seat_gap,
    told_apart,
    words,
)
from simbalance.analysis.stats import REVERSED as GOES_THE_OTHER_WAY
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


def conclusions(models: pd.DataFrame, seats: pd.DataFrame | None = None, search: tuple[str, ...] = ()) -> list[dict]:
    """The seat conclusions across the models: ``{"topic", "verdict", "text"}`` each, verdict
    ``holds``, ``weaker`` or ``flips`` (``_verdict``; the first-player size: ``holds`` or
    ``differs``), in plain words naming the models; with ``seats`` (SEAT_COLUMNS) and the names of
    the ``search`` models among them, also the seat gap of each other model under strong play
    (``seat_gap_conclusion``)."""
    out = []
    if models.empty:
        return out
    if seats is not None and search:
        out += seat_gap_conclusion(models, seats, search)
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
    hi_i, lo_i = int(models["first_player"].idxmax()), int(models["first_player"].idxmin())
    edge = [Interval(*(float(models[c][i]) for c in ("first_player", "fp_ci_low", "fp_ci_high"))) for i in (hi_i, lo_i)]
    gap = difference(*edge)  # the statistics core's difference of two independent estimates
    span, margin = gap.estimate, gap.high - gap.estimate
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


SEAT_GAP_ORDER = ("reversed", "smaller", "larger", "not settled", "holds")  # the most serious verdict first


def seat_gap_conclusion(models: pd.DataFrame, seats: pd.DataFrame, search: tuple[str, ...]) -> list[dict]:
    """Under each search model (strong play), the seat gap of every other model: its best seat
    minus its worst over its decided games (stats.seat_gap), held against the same seats' gap under
    strong play by ``effect_verdict`` (holds, smaller, larger, reversed, not settled). One
    conclusion, topic "seat gap", its verdict the most serious of them (``SEAT_GAP_ORDER``)."""
    wins = {m: (g.sort_values("seat")["win_rate"].to_numpy(float) * float(g["decided_games"].iloc[0]),
                float(g["decided_games"].iloc[0])) for m, g in seats.groupby("model", sort=False)}
    said, verdicts, decided_by = [], [], []  # decided_by: each verdict's comparison (stats.Comparison.to_dict)
    for strong_name in search:
        strong_wins, strong_n = wins[strong_name]
        for name in models["model"]:
            if name in search or not wins[name][1] or not strong_n:
                continue
            w, n = wins[name]
            hi, lo = int(np.argmax(w)), int(np.argmin(w))
            run = seat_gap(w[hi], w[lo], n)
            strong = seat_gap(strong_wins[hi], strong_wins[lo], strong_n)
            apart = told_apart(strong_wins, strong_n, hi, most=True) and told_apart(strong_wins, strong_n, lo, most=False)
            effect = held_up(run, strong, apart, strong_name)
            verdicts.append(effect.verdict)
            decided_by.append(effect.to_dict())
            said.append(f"all {name}'s gap ({player(hi)} minus {player(lo)}, {_signed(run.estimate)} points, 95% CI "
                        f"{_signed(run.low)} to {_signed(run.high)}) {words(effect)}, where it is "
                        f"{_signed(strong.estimate)} points (95% CI {_signed(strong.low)} to {_signed(strong.high)})")
    if not said:
        return []
    verdict = min(verdicts, key=SEAT_GAP_ORDER.index)
    text = ("The seat gap by effect size under strong play: " + "; ".join(said) + ". (A gap holds when it is clear "
            "of 0 the same way there with the same players best and worst, told apart; it is smaller when strong "
            "play rules out its size, reversed when it is clear of 0 the other way, not settled otherwise.)")
    return [{"topic": "seat gap", "verdict": verdict, "text": text, "decided_by": decided_by}]


CONCLUSION_SEVERITY = {"flips": HIGH, "reversed": HIGH, "weaker": MEDIUM, "differs": MEDIUM, "smaller": MEDIUM,
                       "larger": MEDIUM, "not settled": LOW}


def robustness_findings(conclusions: list[dict], models: pd.DataFrame, th: dict) -> list[Finding]:
    """Robustness (analysis/robustness.py): a seat conclusion that flips with the players (high),
    one that shows only under some of them or a first-player size that differs (medium); when every
    one holds, one finding says so (low)."""
    out = []
    for c in conclusions:
        if c["verdict"] == "holds":
            continue
        level = CONCLUSION_SEVERITY[c["verdict"]]
        kind = ("players_flip_" if level == HIGH else "depends_on_players_" if level == MEDIUM else "not_settled_")
        out.append(Finding(kind + c["topic"].replace(" ", "_").replace("-", "_"), level,
                           c["text"] + (" A balance verdict on this holds only for the players it was measured "
                                        "with." if level != LOW else " The search sample cannot tell yet: play more "
                                        "of its games (--search-n, --precision)."), dig_in="#models",
                           decided_by=tuple(Comparison.from_dict(d) for d in c.get("decided_by", []))))
    if conclusions and not out:
        out.append(Finding("robust_to_players", LOW,
                           f"The seat conclusions hold under all {len(models)} player models. "
                           + " ".join(c["text"] for c in conclusions if c["topic"] in ("first player", "seats")),
                           dig_in="#models"))
    return ordered(out)


# ---- verdicts by effect size (`simbalance run GAME --robust`, `simbalance robustness`) -----------
#
# A run's seat gap and its first-player effect are measured with the run's players, most often
# heuristics. Under strong play (every seat the search player) the same effect, with its 95%
# interval (analysis/stats: the seat gap with the multinomial covariance of the two shares), is
# read against the run's own estimate by the statistics core's rule (stats.effect_verdict: holds,
# smaller, larger, reversed, not settled; docs/findings.md, "Under strong play").

REVERSED = FLIPPED
VERDICTS = EFFECT_VERDICTS
VERDICT_WORDS = EFFECT_WORDS


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
    # the fitted evaluation the sample's search seats scored their cut play-outs with: its
    # provenance (studies/evaluation.provenance; None: none used), shown on the page (issue 53)
    evaluation: dict | None = field(default=None, compare=False)

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
                "most": self.most, "reached": self.reached, "seed": self.seed, "evaluation": self.evaluation,
                "seats": [dict(zip(("win_rate", "ci_low", "ci_high"), self.seat(s), strict=True))
                          for s in range(self.players)]}

    @classmethod
    def from_dict(cls, d: dict) -> StrongPlay:
        """Back from ``to_dict`` (findings.json's ``strong_play``): each seat's wins from its share."""
        wins = tuple(float(s["win_rate"]) * d["decided"] if d["decided"] else 0.0 for s in d["seats"])
        return cls(d["model"], int(d["games"]), int(d["decided"]), wins, float(d["precision"]), int(d["most"]),
                   bool(d["reached"]), d.get("seed"), d.get("evaluation"))


def _signed(v: float) -> str:
    return f"{100 * v:+.1f}"


def _check(sample: StrongPlay, verdict: str, topic: str, run: Interval, strong: Interval, figure: str,
           why: str = "") -> dict:
    """The ``robustness`` object of a checked effect (docs/findings.md, "Under strong play")."""
    finite = np.isfinite(strong.low)
    return {"model": sample.model, "games": sample.games, "topic": topic, "verdict": verdict,
            "estimate": float(strong.estimate) if finite else None,
            "ci": [float(strong.low), float(strong.high)] if finite else None,
            "run_estimate": float(run.estimate), "run_ci": [float(run.low), float(run.high)],
            "figure": figure, "why": why, "precision": sample.precision, "reached": sample.reached}


def _seat_effect(sample: StrongPlay, hi: int, lo: int, run: Interval) -> tuple[Comparison, bool, bool]:
    """The comparison that decides the seat gap's verdict (stats.held_up: the run's gap ``hi - lo``
    against the sample's, the same seats told apart there or not), and whether ``hi`` is told apart
    as the seat that wins the most there and ``lo`` as the one that wins the least."""
    wins, n = np.asarray(sample.seat_wins), sample.decided
    strong = seat_gap(wins[hi], wins[lo], n) if n else NAN_INTERVAL
    best, worst = (told_apart(wins, n, hi, most=True), told_apart(wins, n, lo, most=False)) if n else (False, False)
    return held_up(run, strong, best and worst), best, worst


def _run_gap(summary: dict) -> tuple[int, int, Interval]:
    """The run's best seat, its worst, and the gap between them over its decided games."""
    rates = np.array([s["win_rate_decided"] for s in summary["seats"]], dtype=float)
    decided = float(summary["seats"][0].get("decided_games") or 0)
    hi, lo = int(np.argmax(rates)), int(np.argmin(rates))
    return hi, lo, seat_gap(rates[hi] * decided, rates[lo] * decided, decided)


def seat_check(sample: StrongPlay, hi: int, lo: int, run: Interval) -> dict:
    """The verdict on the run's seat gap "``hi`` wins the most and ``lo`` the least" (``run``: the
    run's gap ``hi - lo`` over its decided games, with its interval) under strong play: the sample's
    gap between the same seats with its interval (stats.seat_gap), and whether both seats are told
    apart there (stats.told_apart)."""
    if not sample.decided:
        return _check(sample, NOT_SETTLED, "seat gap", run, NAN_INTERVAL, "no game had a winner")
    effect, best, worst = _seat_effect(sample, hi, lo, run)
    strong, verdict = Interval(*effect.inputs["strong"]), effect.verdict
    r_hi, hi_lo, hi_hi = sample.seat(hi)
    r_lo, lo_lo, lo_hi = sample.seat(lo)
    figure = (f"{player(hi)} wins {100 * r_hi:.1f}% (95% CI {100 * hi_lo:.1f} to {100 * hi_hi:.1f}%), {player(lo)} "
              f"{100 * r_lo:.1f}% (95% CI {100 * lo_lo:.1f} to {100 * lo_hi:.1f}%)")
    why = ""
    if verdict == NOT_SETTLED and strong.above_zero:
        apart = [f"{player(s)} is not told apart as the one that wins the {w} there"
                 for s, w, ok in ((hi, "most", best), (lo, "least", worst)) if not ok]
        why = " and ".join(apart)
    return _check(sample, verdict, "seat gap", run, strong, figure, why)


def first_player_check(sample: StrongPlay, run: Interval) -> dict:
    """The verdict on the run's first-player effect (``run``: player 1's share of the decided games
    - 1/P, with its interval) under strong play: the sample's, from player 1's Wilson interval."""
    if not sample.decided:
        return _check(sample, NOT_SETTLED, "first player", run, NAN_INTERVAL, "no game had a winner")
    fair = 1.0 / sample.players
    rate, lo, hi = sample.seat(0)
    strong = Interval(rate - fair, lo - fair, hi - fair)
    figure = f"player 1 wins {100 * rate:.1f}% of the games with a winner (95% CI {100 * lo:.1f} to {100 * hi:.1f}%)"
    return _check(sample, effect_verdict(run, strong), "first player", run, strong, figure)


def strong_play_words(check: dict, sample: StrongPlay, who: str = "this run's players") -> str:
    """The sentence of a verdict, from its ``robustness`` object alone: the verdict, the effect
    under strong play with its 95% CI, and the sample it was read on ("Smaller under strong play:
    the heuristics overstate it: the gap is +2.2 points under strong play, 95% CI -1.8 to +6.3,
    against +13.9 points in this run (mcts@100, 1,000 games: ...)."). ``who``: the run's players,
    as the sentence names them."""
    seat = check["topic"] == "seat gap"
    what = "the gap" if seat else "player 1's edge over a fair share"
    sample_words = f"{check['model']}, {check['games']:,} games: {check['figure']}"
    if 0 < sample.decided < sample.games:  # the shares are of the decided games: say how many were not (qa53)
        stalled = sample.games - sample.decided
        sample_words += f"; {stalled:,} of its {sample.games:,} games ({100 * stalled / sample.games:.1f}%) had no winner"
    if not sample.reached:
        sample_words += f"; {sample.stopped()}"
    verdict = check["verdict"]
    if check["ci"] is None:
        return f"{VERDICT_WORDS[verdict]}: no game of the sample had a winner ({sample_words})."
    lo, hi = check["ci"]
    there = f"{what} is {_signed(check['estimate'])} points under strong play, 95% CI {_signed(lo)} to {_signed(hi)}"
    run = f"{_signed(check['run_estimate'])} points in this run"
    text = {
        HOLDS: f"{there}, against {run}" + (", and the same players win the most and the least there, told apart "
                                           "from the others" if seat else ""),
        SMALLER: f"{say(who, OVERSTATES, plural=True)}: {there}, against {run}",
        LARGER: f"{who} show no effect ({run}, its 95% CI across 0), yet {there}",
        REVERSED: f"{say(who, GOES_THE_OTHER_WAY)}: {there}, against {run}",
        NOT_SETTLED: f"{there}, against {run}: " + (check["why"] or "the sample neither rules out this run's figure "
                                                    "nor tells the effect from 0"),
    }[verdict]
    return f"{VERDICT_WORDS[verdict]}: {text} ({sample_words})."


def who_played(players_words: str) -> str:
    """How a verdict names the run's players: "the heuristics" when they were (studies/run.measured_with
    says "heuristics: ..."), "this run's players" otherwise."""
    return "the heuristics" if players_words.startswith("heuristics") else "this run's players"


def seat_robustness(summary: dict, sample: StrongPlay) -> dict:
    """The verdict on the run's seat gap (its best seat minus its worst, over the decided games)
    under strong play: ``seat_check`` of the run's summary."""
    return seat_check(sample, *_run_gap(summary))


def strong_play_findings(findings: list[Finding], summary: dict, sample: StrongPlay | None, players_words: str,
                         command: str | None, th: dict | None = None) -> list[Finding]:
    """A run's findings with its seat finding (``seat_imbalance``) checked under strong play: with
    ``sample``, its sentence gains the verdict (``strong_play_words``), its severity follows the gap
    under strong play (``severity`` of the sample's gap and interval against ``seat_gap_min``: the
    size that counts is the one strong players leave) and it gains the ``robustness`` object;
    without, its sentence says which players measured it (``players_words``) and the ``command``
    that checks it (None: a game without decisions, where the players change nothing)."""
    th = th or thresholds(None)
    who = who_played(players_words)
    out = []
    for f in findings:
        if f.kind == "seat_imbalance" and sample is not None:
            check = seat_robustness(summary, sample)
            level = (severity(check["estimate"], tuple(check["ci"]), th["seat_gap_min"]) if check["ci"] is not None
                     else f.severity)
            effect, _, _ = _seat_effect(sample, *_run_gap(summary))  # the comparison behind the verdict's words
            f = replace(f, text=f"{f.text} {strong_play_words(check, sample, who)}", robustness=check, severity=level,
                        decided_by=(*f.decided_by, effect))
        elif f.kind == "seat_imbalance" and command:
            f = replace(f, text=f"{f.text} Measured with {players_words}; whether it holds under strong play: "
                                f"{command}.")
        out.append(f)
    return ordered(out)


def first_player_robustness(summary: dict, sample: StrongPlay) -> dict:
    """The robustness object of the run's first-player effect (``summary["first_player_advantage"]``)."""
    fpa = summary["first_player_advantage"]
    if fpa.get("value") is None or fpa.get("ci_low") is None:
        run = Interval(0.0, -1.0, 1.0)  # no game had a winner: the run shows no effect
    else:
        run = Interval(float(fpa["value"]), float(fpa["ci_low"]), float(fpa["ci_high"]))
    return first_player_check(sample, run)
