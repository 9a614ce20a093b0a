"""The statistics and findings of ``simbalance card-value`` (studies/card_value.py,
docs/card_value.md): pure functions of the paired play-outs' table.

A card's **value** for its holder is the mean, over the sampled states where a seat held it, of
the holder's share of the win with the card minus its share with the card swapped out (each state's
own mean over its paired play-outs). The states are the units: copies of one card (one label) held
in the same state are averaged first (the play-outs of one state are clustered), and the 95% CI
is Student's over the states. A **decision kind**'s value is the mean spread (the best option's
mean share of the mover's win minus the worst's) over the sampled decisions of that kind, with
Student's CI over the decisions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.analysis.findings import LOW, MEDIUM, Finding, ci_text, pp, severity
from simbalance.analysis.stats import (
    AGREES,
    APART,
    OVERSTATES,
    REVERSED,
    UNDERSTATES,
    Interval,
    ranked,
    standard_error,
    standout,
    student_half,
    weigh,
    weighed,
    words,
)
from simbalance.core.spec import SELECTION_UNSAID

ALL = "all"  # the phase of the values pooled over every phase sampled
VALUE_COLUMNS = ["card", "phase", "value", "ci_low", "ci_high", "states", "playouts", "unchanged"]
DECISION_COLUMNS = ["kind", "phase", "spread", "ci_low", "ci_high", "raw_spread", "unchanged", "decisions", "options",
                    "playouts"]
MIN_DECISIONS = 20  # a decision kind is spoken of from this many sampled decisions
MIN_STATES = 20  # a card is said to be worth nothing from this many states (a CI of 3 zeros is no evidence)


def _student(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% Student interval (NaN bounds below 2 values)."""
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(np.mean(values))
    if n < 2:
        return mean, float("nan"), float("nan")
    half = float(student_half(np.std(values, ddof=1), n))
    return mean, mean - half, mean + half


def card_values(pairs: pd.DataFrame, phases: list[str], labels: list[str]) -> pd.DataFrame:
    """One row per (card label, phase) and per label over every phase (``ALL``): ``VALUE_COLUMNS``.
    ``pairs``: one row per (state, seat, card) valued: ``state``, ``phase``, ``label``, ``diff`` (the
    holder's mean share with minus without), ``playouts`` (its paired play-outs)."""
    per_state = (pairs.assign(size=pairs["diff"].abs()).groupby(["label", "phase", "state"], sort=False)
                 .agg(diff=("diff", "mean"), playouts=("playouts", "sum"), moved=("size", "max")).reset_index())
    sums = {"value": ("diff", "mean"), "sd": ("diff", "std"), "states": ("diff", "size"),
            "playouts": ("playouts", "sum"), "moved": ("moved", "max")}
    parts = [per_state.groupby(["label", "phase"]).agg(**sums)]
    names = [*phases, ALL] if len(phases) > 1 else list(phases)
    if len(phases) > 1:
        pooled = per_state.groupby("label").agg(**sums)
        parts.append(pooled.assign(phase=ALL).set_index("phase", append=True))
    table = pd.concat(parts)
    index = pd.MultiIndex.from_product([list(dict.fromkeys(labels)), names], names=["label", "phase"])
    table = table.reindex(index)
    n = table["states"].fillna(0).to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        half = student_half(table["sd"].to_numpy(), n)
    half = np.where(n >= 2, half, np.nan)
    value = table["value"].to_numpy()
    # a card whose swap changed no play-out in any state: its CI is +0 to +0 by construction, not
    # a measured one (said "no play-out changed", never shown as an interval)
    unchanged = (n >= 1) & (table["moved"].to_numpy(dtype=float) == 0)
    return pd.DataFrame({"card": index.get_level_values(0), "phase": index.get_level_values(1), "value": value,
                         "ci_low": value - half, "ci_high": value + half, "states": n.astype(int),
                         "playouts": table["playouts"].fillna(0).to_numpy().astype(int), "unchanged": unchanged},
                        columns=VALUE_COLUMNS)


def decision_values(decisions: pd.DataFrame, phases: list[str], kinds: tuple[str, ...]) -> pd.DataFrame:
    """One row per (decision kind, phase) and per kind over every phase: the mean spread between the
    best and the worst option (``DECISION_COLUMNS``). ``decisions``: one row per sampled decision:
    ``kind`` (a name), ``phase``, ``spread`` (measured apart from the choice of the best and the
    worst option: players/card_value_nb.value_decisions), ``raw_spread`` (the largest mean minus the
    smallest: biased upward), ``options``, ``playouts``. ``unchanged``: the share of the decisions
    where no option changed any play-out's result."""
    rows = []
    for kind in kinds:
        mine = decisions[decisions["kind"] == kind]
        for phase in [*phases, ALL] if len(phases) > 1 else phases:
            part = mine if phase == ALL else mine[mine["phase"] == phase]
            mean, lo, hi = _student(part["spread"].to_numpy())
            rows.append({"kind": kind, "phase": phase, "spread": mean, "ci_low": lo, "ci_high": hi,
                         "raw_spread": float(part["raw_spread"].mean()) if len(part) else float("nan"),
                         "unchanged": float((part["raw_spread"] == 0).mean()) if len(part) else float("nan"),
                         "decisions": int(len(part)), "options": float(part["options"].mean()) if len(part) else 0.0,
                         "playouts": int(part["playouts"].sum())})
    return pd.DataFrame(rows, columns=DECISION_COLUMNS)


def with_observed(values: pd.DataFrame, observed: pd.DataFrame | None) -> pd.DataFrame:
    """The pooled values (phase ``ALL``, or the one phase) beside the card-impact table's figures
    (level "card", its first kind): ``observed``, ``observed_ci_low``, ``observed_ci_high`` and
    ``verdict`` (``beside_verdict``): "overstates" or "understates" when the table's figure and the
    value differ beyond their intervals after a Bonferroni adjustment over the cards compared,
    "agrees" otherwise, "" where there is nothing to compare (no table row, an interval unknown,
    or a card whose swap changed no play-out: its +0 to +0 is not a measured interval)."""
    phases = values["phase"].unique()
    pooled = values[values["phase"] == (ALL if ALL in phases else phases[0])].copy()
    pooled["observed"] = np.nan
    pooled["observed_ci_low"] = np.nan
    pooled["observed_ci_high"] = np.nan
    pooled["verdict"] = ""
    if observed is None or observed.empty:
        return pooled.reset_index(drop=True)
    cards = observed[observed["level"] == "card"]
    cards = cards[cards["kind"] == cards["kind"].iloc[0]].set_index("subject")
    for i, row in pooled.iterrows():
        if row["card"] in cards.index:
            obs = cards.loc[row["card"]]
            pooled.loc[i, ["observed", "observed_ci_low", "observed_ci_high"]] = (
                obs["difference"], obs["ci_low"], obs["ci_high"])
    compared = (np.isfinite(pooled["ci_low"].astype(float)) & np.isfinite(pooled["observed_ci_low"].astype(float))
                & ~pooled["unchanged"].astype(bool))
    for i in pooled.index[compared]:
        row = pooled.loc[i]
        pooled.loc[i, "verdict"] = beside_verdict(Interval(row["observed"], row["observed_ci_low"], row["observed_ci_high"]),
                                                  Interval(row["value"], row["ci_low"], row["ci_high"]),
                                                  int(compared.sum()))
    return pooled.reset_index(drop=True)


def beside_verdict(observed: Interval, value: Interval, comparisons: int) -> str:
    """The card-impact table's figure against the card's value, by the statistics core's one rule
    (stats.weigh, at the Bonferroni level over ``comparisons`` cards): "overstates" when the two
    differ and the table's figure is further from 0, "understates" when the value is, "goes the
    other way" when the two intervals exclude 0 on opposite sides, "agrees" otherwise. A table of 40
    interchangeable cards so names none by chance (at most ``ALPHA`` of such tables name one)."""
    return weigh(observed, value, comparisons)


def _ci(row) -> tuple[float, float]:
    return float(row["ci_low"]), float(row["ci_high"])


def _names(rows: pd.DataFrame, most: int = 6) -> str:
    return ", ".join(rows["card"].head(most)) + (f" and {len(rows) - most} more" if len(rows) > most else "")


LOOK = {"strongest": " If that is more than the design means it to be, look at its copies in the deck or what its "
                     "rule gives (card_value.json's priority lists the cards by the size of their value).",
        "weakest": " A card its holder would rather not have: look at whether it is meant to be a burden."}


def _standouts(table: pd.DataFrame, th: dict) -> list[Finding]:
    """The strongest and the weakest card to hold, each named only when told apart from every other
    card after the multiplicity adjustment of stats.standout (never the same card for both);
    otherwise one finding: no card stands out, with the largest and the smallest value."""
    estimates = table["value"].to_numpy(float)
    errors = standard_error(table["ci_low"], table["ci_high"])
    best, worst = standout(estimates, errors)
    out = []
    for index, side, word in ((best, "most", "strongest"), (worst, "least", "weakest")):
        if index is None:
            continue
        row = table.iloc[index]
        sure = row["ci_low"] > 0 if word == "strongest" else row["ci_high"] < 0
        rank = ranked(estimates, errors, index, side, "card", claim=f"The {word} card to hold is {row['card']}")
        out.append(Finding(
            f"card_value_{word}", severity(row["value"], _ci(row), th["card_effect_min"]) if sure else LOW,
            f"{words(rank)}, told apart from each of the {len(table) - 1} others: "
            f"holding it rather than a card its holder could have held instead is worth {pp(row['value'])} of the "
            f"holder's win ({ci_text(*_ci(row), pp)}; {row['states']:,} states){'' if sure else ', not told apart from 0'}."
            f"{LOOK[word] if sure and abs(row['value']) >= th['card_effect_min'] else ''}",
            float(row["value"]), _ci(row), "#values", decided_by=(rank,)))
    if best is None and worst is None and len(table) > 1:
        none = ranked(estimates, errors, None, "most", "card")
        hi, lo = table.loc[table["value"].idxmax()], table.loc[table["value"].idxmin()]
        out.append(Finding(
            "card_value_none_stands_out", LOW,
            f"{words(none).capitalize()}: none of the {len(table)} cards' values is told apart from every other's (each "
            f"compared with the {len(table) - 1} others, adjusted for the comparisons). The largest is "
            f"{hi['card']}'s, {pp(hi['value'])} ({ci_text(*_ci(hi), pp)}), the smallest {lo['card']}'s, "
            f"{pp(lo['value'])} ({ci_text(*_ci(lo), pp)}).", float(hi["value"]), _ci(hi), "#values",
            decided_by=(none,)))
    return out


def why_apart(verdict: str, selection: str | None, observed_kind: str | None) -> str:
    """Why the card-impact table's figure and the value can differ, in words that hold for the game:
    who gets to hold a card only where the game's players can link holding it to winning
    (``selection``, core/spec.CardSwap.selection); where cards are handed out blind, the two
    measure different moments."""
    if selection is None:
        return (f"and not because of who gets to hold it (the game hands cards out blind): the table compares the "
                f"seats that had it{f' ({observed_kind})' if observed_kind else ''} with those that did not over "
                "whole games, the value the same sampled moment with and without it")
    if verdict == OVERSTATES:
        return f"most of the difference is who gets to hold it ({selection})"
    return f"who holds it hides part of what it does ({selection})"


def card_value_findings(values: pd.DataFrame, beside: pd.DataFrame, decisions: pd.DataFrame | None, th: dict,
                        game: str, observed_kind: str | None = None,
                        selection: str | None = SELECTION_UNSAID) -> list[Finding]:
    """The strongest and the weakest card (each only when told apart from every other card after a
    multiplicity adjustment: stats.standout; otherwise "no card stands out"), the cards whose swap
    changed no play-out, the cards worth nothing, where the card-impact table overstates or
    understates a card's value (``with_observed``), and decision kinds that never matter (or matter
    most). ``th``: the findings' thresholds (``card_effect_min``, ``card_null_max``). ``selection``:
    how the game's players can link holding a card to winning (core/spec.CardSwap.selection; None:
    cards are handed out blind, so "who gets to hold it" explains nothing)."""
    out: list[Finding] = []
    pooled = beside[np.isfinite(beside["ci_low"].astype(float))]
    if pooled.empty:
        return [Finding("card_value_none", LOW, f"No card of {game} was held in enough sampled states to be valued "
                        "(at least 2 each): sample more states (--states).", None, None, "#values")]
    enough = pooled[pooled["states"] >= MIN_STATES]
    candidates = enough if len(enough) else pooled  # a card seen in 5 states is no candidate for the strongest
    out += _standouts(candidates, th)
    unchanged = pooled[pooled["unchanged"].astype(bool) & (pooled["states"] >= MIN_STATES)]
    if len(unchanged):
        one = len(unchanged) == 1
        out.append(Finding(
            "card_value_unchanged", LOW,
            f"{_names(unchanged)}: swapping {'it' if one else 'one'} out changed no play-out in any of "
            f"{int(unchanged['states'].min()):,} or more states: {'it is' if one else 'they are'} interchangeable with "
            f"the cards {'its' if one else 'their'} holder could have held instead (a value of 0 by construction, "
            "not a measured one).", 0.0, None, "#values"))
    measured = pooled[~pooled["unchanged"].astype(bool)]
    null = measured[(measured["ci_low"] >= -th["card_null_max"]) & (measured["ci_high"] <= th["card_null_max"])
                    & (measured["states"] >= MIN_STATES)]
    if len(null):
        widest = null.loc[(null["ci_high"] - null["ci_low"]).idxmax()]
        out.append(Finding(
            "card_value_null", LOW,
            f"{_names(null)} {'is' if len(null) == 1 else 'are'} worth no more than {100 * th['card_null_max']:.1f} "
            f"points either way to {'its' if len(null) == 1 else 'their'} holder (widest {ci_text(*_ci(widest), pp)}): "
            "holding one or a card of the hidden rest makes no measurable difference.",
            float(widest["value"]), _ci(widest), "#values"))
    apart = beside[beside["verdict"].isin([OVERSTATES, UNDERSTATES, REVERSED])]
    if len(apart):
        apart = apart.assign(gap=(apart["observed"] - apart["value"]).abs()).sort_values("gap", ascending=False)
        row = apart.iloc[0]
        more = f"; {len(apart) - 1} more card{'s' if len(apart) > 2 else ''} too" if len(apart) > 1 else ""
        compared_cards = int(beside["verdict"].isin([OVERSTATES, UNDERSTATES, REVERSED, AGREES]).sum())
        verdict = weighed(Interval(row["observed"], row["observed_ci_low"], row["observed_ci_high"]),
                          Interval(row["value"], row["ci_low"], row["ci_high"]), "the table", compared_cards)
        out.append(Finding(
            "card_value_confounded", MEDIUM,
            f"{row['card']}: the card-impact table says {pp(row['observed'])}"
            f"{f' ({observed_kind})' if observed_kind else ''}, holding it is worth {pp(row['value'])} "
            f"({ci_text(*_ci(row), pp)}): {words(verdict)} (the two differ beyond their intervals, "
            f"adjusted for the {compared_cards} cards compared), {why_apart(verdict.verdict, selection, observed_kind)}"
            f"{more}.", float(row["observed"] - row["value"]), None, "#beside", decided_by=(verdict,)))
    if decisions is not None and not decisions.empty:
        phases = decisions["phase"].unique()
        kinds = decisions[decisions["phase"] == (ALL if ALL in phases else phases[0])]
        kinds = kinds[kinds["decisions"] >= MIN_DECISIONS]
        for _, row in kinds.iterrows():
            n = f"{row['decisions']:,} decisions"
            if row["unchanged"] == 1.0:
                out.append(Finding(
                    "decision_never_matters", MEDIUM,
                    f"The {row['kind']} decision never matters: in {n} no option changed the result of any play-out "
                    "from the mover's view. Look at whether it should be a decision at all.", 0.0, None, "#decisions"))
            elif -th["card_null_max"] <= row["ci_low"] and row["ci_high"] <= th["card_null_max"]:
                out.append(Finding(
                    "decision_never_matters", MEDIUM,
                    f"The {row['kind']} decision never matters measurably: its best option brings "
                    f"{pp(row['spread'])} of the mover's win over its worst ({ci_text(*_ci(row), pp)}; {n}).",
                    float(row["spread"]), _ci(row), "#decisions"))
            elif (np.isfinite(row["ci_high"]) and -th["card_effect_min"] < row["ci_low"]
                  and row["ci_high"] < th["card_effect_min"]):
                out.append(Finding(
                    "decision_matters_little", LOW,
                    f"The {row['kind']} decision matters little: its best option brings {pp(row['spread'])} of the "
                    f"mover's win over its worst ({ci_text(*_ci(row), pp)}; {n}; options never changed a play-out "
                    f"in {row['unchanged']:.0%} of them).", float(row["spread"]), _ci(row), "#decisions"))
        # "matters most" only of a kind told apart from every other kind (stats.standout: the largest
        # of N spreads is otherwise the noisiest, not the one that matters most)
        rivals = kinds[np.isfinite(kinds["ci_low"].astype(float)) & (kinds["ci_high"] > kinds["ci_low"])]
        rivals = rivals.reset_index(drop=True)
        if len(rivals) > 1 and (rivals["ci_low"] > 0).any():
            index = int(rivals["spread"].astype(float).idxmax())
            top = rivals.iloc[index]
            rank = ranked(rivals["spread"].to_numpy(float), standard_error(rivals["ci_low"], rivals["ci_high"]),
                          index, "most", "decision kind", claim=f"The {top['kind']} decision matters most")
            said = (words(rank) if rank.verdict == APART else
                    f"The {top['kind']} decision has the largest spread, {words(rank)} decision kind")
            out.append(Finding(
                "decision_matters_most", LOW,
                f"{said}: its best option brings {pp(top['spread'])} of the mover's "
                f"win over its worst ({ci_text(*_ci(top), pp)}; {top['decisions']:,} decisions).",
                float(top["spread"]), _ci(top), "#decisions", decided_by=(rank,)))
    return out


CARD_VALUE_FILE = "card_value.json"


# Bounds of a card_value.json read back (`solve --card-values`): a game has tens of cards, a file of
# them some kB; 1.1 million priority entries were read (14 s) and used (qa54b).
CARD_VALUES_MOST_BYTES = 1 << 24
CARD_VALUES_MOST_CARDS = 10_000
MOST_PLAYERS = 64


def card_priority(source, game: str, labels: list[str] | None = None) -> list[dict]:
    """card-value's ``priority`` (the cards by the size of their value) for `solve --card-values`:
    from a card-value result, a card_value.json's contents, its path or its folder; checked against
    the shape card-value writes before anything uses it: ``game`` the solved game's, ``priority`` a
    list of objects, each with ``card`` a name and ``value`` a number (or null: no value), and
    ``ci_low``, ``ci_high``, ``states`` numbers or null where present. Anything else, a file that
    is not a regular file (a FIFO would block the read), is not JSON or is nested too deep for the
    parser, is one line naming it. Also refused (qa54b: each was used): a card not among ``labels``
    (the game's cards, when given), a card twice, a value or interval beyond a share's difference
    (-1 to 1), ``states`` not a whole number, ``players`` not a whole number, ``values`` not a list
    of objects, more than ``CARD_VALUES_MOST_CARDS`` entries or ``CARD_VALUES_MOST_BYTES`` bytes."""
    import json
    import math
    import stat
    from pathlib import Path

    from simbalance.core.errors import ConfigError

    where = f"--card-values {source}"
    expected = "expected the card_value.json that `simbalance card-value` writes"
    if hasattr(source, "priority") and callable(source.priority):
        data = {"game": source.game, "priority": source.priority()}
    elif isinstance(source, dict):
        data = source
    else:
        path = Path(source)
        if path.is_dir():
            path = path / CARD_VALUE_FILE
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise ConfigError(f"{where}: {path} is not a regular file (a FIFO, a device); {expected}")
            if info.st_size > CARD_VALUES_MOST_BYTES:
                raise ConfigError(f"{where}: {info.st_size:,} bytes; a card_value.json has at most "
                                  f"{CARD_VALUES_MOST_BYTES:,} (a few kB for a game's cards); {expected}")
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:  # valid JSON too deep for the parser: RecursionError
            reason = (exc.strerror if isinstance(exc, OSError) and exc.strerror else
                      "nested too deep" if isinstance(exc, RecursionError) else "not JSON")
            raise ConfigError(f"{where}: cannot read it ({reason}); {expected}") from None
    if not isinstance(data, dict) or not isinstance(data.get("priority"), list):
        raise ConfigError(f"{where}: no card values in it; {expected}")
    if not isinstance(data.get("game"), str):  # it said "the card values of None"
        raise ConfigError(f"{where}: game = {json.dumps(data.get('game'))[:40]}: expected the game's id (a string, "
                          f"{game!r}); {expected}")
    if data.get("game") != game:
        raise ConfigError(f"{where}: the card values of {data.get('game')!r}, not of {game!r}")
    players = data.get("players")
    if "players" in data and (isinstance(players, bool) or not isinstance(players, int)
                              or not 1 <= players <= MOST_PLAYERS):
        raise ConfigError(f"{where}: players = {json.dumps(players)[:40]}: expected a whole number from 1 to "
                          f"{MOST_PLAYERS}")
    values = data.get("values")
    if "values" in data and not (isinstance(values, list) and all(isinstance(v, dict) for v in values)):
        bad = next((i for i, v in enumerate(values) if not isinstance(v, dict)), None) if isinstance(values, list) else None
        shown = f"values[{bad}] = {json.dumps(values[bad])[:40]}" if bad is not None else f"values = {json.dumps(values)[:40]}"
        raise ConfigError(f"{where}: {shown}: expected a list of objects (one per card and phase); {expected}")
    if len(data["priority"]) > CARD_VALUES_MOST_CARDS:
        raise ConfigError(f"{where}: priority has {len(data['priority']):,} entries; at most "
                          f"{CARD_VALUES_MOST_CARDS:,} (one per card)")

    def number_or_null(value) -> bool:
        return value is None or (isinstance(value, int | float) and not isinstance(value, bool)
                                 and math.isfinite(value))

    seen: set[str] = set()
    for i, entry in enumerate(data["priority"]):
        at = f"{where}: priority[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{at} = {json.dumps(entry)[:40]}: expected an object with card and value; {expected}")
        if not isinstance(entry.get("card"), str):
            raise ConfigError(f"{at}.card = {json.dumps(entry.get('card'))[:40]}: expected a card's name (a string)")
        card = entry["card"]
        for key in ("value", "ci_low", "ci_high", "states"):
            if key == "value" and key not in entry:
                raise ConfigError(f"{at} ({card}): no value; {expected}")
            if not number_or_null(entry.get(key)):
                raise ConfigError(f"{at}.{key} = {json.dumps(entry[key])[:40]} ({card}): expected a number "
                                  "or null")
            got = entry.get(key)
            if got is None:
                continue
            if key == "states" and (not float(got).is_integer() or got < 0):
                raise ConfigError(f"{at}.states = {json.dumps(got)[:40]} ({card}): expected a whole number of "
                                  "states, 0 or more")
            if key != "states" and not -1 <= got <= 1:  # a difference of two win rates
                raise ConfigError(f"{at}.{key} = {json.dumps(got)[:40]} ({card}): allowed -1 to 1 (a difference of "
                                  "win rates)")
        if labels is not None and card not in labels:
            from simbalance.core.errors import did_you_mean

            raise ConfigError(f"{at}.card = {json.dumps(card)[:60]}: not a card of {game}{did_you_mean(card, labels)}")
        if card in seen:
            raise ConfigError(f"{at}.card = {json.dumps(card)[:60]}: given twice; each card once")
        seen.add(card)
    return data["priority"]
