"""The statistics core: the intervals and decisions every study's pages state, in one place
(issue 52 item 3; docs/findings.md, "The statistics core").

- ``ALPHA``: the one default level of every decision a page states, the default of the config's
  ``findings.alpha`` (0.05). Every interval here is a ``1 - ALPHA`` (95 %) interval, and every
  decision made from intervals (a gap told apart from 0, a seat, a card or a strategy told apart
  from the rest, a target met) is read at the same level; so are the chi-square test of equal
  seats, compare's and solve's tables, and check's gate.
- ``wilson``: one share's interval (core/aggregate's, which the aggregates already use).
- ``seat_gap``: the difference of two seats' shares of the same games, with the multinomial
  covariance of the two shares: over ``n`` games each won by one seat (a k-way tie counts 1/k),
  var(p_i - p_j) = (p_i + p_j - (p_i - p_j)^2) / n. The shares compete for the same wins, so their
  covariance is negative (-p_i p_j / n) and their difference varies more than two independent
  shares would: two Wilson half-widths combined in quadrature (the old reading, which ignored the
  covariance) are too narrow, two half-widths added outright too wide.
- ``told_apart``: whether one seat wins more (or less) than every other seat, each pairwise gap's
  interval clear of 0 after a Bonferroni adjustment over the P - 1 comparisons.
- ``standout``: the strongest and the weakest of N estimates (cards), each named only when told
  apart from every other after a multiplicity adjustment (otherwise None: "no card stands out").
- ``difference``: two independent estimates' difference, at a Bonferroni level when it is one of
  several read at once (card-value's "the table overstates it").
- ``clustered_difference``: the difference of two groups' mean outcomes when a game contributes
  several rows (its seats), with the game-clustered (sandwich) variance; ``clustered_share``: a
  share of such rows (a tournament's per-seat win rate).
- ``normal_half``, ``student_half``, ``median_ranks``: the half-widths and ranks of the normal,
  Student and order-statistic intervals the studies state (none computes its own).
- ``weigh`` and ``say``: a claim's figure against the measurement that decides it, and its words
  ("overstates", "understates", "goes the other way", "agrees"); ``effect_verdict``: a run's effect
  under strong play (holds, smaller, larger, reversed, not settled).
- ``Comparison``, ``decide``, ``words``: what decides a finding's comparative claim, kept on the
  finding (``Finding.decided_by``): the rule above that reads it, its verdict and the intervals it
  was read from; ``words`` gives the only words a sentence may use for the verdict, and a test reads
  every verdict again from its inputs (``recheck``) and finds its words in the sentence.
- targets and bounds (``target_test``, ``judge``, ``judge_models``, ``verdict_of``): a metric in a
  range by its interval, for solve's targets, sweep's ``--target`` and check's ``[bounds]`` alike.

Normal quantiles come from the standard library (``statistics.NormalDist``): ``import simbalance``
stays free of scipy.stats.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from simbalance.core.aggregate import Z95, RunAggregate, wilson
from simbalance.core.config import FINDINGS_DEFAULTS

__all__ = ["ALPHA", "AGREES", "FAILS", "JUDGED", "MEETS", "OPEN", "OVERSTATES", "REVERSED", "UNDERSTATES",
           "Comparison", "Interval", "above_every", "allows", "judgement", "beats_each", "cleared", "compared", "decide", "effect_verdict",
           "held_up", "ranked", "recheck", "seats_apart", "weighed", "words", "balance_test", "clustered_difference", "clustered_share", "difference",
           "holm", "is_share", "judge", "judge_models", "median_ranks", "natural_range",
           "normal_half", "proportion_difference", "quantile", "say", "seat_gap", "shortfall", "standard_error",
           "standout", "student_half", "target_test", "told_apart", "verdict_of", "weigh", "wilson"]

# The one default level of every decision a page states: every interval of this module is a
# 1 - ALPHA (95 %) interval and every decision read from them is made at ALPHA (5 %). It is the
# config's findings.alpha default (core/config.FINDINGS_DEFAULTS), so `--set findings.alpha=...`
# and the core start from the same number.
ALPHA: float = FINDINGS_DEFAULTS["alpha"]


def quantile(alpha: float = ALPHA) -> float:
    """The two-sided normal quantile of ``alpha``: 1.96 at 0.05 (there, the aggregates' own ``Z95``,
    so an interval made here and one made by core/aggregate agree to the last bit)."""
    return Z95 if alpha == 0.05 else NormalDist().inv_cdf(1 - alpha / 2)


def normal_half(se, alpha: float = ALPHA):
    """The half-width of the normal ``1 - alpha`` interval of an estimate with standard error ``se``
    (a number or an array)."""
    return quantile(alpha) * se


def student_half(sd, n, alpha: float = ALPHA):
    """The half-width of the Student ``1 - alpha`` interval of a mean of ``n`` values with standard
    deviation ``sd`` (numbers or arrays; at least 1 degree of freedom)."""
    from scipy import stats  # here: `import simbalance` stays free of scipy.stats (0.6 s to import)

    n = np.asarray(n, dtype=float)
    return stats.t.ppf(1 - alpha / 2, np.maximum(n - 1, 1)) * np.asarray(sd, dtype=float) / np.sqrt(n)


def median_ranks(n: float, alpha: float = ALPHA) -> tuple[float, float]:
    """The ranks (1 to ``n``) of the order statistics that bound the median's ``1 - alpha`` interval,
    n/2 -+ z sqrt(n)/2 (distribution-free: the sign test's interval)."""
    half = quantile(alpha) * math.sqrt(n) / 2
    return max(1.0, n / 2 - half), min(float(n), n / 2 + half)


@dataclass(frozen=True)
class Interval:
    """An estimate with its interval (``low``, ``high``); nan throughout when there is nothing to
    estimate it from."""

    estimate: float
    low: float
    high: float

    @property
    def above_zero(self) -> bool:
        return self.low > 0

    @property
    def below_zero(self) -> bool:
        return self.high < 0

    def excludes(self, value: float) -> bool:
        return value < self.low or value > self.high

    @property
    def width(self) -> float:
        return self.high - self.low


NAN_INTERVAL = Interval(float("nan"), float("nan"), float("nan"))


def seat_gap(wins_i: float, wins_j: float, n: float, alpha: float = ALPHA) -> Interval:
    """Seat i's share of ``n`` games minus seat j's, with its interval: the normal interval of the
    difference of two multinomial shares, var = (p_i + p_j - (p_i - p_j)^2) / n. Callers pass the
    games the shares are over: for seats, the decided games (a game without a winner adds to
    neither share). nan without a game."""
    if not n:
        return NAN_INTERVAL
    p_i, p_j = wins_i / n, wins_j / n
    gap = p_i - p_j
    half = quantile(alpha) * float(np.sqrt(max(p_i + p_j - gap * gap, 0.0) / n))
    return Interval(float(gap), float(gap - half), float(gap + half))


def proportion_difference(x_a: float, n_a: float, x_b: float, n_b: float, alpha: float = ALPHA) -> Interval:
    """The share ``x_a / n_a`` minus ``x_b / n_b`` of two independent samples, with the Agresti-Caffo
    interval (one success and one failure added to each sample before the normal interval: close to
    its nominal coverage even for shares near 0 and small samples, where the plain Wald interval is
    too narrow). The estimate is the plain difference. nan when a sample is empty."""
    if not n_a or not n_b:
        return NAN_INTERVAL
    p_a, p_b = (x_a + 1) / (n_a + 2), (x_b + 1) / (n_b + 2)
    half = quantile(alpha) * float(np.sqrt(p_a * (1 - p_a) / (n_a + 2) + p_b * (1 - p_b) / (n_b + 2)))
    return Interval(float(x_a / n_a - x_b / n_b), float(p_a - p_b - half), float(p_a - p_b + half))


def told_apart(wins: np.ndarray | list[float], n: float, seat: int, most: bool, alpha: float = ALPHA) -> bool:
    """Whether ``seat`` wins more (``most``) or less than every other seat of the same ``n`` games:
    each of its P - 1 gaps (``seat_gap``) clear of 0 on that side at the Bonferroni level
    ``alpha / (P - 1)``."""
    wins = np.asarray(wins, dtype=float)
    others = [s for s in range(len(wins)) if s != seat]
    if not n or not others:
        return False
    level = alpha / len(others)
    for other in others:
        gap = seat_gap(wins[seat], wins[other], n, level)
        if not (gap.above_zero if most else gap.below_zero):
            return False
    return True


def standout(estimates: np.ndarray | list[float], errors: np.ndarray | list[float],
             alpha: float = ALPHA) -> tuple[int | None, int | None]:
    """The indices of the strongest and the weakest of N independent estimates (standard errors
    ``errors``), each only when told apart from every other: its difference with each of the N - 1
    others clear of 0 at the two-sided Bonferroni level ``alpha / (N - 1)``. With N interchangeable
    estimates the chance of naming any one is at most ``alpha`` each way (N tests, each at most
    ``alpha / (2 (N - 1))``). Estimates that are not finite are left out. (None, None) when nothing
    stands out; never the same index for both."""
    est = np.asarray(estimates, dtype=float)
    err = np.asarray(errors, dtype=float)
    keep = np.flatnonzero(np.isfinite(est) & np.isfinite(err))
    if len(keep) < 2:
        return None, None
    z = quantile(alpha / (len(keep) - 1))

    def apart(top: int, sign: int) -> int | None:
        rest = keep[keep != top]
        margin = z * np.sqrt(err[top] ** 2 + err[rest] ** 2)
        return int(top) if np.all(sign * (est[top] - est[rest]) > margin) else None

    best = apart(keep[np.argmax(est[keep])], +1)
    worst = apart(keep[np.argmin(est[keep])], -1)
    return best, worst


def standard_error(low: float | np.ndarray, high: float | np.ndarray, alpha: float = ALPHA) -> float | np.ndarray:
    """The standard error behind a symmetric ``1 - alpha`` interval (a normal or Student one from
    enough rows): its half-width over the normal quantile."""
    return (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / (2 * quantile(alpha))


def difference(a: Interval, b: Interval, comparisons: int = 1, alpha: float = ALPHA) -> Interval:
    """``a - b`` for two independent estimates given by their symmetric 95% intervals, with its
    interval at the Bonferroni level ``alpha / comparisons`` (one of several such differences
    read at once: the rows of a table)."""
    se = float(np.hypot(standard_error(a.low, a.high), standard_error(b.low, b.high)))
    half = quantile(alpha / max(comparisons, 1)) * se
    d = a.estimate - b.estimate
    return Interval(float(d), float(d - half), float(d + half))


def clustered_share(successes: np.ndarray, trials: np.ndarray, alpha: float = ALPHA) -> Interval:
    """A share over rows that come in clusters (a game's seats of one strategy): ``successes`` and
    ``trials`` per cluster (game), the share sum(successes) / sum(trials), and its Wilson interval
    at the *effective* number of trials p (1 - p) / var, var the game-clustered (sandwich) variance
    of the ratio: a game's seats win or lose together (or against each other), so they are not
    independent trials, and Wilson over the seat-games is too narrow (or too wide). A share of 0 or
    1 has no clustered variance: its interval is Wilson's over the games (as many trials as
    clusters, the fewest the rows can be worth). nan without a trial."""
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    total = trials.sum()
    if not total:
        return NAN_INTERVAL
    share = successes.sum() / total
    variance = float(np.sum(((successes - share * trials) / total) ** 2))
    clusters = float(np.count_nonzero(trials))
    effective = share * (1 - share) / variance if variance > 0 and 0 < share < 1 else clusters
    low, high = wilson(share * effective, effective, quantile(alpha))
    return Interval(float(share), float(low), float(high))


def clustered_difference(outcome: np.ndarray, member: np.ndarray, cluster: np.ndarray,
                         alpha: float = ALPHA) -> Interval:
    """The mean ``outcome`` of the rows with ``member`` minus that of the rows without, with the
    interval of its game-clustered (sandwich) variance: rows of one ``cluster`` (a game's seats)
    are not independent. The variance is the sum over clusters of the squared influence of each
    cluster, (S1 - m1 r1) / n1 - (S0 - m0 r0) / n0 (S: its rows' outcomes with and without
    membership, m: their counts), which is what card impact computes from its sums at scale
    (analysis/cards.py)."""
    outcome = np.asarray(outcome, dtype=float)
    member = np.asarray(member, dtype=bool)
    n1, n0 = member.sum(), (~member).sum()
    if not n1 or not n0:
        return NAN_INTERVAL
    r1, r0 = outcome[member].mean(), outcome[~member].mean()
    _, index = np.unique(cluster, return_inverse=True)
    influence = (np.bincount(index, np.where(member, outcome - r1, 0.0)) / n1
                 - np.bincount(index, np.where(member, 0.0, outcome - r0)) / n0)
    half = quantile(alpha) * float(np.sqrt(np.sum(influence ** 2)))
    return Interval(float(r1 - r0), float(r1 - r0 - half), float(r1 - r0 + half))


# ----------------------------------------------------------------------------------------- words
# Every sentence that states a comparison is made here: a claim (what is said: the table's figure for
# a card, the run's seat gap), its figure (an Interval) and the comparison that decides it (the
# reference: the better measurement of the same effect, an Interval) give a verdict (``weigh``), and
# ``say`` gives the verdict's words. So "understates" and "overstates" follow which estimate is
# further from 0 on every page, and "goes the other way" is said only when the two intervals
# exclude 0 on opposite sides.
OVERSTATES, UNDERSTATES, REVERSED, AGREES = "overstates", "understates", "goes the other way", "agrees"


def weigh(figure: Interval, reference: Interval, comparisons: int = 1, alpha: float = ALPHA) -> str:
    """A claim's ``figure`` against the ``reference`` that decides it: ``REVERSED`` when both
    intervals exclude 0 on opposite sides; else, when their difference is told apart from 0 (at
    the Bonferroni level ``alpha / comparisons``: one of a table's rows), ``OVERSTATES`` if the
    figure is further from 0 than the reference, ``UNDERSTATES`` if it is nearer; else ``AGREES``."""
    if (figure.above_zero and reference.below_zero) or (figure.below_zero and reference.above_zero):
        return REVERSED
    gap = difference(figure, reference, comparisons, alpha)
    if not (gap.above_zero or gap.below_zero):
        return AGREES
    return OVERSTATES if abs(figure.estimate) > abs(reference.estimate) else UNDERSTATES


def say(subject: str, verdict: str, plural: bool = False) -> str:
    """The words of a verdict of ``weigh`` about ``subject`` (the one whose figure is weighed: "the
    table", "the heuristics"): "the table overstates it", "the heuristics understate it", "it goes
    the other way", "the table agrees with it"."""
    verb = {OVERSTATES: "overstate", UNDERSTATES: "understate", AGREES: "agree with"}
    if verdict == REVERSED:
        return "it goes the other way"
    if verdict not in verb:
        raise ValueError(f"verdict {verdict!r}: allowed {', '.join(repr(v) for v in (*verb, REVERSED))}")
    word = verb[verdict]
    if not plural:
        word = word.replace("overstate", "overstates").replace("understate", "understates").replace("agree", "agrees")
    return f"{subject} {word} it"



# The strong-play verdicts of a run's effect (`run --robust`, `robustness`: docs/findings.md, "Under
# strong play"): the run's estimate with its interval (``run``) against the same effect measured under
# strong play (``strong``):
# - reversed: the two intervals exclude 0 on opposite sides;
# - smaller: the strong-play interval excludes the run's estimate on the side of 0 (the run's
#   players overstate it), whether or not it excludes 0;
# - holds: the strong-play interval excludes 0 on the run's side (for the seat gap: and the same
#   seats are the best and the worst there, each told apart from every other seat: ``apart``);
# - larger: the run shows no effect (its interval crosses 0), the strong-play interval excludes 0
#   (the run's players understate it);
# - not settled: anything else (the sample cannot tell).
HOLDS, SMALLER, LARGER, FLIPPED, NOT_SETTLED = "holds", "smaller", "larger", "reversed", "not settled"
EFFECT_VERDICTS = (HOLDS, SMALLER, LARGER, FLIPPED, NOT_SETTLED)
EFFECT_WORDS = {HOLDS: "Holds under strong play", SMALLER: "Smaller under strong play",
                LARGER: "Larger under strong play", FLIPPED: "Reversed under strong play",
                NOT_SETTLED: "Not settled under strong play"}


def effect_verdict(run: Interval, strong: Interval, apart: bool = True) -> str:
    """The verdict on an effect measured in a run (``run``) under strong play (``strong``): one of
    ``EFFECT_VERDICTS``, by the rules above."""
    if not np.isfinite(strong.low) or not np.isfinite(run.estimate):
        return NOT_SETTLED
    if not (run.above_zero or run.below_zero):
        return LARGER if strong.above_zero or strong.below_zero else NOT_SETTLED
    side = 1.0 if run.above_zero else -1.0
    near, far = sorted((side * strong.low, side * strong.high))  # the strong interval on the run's side
    if far < 0:
        return FLIPPED
    if far < side * run.estimate:
        return SMALLER
    if near > 0 and apart:
        return HOLDS
    return NOT_SETTLED


def above_every(best: Interval, others: list[Interval], floor: float = -math.inf) -> bool:
    """Whether ``best`` is above every one of ``others`` and at least ``floor`` by intervals alone: its
    low end above each other's high end and at least ``floor`` (a run's dominant strategy: the
    strategies' shares of the same games covary, so disjoint 95% intervals are the test that holds
    whatever their covariance)."""
    return bool(best.low >= floor and all(best.low > o.high for o in others))


def beats_each(shares: np.ndarray | list[float], errors: np.ndarray | list[float], even: float = 0.5,
               alpha: float = ALPHA) -> bool:
    """Whether one strategy's head-to-head ``shares`` (standard errors ``errors``) against each of the
    N - 1 others are all above ``even`` at the two-sided Bonferroni level ``alpha / (N - 1)``:
    ``standout``'s rule for the strongest of N, when each comparison is a share against an even one."""
    shares, errors = np.asarray(shares, dtype=float), np.asarray(errors, dtype=float)
    if not len(shares):
        return False
    return bool(np.all(shares - quantile(alpha / len(shares)) * errors > even))


# ------------------------------------------------------------------- a claim and what decides it
# A finding keeps the comparison that decides its claim (``Comparison``: the rule of this module
# that reads it, the verdict, and the inputs it was read from), and its words come from the verdict
# (``words``): a test re-reads every finding's verdict from its inputs and finds its words in the
# sentence (tests/test_study_contract.py, tests/analysis/test_words.py). The rules:
# - "weigh": a figure against the measurement that decides it (``weigh``; words ``say``);
# - "effect": a run's effect under strong play (``effect_verdict``; words ``EFFECT_WORDS``);
# - "told apart": a seat that wins the most or the least (``told_apart``; words: the seat claim);
# - "standout": the strongest or the weakest of N, or none (``standout``; words: the claim when told
#   apart, "not told apart from every other" when not, "no ... stands out" when none is);
# - "above every": a strategy above every other and the fair share by intervals (``above_every``);
# - "beats each": a strategy above an even share against each other head to head (``beats_each``).
# - "clear of": one interval against a fixed value (an even 50%, the fair share): a search that
#   "beats" the heuristic, a restricted strategy that "beats" the full one (``cleared``; words: the
#   claim when the interval is wholly on its side; none of its own when not: the sentence may not
#   make the claim).
APART, NOT_APART, NONE_APART = "told apart", "not told apart", "none stands out"
WEIGH, EFFECT, TOLD_APART, STANDOUT, ABOVE_EVERY, BEATS_EACH, CLEAR_OF, JUDGED = (
    "weigh", "effect", "told apart", "standout", "above every", "beats each", "clear of", "judged")
# JUDGED: targets or bounds judged by their intervals (``judge_models`` below: Holm over the family,
# refuted at alpha / (tests x looks)); its verdict is meets, does not meet or not settled, for the
# family or for the tests ``of`` it names (check's one bound among several).


@dataclass(frozen=True)
class Comparison:
    """What decides a finding's claim: ``rule`` (one of the rules above), its ``verdict``, the
    ``inputs`` it was read from (plain numbers and lists: intervals as [estimate, low, high]), and
    what the words name: ``subject`` (who is weighed: "the table"; what is ranked: "card"),
    ``plural`` (its verb), ``claim`` (the words a told-apart verdict allows: "helps its holder
    most")."""

    rule: str
    verdict: str
    inputs: dict
    subject: str = ""
    plural: bool = False
    claim: str = ""

    def to_dict(self) -> dict:
        return {"rule": self.rule, "verdict": self.verdict, "inputs": self.inputs, "subject": self.subject,
                "plural": self.plural, "claim": self.claim, "words": words(self)}

    @classmethod
    def from_dict(cls, d: dict) -> Comparison:
        return cls(d["rule"], d["verdict"], d["inputs"], d.get("subject", ""), bool(d.get("plural")),
                   d.get("claim", ""))


def _interval(v) -> Interval:
    return Interval(*(float(x) for x in v))


def _listed(v: Interval) -> list[float]:
    return [float(v.estimate), float(v.low), float(v.high)]


def _seat_verdict(wins, n, hi, lo, alpha) -> str:
    most, least = told_apart(wins, n, hi, True, alpha), told_apart(wins, n, lo, False, alpha)
    return "most and least" if most and least else "most" if most else "least" if least else "neither"


def _standout_verdict(estimates, errors, index, side, alpha) -> str:
    best, worst = standout(estimates, errors, alpha)
    if index is None:
        return NONE_APART if best is None and worst is None else APART
    return APART if (best if side == "most" else worst) == index else NOT_APART


def decide(rule: str, inputs: dict) -> str:
    """The verdict of ``rule`` read from ``inputs`` (a Comparison's): the one place a finding's
    verdict is made, so a test can make it again."""
    i = inputs
    if rule == WEIGH:
        return weigh(_interval(i["figure"]), _interval(i["reference"]), i.get("comparisons", 1), i.get("alpha", ALPHA))
    if rule == EFFECT:
        return effect_verdict(_interval(i["run"]), _interval(i["strong"]), i.get("apart", True))
    if rule == TOLD_APART:
        return _seat_verdict(i["wins"], i["n"], i["hi"], i["lo"], i.get("alpha", ALPHA))
    if rule == STANDOUT:
        return _standout_verdict(i["estimates"], i["errors"], i.get("index"), i.get("side", "most"),
                                 i.get("alpha", ALPHA))
    if rule == ABOVE_EVERY:
        return APART if above_every(_interval(i["best"]), [_interval(o) for o in i["others"]],
                                    i.get("floor", -math.inf)) else NOT_APART
    if rule == CLEAR_OF:
        low, high = float(i["interval"][1]), float(i["interval"][2])
        return APART if (low > i["value"] if i.get("side", "above") == "above" else high < i["value"]) else NOT_APART
    if rule == BEATS_EACH:
        return APART if beats_each(i["shares"], i["errors"], i.get("even", 0.5), i.get("alpha", ALPHA)) else NOT_APART
    if rule == JUDGED:
        tests = _judged_tests(i["tests"], i.get("looks", 1), i.get("alpha", ALPHA))
        of = i.get("of")
        return verdict_of(tests if of is None else [tests[j] for j in of])
    allowed = (WEIGH, EFFECT, TOLD_APART, STANDOUT, ABOVE_EVERY, BEATS_EACH, CLEAR_OF, JUDGED)
    raise ValueError(f"rule {rule!r}: allowed {', '.join(repr(r) for r in allowed)}")


def compared(rule: str, inputs: dict, subject: str = "", plural: bool = False, claim: str = "") -> Comparison:
    """The Comparison of ``rule`` over ``inputs``, its verdict made by ``decide``."""
    return Comparison(rule, decide(rule, inputs), inputs, subject, plural, claim)


def weighed(figure: Interval, reference: Interval, subject: str, comparisons: int = 1, plural: bool = False,
            alpha: float = ALPHA) -> Comparison:
    """``weigh`` as a Comparison: ``subject``'s figure against the reference ("the table")."""
    return compared(WEIGH, {"figure": _listed(figure), "reference": _listed(reference), "comparisons": int(comparisons),
                            "alpha": alpha}, subject, plural)


def held_up(run: Interval, strong: Interval, apart: bool = True, subject: str = "") -> Comparison:
    """``effect_verdict`` as a Comparison (nan in the inputs stays nan: not settled); ``subject``:
    the strong player model when the words name it ("is smaller under all mcts@100")."""
    return compared(EFFECT, {"run": _listed(run), "strong": _listed(strong), "apart": bool(apart)}, subject)


def seats_apart(wins, n: float, hi: int, lo: int, alpha: float = ALPHA) -> Comparison:
    """Seat ``hi`` the most and seat ``lo`` the least of ``n`` decided games (``told_apart`` each)."""
    return compared(TOLD_APART, {"wins": [float(w) for w in wins], "n": float(n), "hi": int(hi), "lo": int(lo),
                                 "alpha": alpha})


def ranked(estimates, errors, index: int | None, side: str, subject: str, claim: str = "",
           alpha: float = ALPHA) -> Comparison:
    """Whether item ``index`` of N estimates is the strongest (``side`` "most") or the weakest
    ("least"), told apart from every other (``standout``); ``index`` None: whether any is."""
    return compared(STANDOUT, {"estimates": [float(e) for e in estimates], "errors": [float(e) for e in errors],
                               "index": None if index is None else int(index), "side": side, "alpha": alpha},
                    subject, claim=claim)


def cleared(estimate: float, low: float, high: float, value: float, claim: str, side: str = "above") -> Comparison:
    """Whether an interval lies wholly ``side`` ("above" or "below") ``value``, the claim it allows
    ("X beats Y": a share above an even 50%)."""
    return compared(CLEAR_OF, {"interval": [float(estimate), float(low), float(high)], "value": float(value),
                               "side": side}, claim=claim)


def judgement(result: dict, claim: str = "", of: list[int] | None = None) -> Comparison:
    """``judge``/``judge_models``'s result as a Comparison (every test's interval and p-values, the
    looks and alpha it was judged at); ``of``: the tests whose verdict it is (all when None); ``claim``:
    the words a "meets" allows (a phrase of the finding's sentence)."""
    keep = ("metric", "model", "low", "high", "value", "ci_low", "ci_high", "p", "p_out")
    tests = [{k: (float(t[k]) if k not in ("metric", "model") else t[k]) for k in keep} for t in result["tests"]]
    inputs = {"tests": tests, "looks": int(result.get("looks", 1)), "alpha": float(result.get("alpha", ALPHA))}
    if of is not None:
        inputs["of"] = [int(j) for j in of]
    return compared(JUDGED, inputs, claim=claim)


def allows(c: Comparison) -> bool:
    """Whether ``c``'s verdict allows its claim: told apart, or (targets) meets."""
    return c.verdict == (MEETS if c.rule == JUDGED else APART)


def words(c: Comparison) -> str:
    """The words of a Comparison's verdict, the only ones a sentence may use for it: "the table
    overstates it", "Smaller under strong play", "player 2 wins the most and player 1 the least of
    the games with a winner", "helps its holder most" (a told-apart claim) or "not told apart from
    every other", "no card stands out"."""
    v = c.verdict
    if c.rule == WEIGH:
        return say(c.subject, v, c.plural)
    if c.rule == EFFECT:
        return f"is {v.replace(HOLDS, 'held')} under all {c.subject}" if c.subject else EFFECT_WORDS[v]
    if c.rule == TOLD_APART:
        from simbalance.analysis.labels import player

        hi, lo, over = player(c.inputs["hi"]), player(c.inputs["lo"]), "of the games with a winner"
        return {"most and least": f"{hi} wins the most and {lo} the least {over}",
                "most": f"{hi} wins the most {over}, more than {lo}",
                "least": f"{lo} wins the least {over}, less than {hi}",
                "neither": f"{hi} wins more than {lo} {over}"}[v]
    if c.rule in (CLEAR_OF, JUDGED) and not allows(c):
        return ""  # no words of its own: the sentence only may not make the claim
    if c.rule == JUDGED:
        return c.claim
    if c.inputs.get("index", 0) is None and v == NONE_APART:
        return f"no {c.subject} stands out"
    return c.claim if v == APART else "not told apart from every other"


def recheck(c: Comparison) -> bool:
    """Whether the verdict a Comparison states is the one its inputs give (nan is nan)."""
    return decide(c.rule, c.inputs) == c.verdict

# ------------------------------------------------------------------- targets and bounds, judged
# A target ``METRIC in [LOW, HIGH]`` on one run, judged by its interval (solve's targets, sweep's
# --target and check's [bounds] call the same functions, so a bound met in one is met in the
# others on the same games): each test gives the metric's value, its 95% interval, ``p`` (the
# smallest two-sided level at which the interval still lies inside the range: p <= 0.05 when the
# 95% interval does) and ``p_out`` (the smallest at which it lies wholly outside). ``judge`` reads a
# family of them Holm-adjusted: meets, does not meet, or not settled.
#
# Balance (1 - the widest gap between two seats' shares of the *decided* games) is a maximum over
# seat pairs, biased upwards when estimated by plugging in the shares. Its interval is built pair
# by pair: the upper bound of the gap is the largest ``|d_ij| + z se_ij`` (no correction needed: the
# pair that holds the true gap alone must fall short), the lower bound the largest
# ``|d_ij| - z' se_ij`` with ``z'`` Bonferroni-corrected over the pairs (a union over pairs).
# ``se_ij`` is the multinomial standard error of a difference of two shares (as ``seat_gap``'s),
# which a shared win (a tie) only makes smaller: conservative.

SHARE_METRICS = ("balance", "first_player_advantage", "ties", "timeouts", "stalemates")


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values (controls the family-wise error rate)."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p)
    m = len(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, idx in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[idx]))
        adjusted[idx] = running
    return adjusted


def _z_of(p: float) -> float:
    from scipy.special import ndtri

    return float(ndtri(1 - p))


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _two_sided(p_low: float, p_high: float) -> float:
    return min(1.0, 2.0 * max(p_low, p_high))


def _two_sided_out(out_low: float, out_high: float) -> float:
    """The smallest two-sided level at which the interval lies wholly outside the range (below it,
    or above it): the p-value of the refutation."""
    return min(1.0, 2.0 * min(out_low, out_high))


def _outside(low: float, high: float, lo_min: float, hi_max: float, p_low: float, p_high: float) -> float:
    """``p_out`` of a test whose one-sided p-values of lying above ``low`` and below ``high`` are
    ``p_low`` and ``p_high``: the metric lies below ``low`` at ``1 - p_low`` (an edge at or past
    what the metric can take is never crossed)."""
    return _two_sided_out(1.0 - p_low if low > lo_min else 1.0, 1.0 - p_high if high < hi_max else 1.0)


def _score_side(rate: float, edge: float, n: float, above: bool) -> float:
    """One-sided p of the score test (the Wilson interval's own) that a rate lies above ``edge``
    (``above``) or below it, from ``rate`` over ``n``."""
    if n <= 0:
        return 1.0
    var = edge * (1 - edge) / n
    if var <= 0:
        inside = rate > edge if above else rate < edge
        return 0.0 if inside else 1.0
    z = (rate - edge) / math.sqrt(var) if above else (edge - rate) / math.sqrt(var)
    return _phi(-z)


def balance_test(agg: RunAggregate, low: float, high: float) -> dict:
    """Balance over the decided games with its 95% interval and the p-value that it lies in
    ``[low, high]`` (module docstring: pair by pair)."""
    p, decided = agg.players, agg.decided
    if decided == 0:
        return {"value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p": 1.0, "p_out": 1.0, "games": 0}
    rates = agg.seat_wins / decided
    pairs = list(itertools.combinations(range(p), 2))
    d = np.array([abs(rates[i] - rates[j]) for i, j in pairs])
    se = np.array([math.sqrt(max(rates[i] + rates[j] - (rates[i] - rates[j]) ** 2, 0.0) / decided + 1.0 / decided ** 2)
                   for i, j in pairs])
    z_bonf = _z_of(0.025 / len(pairs))
    gap_hi = float(np.max(d + Z95 * se))
    gap_lo = float(max(np.max(d - z_bonf * se), 0.0))
    value = 1.0 - float(d.max())
    # balance >= low: every pair's gap below 1 - low (the pair with the true gap alone must hold)
    p_low = 0.0 if low <= 0 else _phi(-float(np.min((1.0 - low - d) / se)))
    # balance <= high: some pair's gap above 1 - high (Bonferroni over the pairs)
    p_high = 0.0 if high >= 1 else min(1.0, len(pairs) * _phi(-float(np.max((d - (1.0 - high)) / se))))
    # outside: balance < low when some pair's gap exceeds 1 - low (Bonferroni over the pairs); balance
    # > high when every pair's gap lies below 1 - high (the weakest pair decides)
    out_low = 1.0 if low <= 0 else min(1.0, len(pairs) * _phi(float(np.min((1.0 - low - d) / se))))
    out_high = 1.0 if high >= 1 else _phi(-float(np.min((1.0 - high - d) / se)))
    return {"value": value, "ci_low": max(1.0 - gap_hi, 0.0), "ci_high": min(1.0 - gap_lo, 1.0),
            "p": _two_sided(p_low, p_high), "p_out": _two_sided_out(out_low, out_high), "games": decided}


def _rate_test(successes: float, n: float, low: float, high: float, lo_min: float, hi_max: float,
               shift: float = 0.0) -> dict:
    """A share of ``n`` games (``shift`` subtracted from it and from nothing else: player 1's
    advantage is a share minus 1/P) against ``[low, high]``: Wilson interval, score test."""
    if n <= 0:
        return {"value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p": 1.0, "p_out": 1.0, "games": 0}
    rate = successes / n
    lo, hi = wilson(successes, n)
    p_low = 0.0 if low <= lo_min else _score_side(rate, low + shift, n, above=True)
    p_high = 0.0 if high >= hi_max else _score_side(rate, high + shift, n, above=False)
    return {"value": rate - shift, "ci_low": float(lo) - shift, "ci_high": float(hi) - shift,
            "p": _two_sided(p_low, p_high), "p_out": _outside(low, high, lo_min, hi_max, p_low, p_high),
            "games": int(n)}


def _median_test(agg: RunAggregate, low: float, high: float) -> dict:
    """The median length: a sign test at each edge (the share of games shorter than ``low``, or
    longer than ``high``, below one half) and the order-statistic interval from the histogram."""
    n = agg.n
    hist = agg.length_hist
    lengths = np.arange(len(hist))
    below = float(hist[lengths < low].sum()) / n
    above = float(hist[lengths > high].sum()) / n
    half = math.sqrt(0.25 / n)
    p_low = 0.0 if low <= 0 else _phi(-(0.5 - below) / half)
    p_high = _phi(-(0.5 - above) / half)
    k = Z95 * math.sqrt(n) / 2  # median_ranks' half-width, the percentiles read without its clip at rank 1
    lo_rank = max(0.0, (n / 2 - k) / n * 100)
    hi_rank = min(100.0, (n / 2 + k) / n * 100)
    return {"value": agg.percentile(50), "ci_low": agg.percentile(lo_rank), "ci_high": agg.percentile(hi_rank),
            "p": _two_sided(p_low, p_high), "p_out": _outside(low, high, 0.0, math.inf, p_low, p_high),
            "games": int(n)}


def _mean_test(agg: RunAggregate, low: float, high: float) -> dict:
    stats = agg.length_stats()
    se = max(stats["sd"] / math.sqrt(agg.n), 1e-12)
    m = stats["mean"]
    p_low = 0.0 if low <= 0 else _phi(-(m - low) / se)
    p_high = _phi(-(high - m) / se)
    return {"value": m, "ci_low": m - Z95 * se, "ci_high": m + Z95 * se, "p": _two_sided(p_low, p_high),
            "p_out": _outside(low, high, 0.0, math.inf, p_low, p_high), "games": int(agg.n)}


def is_meta(metric: str) -> bool:
    """A metric of the metagame (issue 55): read from a payoff table (analysis/meta.MetaTable) played
    on the rules, not from one run's aggregate: ``dominance`` and a target matrix's cells
    (``cell:STRATEGY|FIELD``)."""
    return metric == "dominance" or metric.startswith(CELL)


CELL = "cell:"  # a target matrix's cell as a metric: ``cell:STRATEGY|FIELD``


def interval_test(estimate: Interval, low: float, high: float, lo_min: float, hi_max: float) -> dict:
    """A target on an estimate with a symmetric normal 95% interval (the metagame's: read game by
    game): ``p`` the smallest two-sided level at which its interval still lies inside ``[low,
    high]`` (p <= 0.05 exactly when the 95% interval does), ``p_out`` the smallest at which it lies
    wholly outside; an edge at or past what the metric can take always holds, as for the others."""
    est = estimate.estimate
    se = float(standard_error(estimate.low, estimate.high))
    if est != est:
        return {"value": math.nan, "ci_low": math.nan, "ci_high": math.nan, "p": 1.0, "p_out": 1.0, "games": 0}
    if se <= 0:  # no spread at all: the estimate is the value
        p_low = 0.0 if low <= lo_min or est > low else 1.0
        p_high = 0.0 if high >= hi_max or est < high else 1.0
    else:
        p_low = 0.0 if low <= lo_min else _phi(-(est - low) / se)
        p_high = 0.0 if high >= hi_max else _phi(-(high - est) / se)
    return {"value": est, "ci_low": estimate.low, "ci_high": estimate.high, "p": _two_sided(p_low, p_high),
            "p_out": _outside(low, high, lo_min, hi_max, p_low, p_high)}


def target_test(agg: RunAggregate, target) -> dict:
    """One target on one run: the metric's value, its 95% interval, and ``p``: the smallest two-sided
    level at which its interval still lies inside the target's (at most 0.05: the 95% CI lies inside).
    A metagame metric (is_meta) is read from the payoff table played on the rules: ``agg`` is then
    an analysis/meta.MetaTable, which tests it itself (``MetaTable.target_test``: the core does not
    import the metagame, which is built on the core)."""
    m, low, high = target.metric, target.low, target.high
    if is_meta(m):
        return agg.target_test(target)
    lo_min, hi_max = natural_range(m, agg.players)
    if m == "balance":
        return balance_test(agg, low, high)
    if m == "first_player_advantage":
        fair = 1.0 / agg.players
        return _rate_test(float(agg.seat_wins[0]), agg.decided, low, high, lo_min, hi_max, shift=fair)
    if m == "length_median":
        return _median_test(agg, low, high)
    if m == "length_mean":
        return _mean_test(agg, low, high)
    if m in ("ties", "timeouts", "stalemates"):
        count = agg.outcomes[{"ties": 1, "timeouts": 2, "stalemates": 3}[m]]
        return _rate_test(float(count), agg.n, low, high, lo_min, hi_max)
    seat = int(m.rsplit("_", 1)[1])
    return _rate_test(float(agg.seat_wins[seat]), agg.n, low, high, lo_min, hi_max)


MEETS, FAILS, OPEN = "meets", "does not meet", "not settled"


def judge(agg: RunAggregate, targets: list, alpha: float = ALPHA) -> dict:
    """Every target on one run, Holm-adjusted: judge_models with one player model (``verdict``,
    ``shortfall``, ``tests``, ...)."""
    return judge_models({None: agg}, {None: targets}, alpha=alpha)


def judge_models(aggs: dict[str, RunAggregate], targets: dict[str, list], looks: int = 1,
                 alpha: float = ALPHA) -> dict:
    """One candidate under every player model: every (model, target) test in one Holm family
    (``targets``: per model, the targets and the kept metrics, whose ranges are today's value under
    that model ± the tolerance). ``verdict``: meets (every adjusted p at most alpha), does not meet
    (some test's interval lies wholly outside its range at the level ``alpha / (tests × looks)``:
    Bonferroni over the family and over the ``looks`` a race takes at the candidate, so a change
    that meets is refuted with probability at most alpha however often it was looked at), or not
    settled. ``shortfall``: the worst model's (targets and kept metrics alike), ``shortfall_all``: the
    models' summed; ``p_worst``: the
    largest adjusted p (how near to meeting, its games counted); ``tests``: each with its ``model``."""
    tests = [dict(target_test(agg, t), metric=t.metric, low=t.low, high=t.high, keep=t.keep, model=model)
             for model, agg in aggs.items() for t in targets[model]]
    for t, target in zip(tests, (t for model in aggs for t in targets[model]), strict=True):
        wide = getattr(target, "wide", None)
        if wide is not None:  # a kept metric whose today is a sample: refuted only outside every value it admits
            t["p_out"] = target_test(aggs[t["model"]], type(target)(target.metric, *wide))["p_out"]
    tests = _judged_tests(tests, looks, alpha)
    verdict = verdict_of(tests)
    by_model = {m: [t for t in tests if t["model"] == m] for m in aggs}
    return {"verdict": verdict, "tests": tests, "looks": max(looks, 1), "alpha": alpha,
            "shortfall": max(shortfall([t for t in ts if t["keep"] is None]) for ts in by_model.values()),
            # summed over the models: tells apart candidates whose worst model is equally far (a change
            # that mends one model's length while another's stays put ranks before one that mends none)
            "shortfall_all": sum(shortfall([t for t in ts if t["keep"] is None]) for ts in by_model.values()),
            "kept_shortfall": max((shortfall([t for t in ts if t["keep"] is not None]) for ts in by_model.values()),
                                  default=0.0),
            "p_worst": max(t["p_holm"] for t in tests),
            "models": {m: verdict_of(ts) for m, ts in by_model.items()}}


def _judged_tests(tests: list[dict], looks: int, alpha: float) -> list[dict]:
    """Each test with ``p_holm``, ``met`` and ``out`` (judge_models' rule; ``decide`` makes it again)."""
    if not tests:
        return []
    adjusted = holm(np.array([t["p"] for t in tests]))
    level = alpha / (len(tests) * max(looks, 1))
    return [dict(t, p_holm=float(p), met=bool(p <= alpha), out=bool(t["p_out"] <= level) or t["value"] != t["value"])
            for t, p in zip(tests, adjusted, strict=True)]


def verdict_of(tests: list[dict]) -> str:
    """The verdict of judged tests (``met`` and ``out`` each): meets when every one is met, does
    not meet when one is out, not settled otherwise."""
    if all(t["met"] for t in tests):
        return MEETS
    return FAILS if any(t["out"] for t in tests) else OPEN


def shortfall(tests: list[dict]) -> float:
    """How far the estimates lie outside their targets, summed (0: every estimate on target; inf: no
    decided game). Each miss is the distance to the edge missed relative to that edge,
    ``|edge - value| / |edge|`` (the plain distance when the edge is 0), whatever the metric: a
    median of 1 against a floor of 4 misses by 0.75, a balance of 0.94 against 0.97 by 0.031. A
    range's far edge (``length_median=4:99``) does not shrink a miss of its near one."""
    total = 0.0
    for t in tests:
        v = t["value"]
        if v != v:
            return math.inf
        edge = t["low"] if v < t["low"] else t["high"] if v > t["high"] else None
        if edge is not None:
            total += abs(edge - v) / (abs(edge) or 1.0)
    return total


def is_share(metric: str) -> bool:
    return metric in SHARE_METRICS or metric.startswith("win_rate_seat_") or is_meta(metric)


def natural_range(metric: str, players: int) -> tuple[float, float]:
    """The values a metric can take at all: an edge of a target at or past them always holds."""
    if metric == "first_player_advantage":
        return -1.0 / players, 1.0 - 1.0 / players
    if metric == "dominance":  # the largest gain at the even mix: the gains average 0 there, so it is >= 0
        return 0.0, 1.0
    if is_share(metric):
        return 0.0, 1.0
    return 0.0, math.inf
