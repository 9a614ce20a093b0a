"""The pages read as a designer reads: findings first, players numbered from 1, the engine's keys in
words, card impact sorted by effect with copies together, figures that enlarge, every page kind."""

import json
import re
from html.parser import HTMLParser

import pytest

import simbalance
from simbalance.analysis.findings import Finding
from simbalance.report import game_stats
from simbalance.report.compare_page import write_compare_folder
from simbalance.report.html import embed_png, findings_html, png_size
from simbalance.report.run_folder import write_run_folder
from simbalance.report.skill_page import write_skill_folder
from simbalance.report.sweep_page import write_sweep_folder
from simbalance.report.tournament_page import write_tournament_folder
from simbalance.report.tune_page import write_tune_folder


class Text(HTMLParser):
    """The page's visible text (without style), and its tables as lists of rows."""

    def __init__(self):
        super().__init__()
        self.text, self.tables, self._skip, self._cell = [], [], 0, None

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._skip += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self._skip -= 1
        elif tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)
            if self._cell is not None:
                self._cell.append(data)


def read(path):
    parser = Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(" ".join(parser.text).split()), parser.tables


@pytest.fixture(scope="module")
def captain_action_page(tmp_path_factory):
    res = simbalance.simulate("captain-action", 3000, threads=1)
    out = write_run_folder(res, tmp_path_factory.mktemp("run") / "r", command="simbalance run captain-action")
    return res, out


def test_the_run_page_starts_with_its_findings_and_numbers_players_from_1(captain_action_page):
    res, out = captain_action_page
    html = (out / "report.html").read_text()
    text, tables = read(out / "report.html")
    assert html.index("id='findings'") < html.index("id='win-rates'")
    assert "Player 1 wins 1 game in 2" in text and "Half the games are over within 1 turn" in text
    by_player = next(t for t in tables if t[0][:2] == ["player", "strategy"])
    assert [row[0] for row in by_player[1:]] == ["player 1", "player 2", "player 3", "player 4"]
    assert "seat 0" not in text.replace("seat 0 is player 1", "")
    saved = json.loads((out / "findings.json").read_text())["findings"]
    assert [f["kind"] for f in saved] == [f.kind for f in res.findings()]


def test_the_run_page_links_to_replays_of_notable_games(captain_action_page):
    res, out = captain_action_page
    text, tables = read(out / "report.html")
    watch = next(t for t in tables if t[0][:2] == ["", "which"])
    assert [r[0] for r in watch[1:]] == ["A typical game", "The longest game", "The most surprising win"]
    longest = int(res.games["length"].idxmax())
    assert f"simbalance replay captain-action --seed 0 --game {longest}" in watch[2][3]


def test_game_statistics_are_labelled_tables_not_engine_keys(captain_action_page):
    _, out = captain_action_page
    text, tables = read(out / "report.html")
    stats = text[text.index("Game statistics"):text.index("Card impact")]
    for key in ("countdown_left_at_call_hist", "share_called", "_by_seat", "hand_score_percentiles", "{"):
        assert key not in stats, key
    assert "Games ended by a call" in stats and "Countdown cards left at the call" in stats
    per_player = next(t for t in tables if t[0][0] == "per player (mean per game)")
    assert per_player[0][1:] == ["player 1", "player 2", "player 3", "player 4"]
    dist = next(t for t in tables if t[0][0] == "distribution")
    assert len(dist) == 3  # hand scores and Countdown at the call: one row each, not one per value


def test_card_impact_is_sorted_by_effect_with_copies_together(captain_action_page):
    res, out = captain_action_page
    text, tables = read(out / "report.html")
    every = next(t for t in tables if t[0][0] == "card" and len(t) > 20)
    diffs = [float(r[5].replace(" pp", "")) for r in every[1:]]
    assert diffs == sorted(diffs, reverse=True)
    wild = [r for r in every[1:] if r[0].startswith("Captain Action wildcard")]
    assert len(wild) == 1 and wild[0][1] == "4"  # four copies, one row
    best = next(t for t in tables if t[0][0] == "card" and t is not every)
    assert best[1][0] == every[1][0]  # the card that helps most comes first
    assert "The largest differences" in text and "The smallest differences" in text
    assert "Help their holder most" not in text  # "most" only for a card told apart (run_page.extremes)
    assert "(95% CI, clustered by game" in text


def test_figures_have_their_size_and_enlarge_with_css_only(captain_action_page):
    _, out = captain_action_page
    html = (out / "report.html").read_text()
    assert "<script" not in html and "src='http" not in html
    imgs = re.findall(r"<figure class='fig' id='([^']+)'><a href='#([^']+)'[^>]*><img alt='[^']*' width='(\d+)' "
                      r"height='(\d+)'", html)
    assert len(imgs) >= 4
    for anchor, href, width, height in imgs:
        assert anchor == href and int(width) > 100 and int(height) > 100
    assert ".figs { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; }" in html
    assert "figure.fig:target" in html


def test_png_size_reads_the_header():
    import base64

    one = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
    assert png_size(one) == (1, 1) and png_size(b"not a png") == (0, 0)
    assert "width='1' height='1'" in embed_png("x", one)


def test_findings_block_links_or_shows_the_command():
    html = findings_html([Finding("ties", "medium", "17% <ties>", dig_in="simbalance replay g --game 3"),
                          Finding("cards", "low", "a card", dig_in="#cards")])
    assert "17% &lt;ties&gt;" in html and "<code>simbalance replay g --game 3</code>" in html
    assert "href='#cards'" in html and "sev-medium" in html
    assert "Nothing stands out" in findings_html([], "no ties")


def test_engine_keys_get_words():
    parts = game_stats.split({"share_called": 0.9, "score_mean_by_seat": [1, 2], "x_hist": {"1": 3, "2": 1},
                              "bodies": {"io": {"full_control": 0.5}}, "attacks_per_game": {"majority": 24.1}}, 2)
    assert list(parts["per_player"]) == ["score_mean_by_seat"] and list(parts["hists"]) == ["x_hist"]
    assert game_stats.label("mean_ships_lost_by_seat") == "ships lost"
    assert game_stats.label("a_new_key") == "a new key"
    assert game_stats.value("majority", 24.1, "attacks_per_game") == "24.1"  # a count, not a share
    assert game_stats.value("majority", 0.5, "bodies") == "50.0%"
    assert game_stats.hist_quantiles({"1": 1, "2": 2, "3": 1})["50"] == 2.0


def test_captain_future_board_names_every_body_in_full(tmp_path):
    res = simbalance.simulate("captain-future", 300, threads=1)
    from simbalance.games.captain_future.board import parse_map
    from simbalance.games.captain_future.report import figures

    figs = figures(res.games, 4, res.plan.config, res.summary())
    texts = " ".join(t.get_text() for t in figs["captain_future_board"].axes[0].texts)
    for name in parse_map(res.plan.config).body_names:
        assert name in texts
    assert "Neptune\nbig, 5 pts" in texts


def test_the_compare_page_explains_arms_and_markers(tmp_path):
    res = simbalance.compare("captain-action", ["take-back"], 1500, arms={"short": {"rules.countdown": 6}}, threads=1)
    out = write_compare_folder(res, tmp_path / "c", "simbalance compare")
    text, tables = read(out / "compare.html")
    assert "Variant take-back changed nothing: all 1,500 games were identical" in text
    arms = next(t for t in tables if t[0][0] == "arm" and t[0][1] == "what it is")
    rows = {r[0]: r for r in arms[1:]}
    assert rows["take-back"][2] == "rules.take_back=true" and "identical" in rows["take-back"][3]
    assert rows["take-back"][1].startswith("A card taken from the discard pile")
    assert rows["short"][1] == "written on the command line (--arm)" and rows["short"][2] == "rules.countdown=6"
    assert "Filled points are significant" in text and "hollow points are not" in text
    every = next(t for t in tables if t[0][:2] == ["arm", "metric"])
    assert any(r[1] == "win rate, player 1" for r in every[1:]) and not any("seat" in r[1] for r in every[1:])


def test_the_sweep_page_draws_targets_and_says_when_none_is_met(tmp_path):
    res = simbalance.sweep("captain-action", ["rules.countdown=6:10:2"], 800, recheck=1, threads=1,
                           targets={"length_median": [8, 12]})
    out = write_sweep_folder(res, tmp_path / "s", "simbalance sweep")
    text, _ = read(out / "sweep.html")
    assert "No point of the grid meets the targets" in text
    assert "drawn as green bands" in text and "player 1's advantage" in text


def test_skill_tune_and_tournament_pages(tmp_path):
    skill = simbalance.skill("captain-action", 600, threads=1)
    out = write_skill_folder(skill, tmp_path / "k", "simbalance skill")
    text, _ = read(out / "skill.html")
    assert "Findings" in text and "Agency" in text and "Restricted play" in text
    assert json.loads((out / "skill.json").read_text())["verdict"] == skill.verdict
    tune = simbalance.tune("captain-action", "builder", 200, generations=1, population=2, threads=1)
    out = write_tune_folder(tune, tmp_path / "t", "simbalance tune")
    text, _ = read(out / "tune.html")
    assert "Findings" in text and "The parameters" in text and "[builder_tuned]" in text
    assert json.loads((out / "tune.json").read_text())["strategy"] == "builder"
    tour = simbalance.tournament("captain-action", "builder,random", 800, threads=1)
    out = write_tournament_folder(tour, tmp_path / "m", "simbalance tournament")
    text, _ = read(out / "tournament.html")
    assert text.index("Findings") < text.index("Matchups")
    assert "builder beats every other strategy head to head" in text


def test_whole_game_and_stalemate_sections_show_the_summary_keys_and_stay_away_without_them():
    from simbalance.report.run_page import stalemate_section, whole_game_section

    assert whole_game_section({}) == "" and stalemate_section({"stalemates": []}) == ""
    summary = {
        "stalemates": [{"code": 1, "reason": "dr-evil-chain", "description": "Dr. Evil answered with Dr. Evil",
                        "games": 650, "share": 0.65}],
        "lead": {"progress": "minus the cards held", "games": 1000, "single_winner_games": 350,
                 "lead_changes_mean": 2.5, "decisiveness": 0.4, "comeback_wins": 0.12, "never_behind": 0.3,
                 "rounds": [{"round": 1, "games": 1000, "decided_with_sole_leader": 300, "leader_wins": 0.81,
                             "ci_low": 0.76, "ci_high": 0.85, "fair_share": 0.25}]},
    }
    stalled = stalemate_section(summary)
    assert "dr-evil-chain" in stalled and "Dr. Evil answered with Dr. Evil" in stalled and "65.0" in stalled
    whole = whole_game_section(summary)
    assert "id='whole-game'" in whole and "minus the cards held" in whole
    assert "after round 1" in whole and "81.0%" in whole and "76.0% to 85.0%" in whole
    assert "12.0%" in whole and "2.50" in whole


def test_a_long_figure_title_is_broken_not_cut():
    """Issue 41 item 5: "captain-action: calls (... countdown out or timeou" ran past the figure's edge."""
    import matplotlib.pyplot as plt

    from simbalance.report.run_folder import fit_titles

    fig, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    ax.set_title("captain-action: calls (61% of games; rest: countdown out or timeout) and a few more words")
    fit_titles(fig)
    fig.canvas.draw()
    title, axes = ax.title.get_window_extent(), ax.get_window_extent()
    assert "\n" in ax.get_title() and title.x0 >= 0 and title.x1 <= fig.bbox.x1
    assert title.width <= axes.width * 1.05
    plt.close(fig)


def test_the_card_table_names_a_card_most_only_when_told_apart():
    """issue 52: a run page names "helps most"/"hurts most" only for a card whose CI is clear of
    every other card's after the multiplicity adjustment, and never shows a zero-width CI as measured."""
    from simbalance.report.run_page import _card_ci, card_section, extremes

    def row(subject, diff, half):
        return {"kind": "held", "subject": subject, "level": "card", "copies": 1, "seat_games_with": 100,
                "win_rate_with": 0.3, "win_rate_without": 0.2, "difference": diff, "ci_low": diff - half,
                "ci_high": diff + half, "difference_length_adjusted": diff}

    rest = [row(f"card {i}", 0.0, 0.01) for i in range(20)]
    apart = [row("boon", 0.2, 0.01), row("bane", -0.2, 0.01), *rest]
    assert [c["subject"] for c in extremes(apart)] == ["boon", "bane"]
    said = card_section(apart, {})
    assert "<b>boon</b> helps its holder most" in said and "<b>bane</b> hurts its holder most" in said
    overlapping = [row("boon", 0.03, 0.02), row("bane", -0.03, 0.02), *rest]
    assert extremes(overlapping) == (None, None)
    said = card_section(overlapping, {})
    assert "No card stands out" in said and "most" not in said.split("No card stands out")[1].split("</p>")[0]
    assert _card_ci(row("same", 0.0, 0.0)) == "none: no seat-game varied"
    assert _card_ci(row("boon", 0.2, 0.01)) == "+19.0 pp to +21.0 pp"


def test_games_parquet_reads_back_as_the_games_slice_by_slice(tmp_path, monkeypatch):
    """games.parquet is written from contiguous copies of each slice's columns (issue 56): read
    back, it is the games frame itself, dtypes and categorical strategy names included, also when
    the games span several slices (a slice that does not start at row 0 keeps its rows in place)."""
    import pandas as pd

    from simbalance.report import run_folder

    res = simbalance.simulate("captain-future", 500, seed=2, threads=1, strategies="builder,aggressor,random,builder")
    for slice_rows in (run_folder.PARQUET_SLICE, 128, 499):
        monkeypatch.setattr(run_folder, "PARQUET_SLICE", slice_rows)
        run_folder.write_games_parquet(res.games, tmp_path / f"g{slice_rows}.parquet")
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / f"g{slice_rows}.parquet"), res.games)
