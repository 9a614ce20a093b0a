"""`simbalance fit-eval GAME`'s tables in the terminal: the command itself is made from the study's
declaration (studies/fit_eval.py, cli/study_command.py)."""

from __future__ import annotations

from simbalance.cli.terminal import Table


def show(res, console) -> None:
    """The held-out log-loss and accuracy of the fitted and the hand-written evaluation, then the
    fitted weights."""
    data = res.data
    held = data["held_out"]
    tab = Table(title=f"{data['game']}: {data['held_out_points']} held-out positions of {data['held_out_games']} games "
                      f"(uniform log-loss {held['uniform']['log_loss']:.3f})")
    for col in ("evaluation", "log-loss", "leader wins"):
        tab.add_column(col, justify="right")
    for name, key in (("fitted", "fitted"), ("hand-written", "hand_written")):
        tab.add_row(name, f"{held[key]['log_loss']:.3f}", f"{held[key]['accuracy']:.1%}")
    console.print(tab)
    weights = Table(title="weights (per unit of each feature)")
    weights.add_column("feature")
    weights.add_column("weight", justify="right")
    for name, w in zip(data["features"], data["weights"], strict=True):
        weights.add_row(name, f"{w:+.4f}")
    console.print(weights)
