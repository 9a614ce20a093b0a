"""Plug-in strategies for lady-actions-escape (``--strategy-file path.py:name``, seated as
``plugin``; see examples/): the decision signature a user's function must have, and the kernel built
around it, checked so that a function that cannot be used is a one-line ConfigError."""

from __future__ import annotations

import numpy as np

from simbalance.core.errors import ConfigError
from simbalance.core.records import END_INVALID
from simbalance.core.user_strategy import USER_STRATEGY_ID
from simbalance.games.lady_actions_escape.play_nb import make_user_strategy_kernel

USER_STRATEGY_DOC = (
    "choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state) -> int, "
    "the id of the card to play (one of the set bits of playable); hand, playable: uint64 masks, bit c = card id c; "
    "top_background, top_character: what the discard pile's top card stands for (-1: none; both -1 when leading, "
    "and then playable == hand); hand_sizes: int64[players], cards held per seat (read only); seat: int; "
    "direction: 1 clockwise, -1 counter-clockwise; cards: int64[n_cards, 5], per card its background, character "
    "(-1: a wildcard), wild flag, effect (0 none, 1 reverse, 2 others draw) and printed number (0: wildcard); "
    "state: uint64[1], the game's random stream for simbalance.core.rng.randint(state, n). A played wildcard is "
    "named by the built-in rule: the background and the character the hand holds most of (ties: uniform at random)"
)


def _plugin_arg_types():
    """The numba types ``strategies_nb.strategy_move`` passes to the plug-in (see USER_STRATEGY_DOC)."""
    from numba import types as nt

    return (nt.uint64, nt.uint64, nt.int64, nt.int64, nt.int64[::1], nt.int64, nt.int64, nt.int64[:, ::1],
            nt.uint64[::1])


READ_ONLY = {4: "hand_sizes", 7: "cards"}  # the arguments a plug-in may read, not change (their positions)
_PLUGIN_KERNELS: dict = {}  # per plug-in function: compiled once per process
PROBE_HAND = 7


def sample_decisions(prepare, players: int, count: int = 20) -> list[tuple]:
    """Decisions as the game hands them to a user's function (USER_STRATEGY_DOC's arguments), for
    the probe (core/probe.py): ``count`` leads from random hands of the default deck (a lead may
    play any card: playable is the hand)."""
    from simbalance.core.config import load_config

    cards = prepare(load_config("lady-actions-escape"), players)[0].copy()
    cards.setflags(write=False)
    rng = np.random.default_rng(0)
    out = []
    for k in range(count):
        ids = rng.choice(cards.shape[0], size=min(PROBE_HAND, cards.shape[0]), replace=False)
        hand = np.uint64(sum(1 << int(i) for i in ids))
        sizes = np.full(players, len(ids), np.int64)
        sizes.setflags(write=False)  # READ_ONLY: a write raises, and the probe names it
        out.append((hand, hand, np.int64(-1), np.int64(-1), sizes, np.int64(k % players), np.int64(1), cards,
                    np.ones(1, np.uint64)))
    return out


def build_user_strategy_kernel(fn, prepare, record_dtype):
    """The kernel in which seats with strategy id USER_STRATEGY_ID play with ``fn`` (an ``@njit`` function
    with the USER_STRATEGY_DOC signature); a wrong function is a one-line ConfigError, not a numba traceback.
    ``prepare`` and ``record_dtype`` are the engine's (engine.user_strategy_kernel passes them): the kernel
    is compiled here on one game.

    The kernel returned is a Python function with the signature of ``kernel``; it raises a
    ConfigError when the plug-in returned a card it may not play (the game ends as END_INVALID).
    """
    from numba.core.errors import NumbaError

    key = _plugin_key(fn)
    if key in _PLUGIN_KERNELS:
        return _PLUGIN_KERNELS[key]
    name = getattr(fn, "__name__", "the plug-in")
    expected = f"lady-actions-escape plug-ins are called as {USER_STRATEGY_DOC}"
    if hasattr(fn, "compile"):  # (the probe runs it with numba off: a plain function, nothing to type)
        _check_types(fn, name, expected)
    jitted, trace = make_user_strategy_kernel(fn)

    def run(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards,
            game_rules, validate):
        jitted(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards,
               game_rules, validate)
        bad = np.flatnonzero(np.asarray(out["end"][lo:hi]) == END_INVALID)
        if bad.size:
            game = int(first_game) + int(lo) + int(bad[0])
            raise ConfigError(f"--strategy-file: {name} returned a card that is not playable in game {game} (seed "
                              f"{int(seed)}; `simbalance replay` shows it); it must return one of the set bits of "
                              f"playable")

    run.trace_game = trace  # the replay of games with this plug-in
    # Compile now, on one game with the default deck, so that a plug-in numba cannot fit into the
    # game fails here with one line.
    from simbalance.core.config import load_config

    cfg = load_config("lady-actions-escape")
    prepared = prepare(cfg, 2)
    out = np.zeros(1, record_dtype)
    try:
        jitted(out, np.int64(0), np.int64(1), np.int64(0), np.uint64(0), np.zeros((1, 2), np.int8),
               np.array([USER_STRATEGY_ID], np.int32), np.zeros((1, 1), np.float64), *prepared)
    except NumbaError as exc:
        raise ConfigError(f"--strategy-file: {name} does not fit the game ({_first_line(exc)}); "
                          f"expected: {expected}") from None
    _PLUGIN_KERNELS[key] = run
    return run


def _check_types(fn, name: str, expected: str) -> None:
    """The user's function compiled for the game's argument types, returning an integer."""
    from numba import types as nt
    from numba.core.errors import NumbaError

    args = _plugin_arg_types()
    try:
        fn.compile(args)
    except (NumbaError, TypeError) as exc:  # TypeError: another number of arguments
        reason = _first_line(exc)
        raise ConfigError(f"--strategy-file: {name} cannot be called with the game's arguments ({reason}); "
                          f"expected: {expected}") from None
    from simbalance.core.user_strategy import read_only_problem
    from simbalance.core.user_strategy import writes_into

    written = read_only_problem(fn, args, READ_ONLY)
    if written is not None:
        raise ConfigError(writes_into(f"--strategy-file: {name}", written))
    returned = fn.overloads[args].signature.return_type
    if not isinstance(returned, nt.Integer) or isinstance(returned, nt.Boolean):
        raise ConfigError(f"--strategy-file: {name} returns {returned}, not an integer card id; expected: {expected}")


def _plugin_key(fn):
    """Loading the same file twice gives a new dispatcher: key by the function's code and its file's
    content instead, so a run and its replay (or a test's API and CLI runs) compile once."""
    import hashlib
    from pathlib import Path

    py = getattr(fn, "py_func", None)
    file = getattr(py, "__globals__", {}).get("__file__")
    if py is None or not file or not Path(file).is_file():
        return fn
    return py.__code__, hashlib.sha256(Path(file).read_bytes()).hexdigest()


def _first_line(exc) -> str:
    """The most telling line of a numba error, shortened."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    useful = [ln for ln in lines if not ln.startswith(("Failed in", "During:", "File ", "^", "- Resolution"))]
    text = (useful or lines or ["numba could not compile it"])[0]
    return text[:200]
