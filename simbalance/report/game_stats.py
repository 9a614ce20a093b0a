"""The engine's own statistics (``summary["game"]``, each engine's ``summarize``) as a designer reads
them: labelled tables and charts instead of a dump of keys.

The shapes of the values decide the form: per-seat lists make one table with a column per player,
histograms (``*_hist``) become charts, percentiles one row of a distribution table, a table of
tables (bodies, powers, strategies) a table with a row each, scalars a table of their own. Every key
gets words: ``LABELS`` for the keys the engines write today, a readable fallback for a new key.
"""

from __future__ import annotations

import re
from html import escape

import numpy as np

from simbalance.report.html import num, pct, table

# Words for the engines' keys (the same key means the same thing in every game that writes it).
LABELS = {
    # captain-action
    "share_called": "games ended by a call",
    "share_countdown_out": "games ended by the Countdown Deck running out",
    "call_share": "calls (share of games)",
    "countdown_left_at_call_mean": "Countdown cards left at the call (mean; the caller's bonus)",
    "countdown_left_at_call": "Countdown cards left at the call (the caller's bonus)",
    "score": "final score",
    "hand_score": "final hand score (sets only)",
    "takes": "cards taken from the discard pile",
    "share_caller_wins": "games the caller wins (a tie shares the win)",
    "calls_per_game": "calls per game",
    "score_mean": "final score (mean)",
    # captain-future
    "ships_board": "ships on the board at the end",
    "ships_supply": "ships left in supply",
    "ships_lost": "ships lost",
    "full_control": "bodies in full control",
    "majorities": "bodies with a majority",
    "attacks_majority": "attacks as the majority holder",
    "attacks_present": "attacks with a ship present",
    "attacks_absent": "attacks with no ship there",
    "attacks_per_game": "attacks per game",
    "events_per_game": "event cards played per game",
    "exchanges_per_game": "card exchanges per game",
    "end_triggered": "games whose end this player triggered",
    "bodies": "control of each body at the end (share of games)",
    "full_control_by_winner": "full control by a winner",
    "majority_by_winner": "majority by a winner",
    "majority": "majority",
    "space_held_share_mean": "landing spaces held at the end (mean share)",
    "space_held_by_winner_share_mean": "landing spaces held by a winner at the end (mean share)",
    "simon_wright": "Simon Wright", "recall": "Recall", "otto": "Otto", "grag": "Grag",
    "present": "with a ship present", "absent": "with no ship there",
    # lady-actions-escape
    "reversals_mean": "reversals per game", "draw_twos_mean": "draw-two cards per game",
    "reshuffles_mean": "reshuffles of the discard pile per game", "passes_mean": "passes per game",
    "wilds_played_mean": "wildcards played per game", "share_with_reshuffle": "games with a reshuffle",
    "plays": "cards played", "drawn": "cards drawn", "cards_left": "cards left at the end",
    "cards_left_losers_mean": "cards left in a losing hand (mean)",
    # aquaman
    "mean_missions_per_seat": "missions per player and game", "fights_per_game": "fights per game",
    "share_of_fights_decided": "fights with a winner", "cards_stolen_per_game": "cards stolen per game",
    "deck_refills_per_game": "deck refills per game", "missions_per_seat_game": "missions per game",
    "fights_per_seat_game": "fights per game", "fights_won_share": "fights won",
    "stolen_per_seat_game": "cards stolen per game", "board_cards_per_seat_game": "board cards taken per game",
    "foe_hits_per_seat_game": "foe hits per game", "power_uses_per_seat_game": "power uses per game",
    "powers": "powers: use, and the win rate of the players who used them (a correlation, not an effect)",
    "uses_per_seat_game": "uses per player and game", "share_of_seats_using": "players using it",
    "win_rate_when_used": "win rate when used", "win_rate_when_not_used": "win rate when not used",
    "sea_creature": "sea creature",
    # find-dr-evil
    "share_won_by_seat_dealt_dr_ling": "games won by the player dealt Dr. Ling",
    # shared
    "by_strategy_slot": "by strategy",
}

PERCENT = re.compile(r"(^|_)(share|rate|win_rate)(_|$)")


def label(key: str) -> str:
    """Words for a key: from ``LABELS``, else the key made readable (``mean_x_by_seat`` -> ``x``)."""
    if key in LABELS:
        return LABELS[key]
    base = re.sub(r"^mean_|_mean$|_by_seat$", "", key)
    if base in LABELS:
        return LABELS[base]
    return base.replace("_", " ")


# Inside a table of tables, a column may read differently from the same key elsewhere.
LABELS_IN = {"bodies": {"full_control": "full control", "majority": "majority (full control included)",
                        "full_control_by_winner": "full control by a winner",
                        "majority_by_winner": "majority by a winner"}}
PERCENT_TABLES = ("bodies",)  # tables whose values are all shares of the games
PERCENT_KEYS = ("end_triggered_by_seat", "call_share_by_seat")


def is_percent(key: str, parent: str = "") -> bool:
    return parent in PERCENT_TABLES or bool(PERCENT.search(key)) or key in PERCENT_KEYS


def value(key: str, v, parent: str = "") -> str:
    if isinstance(v, (int, float)) and not isinstance(v, bool) and is_percent(key, parent):
        return pct(v)
    return num(v)


def column(parent: str, key: str) -> str:
    return LABELS_IN.get(parent, {}).get(key) or label(key)


def _row_name(parent: str, key: str, slot_names: tuple[str, ...]) -> str:
    if parent == "by_strategy_slot" and str(key).isdigit() and int(key) < len(slot_names):
        return slot_names[int(key)]
    text = label(str(key))
    return text[:1].upper() + text[1:]


def _is_hist(key: str, v) -> bool:
    return key.endswith("_hist") and isinstance(v, dict) and all(str(k).lstrip("-").isdigit() for k in v)


def split(game: dict, players: int) -> dict:
    """The engine's statistics sorted by form: ``per_player`` (key -> list), ``hists`` (key -> {x:
    count}), ``percentiles`` (key -> {q: v}), ``tables`` (key -> {row: {col: v}}), ``groups``
    (key -> {name: v}), ``scalars`` (key -> v)."""
    out = {"per_player": {}, "hists": {}, "percentiles": {}, "tables": {}, "groups": {}, "scalars": {}}
    for key, v in game.items():
        if isinstance(v, list) and len(v) == players and key.endswith("_by_seat"):
            out["per_player"][key] = v
        elif _is_hist(key, v):
            out["hists"][key] = v
        elif key.endswith("_percentiles") and isinstance(v, dict):
            out["percentiles"][key] = v
        elif isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
            out["tables"][key] = v
        elif isinstance(v, dict):
            out["groups"][key] = v
        else:
            out["scalars"][key] = v
    return out


def hist_quantiles(hist: dict, qs=(5, 25, 50, 75, 95)) -> dict:
    """Mean and percentiles of a histogram the engine counted (value -> count)."""
    xs = np.array([int(k) for k in hist], dtype=float)
    counts = np.array(list(hist.values()), dtype=float)
    order = np.argsort(xs)
    xs, counts = xs[order], counts[order]
    total = counts.sum()
    if total <= 0:
        return {}
    cum = np.cumsum(counts)
    out = {"mean": float((xs * counts).sum() / total), "n": int(total)}
    for q in qs:
        out[str(q)] = float(xs[np.searchsorted(cum, q / 100 * total)])
    return out


def render(game: dict, players: int, slot_names: tuple[str, ...]) -> str:
    """The "Game statistics" section: labelled tables. A histogram is one row of the distributions
    (its mean and percentiles); its chart, when the engine draws one, is among the figures."""
    parts = split(game, players)
    html = []
    tables = []
    if parts["scalars"] or parts["groups"]:
        rows = [[escape(label(k)[:1].upper() + label(k)[1:]), value(k, v)] for k, v in parts["scalars"].items()]
        tables.append(table(["per game", "value"], rows, caption="Overall") if rows else "")
        for key, group in parts["groups"].items():
            tables.append(table([label(key), "value"], [[escape(_row_name(key, k, slot_names)), value(k, v, key)]
                                                         for k, v in group.items()], caption=label(key).capitalize()))
    if parts["per_player"]:
        rows = [[escape(label(k)[:1].upper() + label(k)[1:])] + [value(k, x) for x in v]
                for k, v in parts["per_player"].items()]
        tables.append(table(["per player (mean per game)"] + [f"player {s + 1}" for s in range(players)], rows,
                            caption="By player"))
    dists = {k.removesuffix("_percentiles"): v for k, v in parts["percentiles"].items()}
    for k, hist in parts["hists"].items():
        base = k.removesuffix("_hist")
        dists[base] = {**hist_quantiles(hist), **dists.get(base, {})}
    if dists:
        qs = ["5", "25", "50", "75", "95"]
        rows = [[escape(label(k)[:1].upper() + label(k)[1:]), num(v.get("mean"))] + [num(v.get(q)) for q in qs]
                + [num(v.get("n"))] for k, v in dists.items()]
        tables.append(table(["distribution", "mean", "p5", "p25", "median", "p75", "p95", "counted"], rows,
                            caption="Distributions"))
    html.append("<div class='tables'>" + "".join(tables) + "</div>")
    for key, rows in parts["tables"].items():
        cols = list(dict.fromkeys(c for r in rows.values() for c, v in r.items() if not isinstance(v, dict)))
        nested = list(dict.fromkeys(c for r in rows.values() for c, v in r.items() if isinstance(v, dict)))
        name = "strategy" if key == "by_strategy_slot" else "body" if key == "bodies" else ""
        body = [[escape(_row_name(key, r, slot_names))] + [value(c, rows[r].get(c), key) for c in cols]
                for r in rows]
        if cols:
            html.append(table([name] + [column(key, c) for c in cols], body, caption=label(key).capitalize()))
        for c in nested:
            inner = list(dict.fromkeys(k for r in rows.values() for k in (r.get(c) or {})))
            body = [[escape(_row_name(key, r, slot_names))] + [value(k, (rows[r].get(c) or {}).get(k), c)
                                                                for k in inner] for r in rows]
            html.append(table([name] + [label(k) for k in inner], body,
                              caption=f"{label(c).capitalize()}, {label(key)}"))
    return "\n".join(html)
