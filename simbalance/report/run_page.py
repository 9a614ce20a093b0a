"""The run's page, report.html: findings first, games worth watching, win rates by player, outcomes,
length, figures, the engine's statistics in words, card impact sorted by effect."""

from __future__ import annotations

import json
from html import escape

from simbalance.analysis.check import format_difference
from simbalance.analysis.findings import Finding, p_value
from simbalance.report import game_stats
from simbalance.report.html import command_block, figures, num, page, pct, sub_line, table

TOP_CARDS = 5  # the largest and the smallest differences, shown before the whole table


def verdict(summary: dict) -> str:
    """One plain sentence on seat balance, from the chi-square test and the largest gap."""
    test = summary["equal_seats_chi_square"]
    if test["p_value"] is None or summary["balance"] is None:
        return "No game had a winner: seat balance cannot be judged."
    gap = 1 - summary["balance"]
    if test["p_value"] < 0.01:
        return (f"Players' seats are <b>not</b> equal (chi-square {p_value(test['p_value'])}); the largest gap "
                f"between two players is {pct(gap)} of the games with a winner.")
    return (f"No evidence that seats differ (chi-square {p_value(test['p_value'])}); the largest gap between "
            f"two players is {pct(gap)}, within noise at this number of games.")


def seat_rows(summary: dict, seat_strategy: list[str] | None) -> list[list[str]]:
    rows = []
    for s in summary["seats"]:
        rows.append([f"player {s['seat'] + 1}", escape(seat_strategy[s["seat"]]) if seat_strategy else "rotated",
                     pct(s["win_rate"]), f"{pct(s['ci_low'])} to {pct(s['ci_high'])}",
                     pct(s["win_rate_decided"]), num(s["games"])])
    return rows


def strategy_rows(summary: dict) -> list[list[str]]:
    return [[escape(s["strategy"]), pct(s["win_rate"]), f"{pct(s['ci_low'])} to {pct(s['ci_high'])}",
             pct(s["win_rate_decided"]), num(s["seat_games"])] for s in summary["strategies"]]


def _pp(v) -> str:
    return "n/a" if v is None or v != v else f"{100 * v:+.1f} pp"


def _card_ci(c: dict) -> str:
    """A card's 95% CI as the table shows it: a zero-width one is no measured interval (every
    seat-game alike on both sides: nothing varied to measure), and says so."""
    lo, hi = c["ci_low"], c["ci_high"]
    if lo is not None and lo == lo and lo == hi:
        return "none: no seat-game varied"
    return f"{_pp(lo)} to {_pp(hi)}"


def _card_row(c: dict) -> list[str]:
    copies = int(c.get("copies") or 1)
    return [escape(c["subject"]), str(copies) if copies > 1 else "", num(c["seat_games_with"]),
            pct(c["win_rate_with"]), pct(c["win_rate_without"]), f"<b>{_pp(c['difference'])}</b>",
            _card_ci(c), _pp(c["difference_length_adjusted"])]


def extremes(rows: list[dict]) -> tuple[dict | None, dict | None]:
    """The card that helps its holder most and the one that hurts most, each only when told apart
    from every other card of the table after the multiplicity adjustment of stats.standout (the
    CIs are game-clustered: analysis/cards.py); None where the extremes' CIs overlap the rest."""
    from simbalance.analysis.stats import standard_error, standout

    measured = [c for c in rows if c["difference"] is not None and c["difference"] == c["difference"]
                and c["ci_low"] is not None and c["ci_low"] == c["ci_low"] and c["ci_high"] > c["ci_low"]]
    best, worst = standout([c["difference"] for c in measured],
                           standard_error([c["ci_low"] for c in measured], [c["ci_high"] for c in measured]))
    return (None if best is None or measured[best]["difference"] <= 0 else measured[best],
            None if worst is None or measured[worst]["difference"] >= 0 else measured[worst])


def _extremes_words(rows: list[dict]) -> str:
    """Which card helps most and which hurts most, said only when told apart (``extremes``)."""
    best, worst = extremes(rows)
    n = len(rows)
    said = []
    for card, words in ((best, "helps its holder most"), (worst, "hurts its holder most")):
        if card is not None:
            said.append(f"<b>{escape(card['subject'])}</b> {words}, told apart from each of the other cards")
    if not said:
        return (f"<p>No card stands out: neither the largest nor the smallest difference is told apart from every "
                f"other card's (each compared with the {n - 1} others, adjusted for the comparisons).</p>")
    return "<p>" + "; ".join(said) + f" (each compared with the {n - 1} others, adjusted for the comparisons).</p>"


CARD_HEADS = ["card", "copies", "seat-games with it", "win rate with", "without", "difference", "95% CI",
              "length-adjusted"]


def sorted_cards(cards: list[dict], kind: str, level: str = "card") -> list[dict]:
    """One kind's cards (or groups), the strongest effect first: by difference, highest to lowest;
    a card never held (no difference) last."""
    rows = [c for c in cards if c["kind"] == kind and c["level"] == level]
    return sorted(rows, key=lambda c: -(c["difference"] if c["difference"] == c["difference"]
                                        and c["difference"] is not None else -1e9))


def card_section(cards: list[dict], images: dict[str, bytes]) -> str:
    parts = ["<h2 id='cards'>Card impact</h2><p>Win rate of the seat-games that had the card against those that "
             "did not (95% CI, clustered by game: a game's seats are not independent), in percentage points; copies "
             "of one card make one row (having at least one). The "
             "length-adjusted difference compares games of similar length, which removes the survivor bias of "
             "cards seen only in long games. It is an observation: a card held by whoever is already winning looks "
             "strong. What holding a card is worth, the same game with and without it, is "
             "<code>simbalance card-value</code>'s (docs/card_value.md).</p>"]
    for kind in dict.fromkeys(c["kind"] for c in cards):
        rows = sorted_cards(cards, kind)
        parts.append(f"<h3>{escape(kind.capitalize())}</h3>")
        parts.append(_extremes_words(rows))
        if len(rows) > 2 * TOP_CARDS:
            best = [r for r in rows[:TOP_CARDS] if (r["difference"] or 0) > 0]
            worst = [r for r in rows[::-1][:TOP_CARDS] if (r["difference"] or 0) < 0]
            parts.append("<div class='tables'>")
            if best:
                parts.append(table(CARD_HEADS, [_card_row(c) for c in best], caption="The largest differences"))
            if worst:
                parts.append(table(CARD_HEADS, [_card_row(c) for c in worst], caption="The smallest differences"))
            parts.append("</div>")
        name = f"card_impact_{kind.replace(' ', '_')}"
        if name in images:
            parts.append(figures({name: images[name]}))
        every = table(CARD_HEADS, [_card_row(c) for c in rows])
        if len(rows) > 2 * TOP_CARDS:
            parts.append(f"<details><summary>Every card ({len(rows)}), the most helpful first</summary>{every}</details>")
        else:
            parts.append(every)
        groups = sorted_cards(cards, kind, "group")
        if groups:
            parts.append(table(["group"] + CARD_HEADS[1:], [_card_row(c) for c in groups],
                               caption="Groups of cards (having any card of the group)"))
    return "\n".join(parts)


def notable_section(notable: list[dict]) -> str:
    if not notable:
        return ""
    rows = [[escape(n["what"]).capitalize(), f"game {n['game']:,}", escape(n["why"]), f"<code>{escape(n['command'])}</code>"]
            for n in notable]
    return ("<h2 id='watch'>Watch a game</h2><p>Each command prints the game move by move, exactly as this run "
            "played it.</p>" + table(["", "which", "why", "replay it"], rows, text_cols=4))


def stalemate_section(summary: dict) -> str:
    """Why games ended as stalemates: each reason the engine named, with its share of all games."""
    rows = [[f"<b>{escape(r['reason'])}</b>", escape(r.get("description") or ""), f"{int(r['games']):,}",
             pct(float(r["share"]), 3)] for r in summary.get("stalemates") or [] if r.get("games")]
    if not rows:
        return ""
    return ("<p>A game that goes on without progress for the engine's window (<code>rules.stalemate_window</code>) "
            "ends as a stalemate, named by what its last turns were made of:</p>"
            + table(["reason", "what happened", "games", "of all games"], rows, caption="Stalemates by reason",
                    text_cols=2))


def _share(v) -> str:
    return "n/a" if v is None else pct(float(v))


def _in_unit(v, unit: str) -> str:
    """A length with its unit, to two decimals at most (``12.5 turns``, not ``12.4983``)."""
    return "n/a" if v is None else f"{float(v):,.2f}".rstrip("0").rstrip(".") + f" {escape(unit)}"


def _mean(v, digits: int = 2) -> str:
    return "n/a" if v is None else f"{float(v):,.{digits}f}"


def whole_game_section(summary: dict) -> str:
    """The whole-game metrics (docs/metrics.md): how the lead moves over a game, by the engine's
    progress measure; nothing for an engine that tracks none."""
    lead = summary.get("lead")
    if not lead:
        return ""
    # every figure with its unit: margins and deficits are in the engine's progress measure
    # (``progress`` below: points, sets, cards held, ...), not in points of a share
    unit = "of the progress measure"
    rows = [
        ["lead changes per game (mean)", _mean(lead.get("lead_changes_mean")), "changes"],
        ["changes of the leading players per round (mean)", _mean(lead.get("lead_change_rate"), 3), "changes"],
        ["margin of the leader over the second, per round (mean)", _mean(lead.get("mean_margin")), unit],
        ["decisiveness: the winner leads for good from this share of the game on (mean)",
         _share(lead.get("decisiveness")), "of the game"],
        ["the winner never trailed", _share(lead.get("never_behind")), "of the games"],
        ["comeback wins: the winner was last at some point", _share(lead.get("comeback_wins")), "of the games"],
        ["drama: the winner's mean deficit to the leader per round", _mean(lead.get("drama"), 3), unit],
        ["final margin: the winner over the second (mean)", _mean(lead.get("final_margin")), unit],
    ]
    rounds = [[f"after round {r['round']}", f"{int(r.get('games') or 0):,}",
               f"{int(r.get('decided_with_sole_leader') or 0):,}", _share(r.get("leader_wins")),
               "n/a" if r.get("ci_low") is None else f"{pct(r['ci_low'])} to {pct(r['ci_high'])}",
               _share(r.get("fair_share"))] for r in lead.get("rounds") or []]
    progress = escape(lead.get("progress") or "the engine's progress measure")
    single = int(lead.get("single_winner_games") or 0)
    return "".join([
        "<h2 id='whole-game'>Whole game</h2>",
        f"<p>How the lead moves during a game, by {progress}, checked once a round; over the "
        f"{int(lead.get('games') or 0):,} games that track it (winner metrics: the {single:,} games with one winner). "
        "Definitions in docs/metrics.md.</p>",
        table(["metric", "value", "unit"], rows, text_cols=1),
        table(["the sole leader", "games reaching it", "with a sole leader", "goes on to win", "95% CI", "fair"],
              rounds, caption="Does the early leader win?", text_cols=1) if rounds else "",
    ])


def strong_play_section(strong: dict | None, summary: dict) -> str:
    """`run --robust`: the search sample's seats and the verdicts by effect size on the run's seat
    gap and its first-player effect (analysis/robustness)."""
    if not strong:
        return ""
    from simbalance.analysis.robustness import StrongPlay, seat_robustness, strong_play_words

    sample = StrongPlay.from_dict(strong)
    stop = (f"until every seat's 95% CI was within ±{100 * strong['precision']:g} points" if strong["reached"] else
            f"to its cap of {strong['most']:,} games, <b>which stopped it before</b> every seat's 95% CI was within "
            f"±{100 * strong['precision']:g} points")
    rows = [[f"player {s + 1}", pct(seat["win_rate"]), f"{pct(seat['ci_low'])} to {pct(seat['ci_high'])}"]
            for s, seat in enumerate(strong["seats"])]
    verdicts = [("Seat gap (the run's best player minus its worst)", seat_robustness(summary, sample)),
                ("First-player effect", strong["first_player"])]
    return "".join([
        "<h2 id='strong-play'>Under strong play</h2>",
        f"<p>Beside this run, {strong['games']:,} games with every seat {escape(strong['model'])} (a search player: "
        f"no game knowledge beyond the rules), on a seed of their own (the run's games are the same with and "
        f"without them), played {stop}. Each effect of the run is read against the same effect there, by its size: "
        "holds, smaller, larger, reversed or not settled (docs/findings.md, \"Under strong play\").</p>",
        *[f"<p class='verdict'>{what}: {escape(strong_play_words(check, sample))}</p>" for what, check in verdicts],
        table(["player", "of decided games", "95% CI"], rows, caption=f"All {escape(strong['model'])}", text_cols=1),
        f"<p>{escape(no_winner_words(strong['games'], strong['decided']))} "
        f"{escape(evaluation_words(strong.get('evaluation')))}</p>",
    ])


def run_evaluation_paragraph(manifest: dict) -> str:
    """Under the win rates, where the run's search seats played: which fit scored their cut play-outs."""
    told = manifest.get("search_evaluation")
    if not told:
        return ""
    return f"<p>{escape(evaluation_words(told.get('provenance'), SEARCH_SEATS))}</p>"


SEARCH_SEATS = "This run's search seats"


def no_winner_words(games: int, decided: int) -> str:
    """How many of a search sample's games ended with no winner (a stalemate or a timeout)."""
    stalled = games - decided
    return f"{stalled:,} of its {games:,} games ({pct(stalled / games) if games else '-'}) ended with no winner."


def evaluation_words(told: dict | None, who: str = "Its search seats") -> str:
    """Where the fitted evaluation a search seat scored its cut play-outs with came from (manifest.json's
    ``search_evaluation.provenance``; issue 53): committed or refitted for these rules, its games,
    seed, rules digest and how well it predicts held-out games."""
    if not told:
        return f"{who} played to the end or scored cut play-outs by the game's hand-written evaluation."
    where = ("the committed fit (" + told["path"].split("configs/")[-1] + ")" if told["source"] == "committed"
             else "a fit refitted on the fly for these rules (cached)")
    quality = ""
    if told.get("held_out_log_loss") is not None:
        quality = (f"; held-out log-loss {told['held_out_log_loss']:.3f} against {told['uniform_log_loss']:.3f} "
                   f"uniform, the leader it predicts wins {pct(told['held_out_accuracy'])}")
    stalls = (f", {told['no_winner_games']:,} of them with no winner, fitted as such" if told.get("no_winner_fitted")
              else "")
    return (f"{who} scored cut play-outs by the fitted evaluation: {where}, {told['games']:,} games of "
            f"{', '.join(told.get('strategies') or [])}{stalls}, seed {told['seed']}, rules digest "
            f"{told['rules_digest']}, engine v{told['engine_version']}{quality}.")


def render_report(manifest: dict, summary: dict, images: dict[str, bytes], findings: list[Finding] | None = None,
                  notable: list[dict] | None = None, seat_strategy: list[str] | None = None,
                  strong: dict | None = None) -> str:
    """The whole page. ``images``: figure name -> PNG; ``card_impact_*`` go to the card section,
    ``stats_*`` to the game statistics, the others to Figures. ``seat_strategy``: each player's
    strategy (None when seats are rotated). ``strong``: `run --robust`'s sample (findings.json's
    ``strong_play``)."""
    fpa = summary["first_player_advantage"]
    length = summary["length"]
    out = summary["outcomes"]
    players = manifest["players"]
    general = {k: v for k, v in images.items() if not k.startswith("card_impact_")}
    parts = [
        notable_section(notable or []),
        "<h2 id='win-rates'>Win rates</h2>",
        f"<p class='verdict'>{verdict(summary)}</p>",
        "<p>Players are numbered from 1 in the order they play (player 1 starts); the tables and files keep "
        "seats numbered from 0 (seat 0 is player 1).</p>",
        "<div class='tables'>",
        table(["player", "strategy", "win rate", "95% CI", "of decided games", "games"],
              seat_rows(summary, seat_strategy), caption="By player", text_cols=2),
        table(["strategy", "win rate per seat", "95% CI", "of decided games", "seat-games"],
              strategy_rows(summary), caption="By strategy"),
        "</div>",
        run_evaluation_paragraph(manifest),
        strong_play_section(strong, summary),
        "<h2 id='outcomes'>Outcomes</h2>",
        table(["metric", "value"], [
            [f"first-player advantage (player 1's share of the decided games − 1/{players})",
             "n/a (no game had a winner)" if fpa["value"] is None else
             # a difference of shares: in percentage points, as check and sweep say it
             f"{format_difference(fpa['value'], 'share')} (95% CI {format_difference(fpa['ci_low'], 'share')} "
             f"to {format_difference(fpa['ci_high'], 'share')})"],
            ["balance (1 − largest gap between players' shares of the decided games)",
             "n/a" if summary["balance"] is None else f"{summary['balance']:.2%}"],
            ["chi-square, all seats equal", f"{num(summary['equal_seats_chi_square']['statistic'])} "
             f"({p_value(summary['equal_seats_chi_square']['p_value'])})"],
            ["games with a winner", pct(out["decided"])],
            ["ties (shared wins)", pct(out["ties"])],
            ["timeouts (cap reached)", pct(out["timeouts"], 3)],
            ["stalemates", pct(out["stalemates"], 3)],
        ]),
        stalemate_section(summary),
        whole_game_section(summary),
        f"<h2 id='length'>Game length ({escape(length['unit'])})</h2>",
        table(["mean", "standard deviation", "p5", "p25", "median", "p75", "p95", "max"],
              [[_in_unit(length.get(k), length["unit"]) for k in ("mean", "sd", "p5", "p25", "p50", "p75", "p95", "max")]],
              text_cols=0),
        "<h2 id='figures'>Figures</h2><p class='dig'>Click a figure to enlarge it, click again to close.</p>",
        figures(general),
    ]
    if summary.get("game"):
        parts.append("<h2 id='game-stats'>Game statistics</h2>")
        if summary.get("sampled_games"):
            parts.append(f"<p>From the first {summary['sampled_games']:,} games of the run.</p>")
        parts.append(game_stats.render(summary["game"], players, tuple(manifest["strategies"]["slots"])))
    if summary.get("cards"):
        parts.append(card_section(summary["cards"], images))
    parts.append(command_block(manifest["command"]))
    parts.append("<details><summary>Resolved config and manifest</summary><pre>"
                 f"{escape(json.dumps(manifest, indent=2, default=str))}</pre></details>")
    origin = manifest.get("game_origin", "built-in")  # a plug-in game: its package and version
    sub = sub_line(f"{manifest['n']:,} games", f"{players} players", f"seed {manifest['seed']}",
                   f"engine v{manifest['engine_version']}", *([origin] if origin != "built-in" else []),
                   f"{manifest['games_per_s']:,.0f} games/s", manifest["created_utc"])
    checked = ("no seat imbalance, degenerate length, runaway games, ties or cards beyond the thresholds"
               if findings is not None else "")
    return page(f"{manifest['game']} — simbalance", manifest["game"], sub, *parts, findings=findings,
                checked=checked)
