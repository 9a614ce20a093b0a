"""The child's side of a probe (core/probe.py): import the code from outside simbalance and run it
as the run would, as Python (the parent turns numba's compiler off), then print the answer.

    python -m simbalance.studies.probe_child strategy GAME PATH.py:FUNCTION PLAYERS
    python -m simbalance.studies.probe_child game GAME
"""

from __future__ import annotations

import sys

from simbalance.core.probe import ANSWER, PROBE_GAMES


def _child_strategy(game: str, spec: str, players: int) -> None:
    """Import the file and call the function on the game's sample decisions, as Python."""
    from simbalance.core.user_strategy import load_user_strategy
    from simbalance.games.registry import get_game

    engine = get_game(game).load()
    fn = load_user_strategy(spec)
    call = getattr(fn, "py_func", fn)
    for args in engine.user_strategy.sample(players):
        try:
            call(*args)
        except Exception:  # an error the run's own checks name in their words (typing, the probe game, a
            break  # write into the state the sample lends read only); what the probe is for: an exit,
            # an interrupt or a hang, which those cannot report
    print(ANSWER, flush=True)


def _child_game(game: str) -> None:
    """Import the game's package (its SPEC: the registry's own checks, which raise the registry's
    one line) and engine, and play a few games of its own config, as Python."""
    from simbalance.core.errors import SimbalanceError
    from simbalance.games.registry import get_game
    from simbalance.studies.run import SimulationResult
    from simbalance.studies.settings import RunSettings

    get_game(game)  # in this child the registry imports the package as it is (it is the probe)
    settings = RunSettings(game, seed=0, threads=1)
    try:
        plan = settings.plan(PROBE_GAMES)
        if plan.engine.searches(plan.lineup):  # a search player's games, as Python, could outlast the limit
            plan = settings.plan(PROBE_GAMES, strategies=plan.engine.heuristics[0])
    except SimbalanceError:  # a config the run's own checks name in their words (the run may bring its own)
        print(ANSWER, flush=True)
        return
    SimulationResult.from_plan(plan)
    print(ANSWER, flush=True)


if __name__ == "__main__":
    from simbalance.core.errors import SimbalanceError

    try:
        if sys.argv[1] == "strategy":
            _child_strategy(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        else:
            _child_game(sys.argv[2])
    except SimbalanceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except BaseException as exc:  # noqa: BLE001 (the parent reports it in one line)
        print(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no message'}", file=sys.stderr)
        sys.exit(3)
