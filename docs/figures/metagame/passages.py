"""Each game's metagame passage on its rules page (issue 55 item 4; docs/meta.md), generated:

    python docs/figures/metagame/passages.py [GAME ...]      (make docs-metagame; default: every game)

A rules page marks the passage

    <!-- metagame -->
    ...text written by this script...
    <!-- end metagame -->

and the script replaces only the text between the markers (the page's other passages are
docs/figures/run.py's, marked ``<!-- figure NAME -->``, and are left alone). The passage is
``simbalance meta GAME`` at ``N`` games per composition and seed ``SEED`` (below: the same for every
game, so the pages compare), the game's default population (every heuristic and preset that is
not a search player: docs/meta.md), 200 bootstrap resamples; it says the equilibrium with its
intervals, α-Rank, the findings in words and the dominance margin, and ends with the engine version
and the command, so every number says which rules and players made it. A game without decisions
(or with one strategy) has no metagame, and its passage says so, from the engine itself.

This is its own script, not a FIGURES function of docs/figures/<game>.py: a table of every
composition takes minutes per game, and a page's figures are regenerated far more often than its
metagame. It lives in its own folder so docs/figures/run.py does not take it for a game's module.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "docs" / "rules"
GAMES = ("find-dr-evil", "lady-actions-escape", "captain-action", "aquaman", "captain-future")
N = 10_000  # games per composition: a one-seat entry of the table within about 1 point (95%)
SEED = 1
BOOTSTRAP = 200
MARKER = re.compile(r"^(<!-- metagame -->\n)(?P<body>.*?)^(<!-- end metagame -->)$", re.S | re.M)
COMMAND = "python docs/figures/metagame/passages.py"


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def span(lo: float, hi: float) -> str:
    return f"{pct(lo)} to {pct(hi)}"


def no_metagame(game: str, engine, names: list[str]) -> str:
    """The passage of a game whose players have nothing to choose between."""
    why = ("the game has no informed decisions (its engine declares `has_decisions = False`: every "
           "choice is blind)" if not engine.has_decisions else "the game has one strategy")
    return (f"**No metagame.** {game}'s strategies: {', '.join(names)}; {why}, so no way of playing can beat "
            "another and `simbalance meta` has nothing to compare (a population of one is refused). The seat "
            "findings above are the whole balance story of this game.")


def passage(result) -> str:
    """The metagame of one table in markdown: what was played, the equilibrium and α-Rank with their
    intervals, the findings in words (analysis/meta.meta_findings) and the dominance margin."""
    w = result.answer.weights
    table = ["| strategy | equilibrium weight (95% CI) | gain against the mix, pp (95% CI) | α-Rank mass (95% CI) "
             "| α-Rank (95% range) |", "|---|---|---|---|---|"]
    for r in w.itertuples():
        table.append(f"| {r.strategy} | {pct(r.weight)} ({span(r.ci_low, r.ci_high)}) | {100 * r.gain:+.2f} "
                     f"({100 * r.gain_ci_low:+.2f} to {100 * r.gain_ci_high:+.2f}) | {pct(r.alpha_rank_mass)} "
                     f"({span(r.mass_ci_low, r.mass_ci_high)}) | {r.alpha_rank} ({r.rank_low}-{r.rank_high}) |")
    best, margin = result.dominance
    findings = [f"- {f.text}" for f in result.findings()]
    findings.append(f"- Dominance, the solver's target (docs/meta.md): the best strategy against an even field, "
                    f"{best}, beats the average of the population by {100 * margin.estimate:+.2f} pp (95% CI "
                    f"{100 * margin.low:+.2f} to {100 * margin.high:+.2f} pp).")
    games = len(result.table.counts) * result.n
    return "\n".join([
        f"`simbalance meta {result.game} --n {result.n:g} --seed {result.seed}` (docs/meta.md): the population "
        f"{', '.join(result.names)} at {result.players} seats, every one of the {len(result.table.counts)} "
        f"compositions played {result.n:,} times, every seating equally often, on the same deals ({games:,} games); "
        f"intervals from {BOOTSTRAP} resamples of the games. Win shares are per seat, over all games.", "",
        *table, "", *findings])


def marked(game: str) -> str:
    """The rules page's text, which must hold one marked passage (checked before anything is played)."""
    page = RULES / f"{game}.md"
    text = page.read_text()
    found = len(MARKER.findall(text))
    if found != 1 or text.count("<!-- metagame -->") != 1:
        raise SystemExit(f"{page}: needs one <!-- metagame --> ... <!-- end metagame --> pair (found {found})")
    return text


def write(game: str, body: str, version: str) -> None:
    import simbalance

    page = RULES / f"{game}.md"
    text = marked(game)
    stamp = f"<sub>{game} engine v{version}, simbalance {simbalance.__version__}: `{COMMAND} {game}`</sub>"
    new = MARKER.sub(lambda m: f"{m.group(1)}{body.rstrip()}\n\n{stamp}\n{m.group(3)}", text)
    page.write_text(new)


def regenerate(game: str) -> None:
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.meta import meta
    from simbalance.studies.settings import RunSettings

    marked(game)
    plan = RunSettings(game).plan(1)
    engine = plan.engine
    names = [name for name, info in all_strategies(plan.config, engine.strategies, engine.strategy_params).items()
             if not engine.is_search(info.base)]
    print(f"{game}: metagame ({len(names)} strategies)", file=sys.stderr, flush=True)
    if not engine.has_decisions or len(names) < 2:
        body = no_metagame(game, engine, names)
    else:
        body = passage(meta(game, n=N, seed=SEED, bootstrap=BOOTSTRAP))
    write(game, body, engine.version)


def main(argv: list[str]) -> None:
    games = argv or list(GAMES)
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise SystemExit(f"no metagame passage for {', '.join(unknown)}; known: {', '.join(GAMES)}")
    for game in games:
        regenerate(game)


if __name__ == "__main__":
    main(sys.argv[1:])
