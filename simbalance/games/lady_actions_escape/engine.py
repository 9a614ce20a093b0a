"""lady-actions-escape engine: config -> arrays, record layout, kernel, report hooks.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/lady-actions-escape.md.
2. Fair heuristics (issue 17): flexible, steer, blocker (and the naming of a plug-in's wildcards)
   choose uniformly at random among equally valued cards, backgrounds and characters (was: the
   lowest card id, the first kind in deck order), one draw from the game's stream per tie; new key
   ``rules.first_leader`` ("seat0", the default and the old behaviour, "rotate": seat (g // lineups) %
   players leads game g, or "random").
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.config import require_bool, require_choice, require_int
from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.plugins import PLUGIN_ID
from simbalance.core.records import END_INVALID, MAX_SEATS, record_dtype
from simbalance.core.replay import trace_with_log
from simbalance.decks.captain_action import DR_EVIL, KIND_CAPTAIN_WILD, KIND_DR_LING, KIND_NUMBERED, load_deck
from simbalance.games.lady_actions_escape.rules_nb import (
    G_DRAW,
    G_HAND,
    G_LEADER,
    G_N_BG,
    G_PLAYERS,
    G_REVERSE,
    G_TURN_CAP,
    N_GAME_RULES,
    kernel,  # noqa: F401  (the engine's kernel)
    make_plugin_kernel,
    top_index,
)
from simbalance.games.lady_actions_escape.strategies_nb import (
    EFFECT_DRAW,
    EFFECT_NONE,
    EFFECT_REVERSE,
    INFO_BG,
    INFO_CH,
    INFO_EFFECT,
    INFO_NUMBER,
    INFO_WILD,
    N_INFO,
)
from simbalance.games.spec import Cards, Engine, Plugin

ENGINE_VERSION = 2
CHUNK_SIZE = 1 << 15
STRATEGIES = {"random": 0, "flexible": 1, "steer": 1, "blocker": 2}  # steer: flexible's code, other weights
# Each heuristic's parameters in the order its code reads them (strategies_nb.P_*); configs bind by name.
STRATEGY_PARAMS = {
    "random": (),
    "flexible": ("bg_weight", "char_weight", "wild_hold"),
    "steer": ("bg_weight", "char_weight", "wild_hold"),
    "blocker": ("bg_weight", "char_weight", "wild_hold", "danger", "weapon_hold"),
}

FIRST_LEADERS = ["seat0", "rotate", "random"]  # rules_nb.LEADER_* in this order

LADY_ACTION = "Lady Action"
CAPTAIN_ACTION = "Captain Action"
MAX_CARDS = 64  # hands are 64-bit masks

RECORD_DTYPE = record_dtype([
    ("plays", np.int32, (MAX_SEATS,)),  # cards each seat played
    ("drawn", np.int32, (MAX_SEATS,)),  # cards each seat drew (Dr. Evil penalties included)
    ("cards_left", np.int8, (MAX_SEATS,)),  # cards in each hand when the game ended
    ("dealt_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c of the game deck was dealt to the seat
    ("hand_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c is in the seat's hand at the end
    ("reversals", np.int32),  # Lady Actions played (direction reversed)
    ("draw_twos", np.int32),  # Dr. Evils played (everyone else drew)
    ("reshuffles", np.int32),  # times the discard pile was shuffled into a new draw pile
    ("passes", np.int32),  # turns in which a player could neither play nor draw
    ("wilds_played", np.int32),  # wildcards played
])


def game_deck(cfg: dict):
    """The lady-actions-escape deck: the whole Captain Action deck (53 cards by default)."""
    return load_deck(cfg["deck"])


def card_labels(cfg: dict) -> tuple[list[str], dict[str, list[int]]]:
    """Labels of the game deck's cards (the bit order of the masks) and their groups."""
    return game_deck(cfg).labels_and_groups()


def card_masks(games: pd.DataFrame, players: int, config: dict) -> dict[str, list[np.ndarray]]:
    """The opening hand (no survivor bias). Cards held at the end are recorded too (``hand_mask``),
    but in a shedding game holding any card at the end means losing: no impact to measure there."""
    return {"dealt": [games[f"dealt_mask_{s}"].to_numpy() for s in range(players)]}


def card_arrays(cfg: dict, deck) -> tuple:
    """``card_info`` (per card: background, character, wild flag, printed effect, printed number), the match masks
    per top card, and ``kind_cards`` (the masks of each background's, then each character's cards)."""
    wildcards = require_bool(cfg, "rules.wildcards")
    anything = require_bool(cfg, "rules.effects_play_on_anything")
    n_bg, n_ch = len(deck.backgrounds), len(deck.characters)
    evil = deck.character_index(DR_EVIL)
    lady = deck.characters.index(LADY_ACTION) if LADY_ACTION in deck.characters else -1
    card_bg = deck.background.astype(np.int64)
    card_ch = deck.character.astype(np.int64)
    card_wild = np.zeros(deck.size, dtype=np.bool_)
    captain = deck.kind == KIND_CAPTAIN_WILD
    if wildcards:
        card_wild[captain | (deck.kind == KIND_DR_LING)] = True
        card_ch[deck.kind == KIND_DR_LING] = -1  # a wild stands for nobody until it is named
    elif captain.any():
        if CAPTAIN_ACTION not in deck.characters:
            raise ConfigError(
                f"rules.wildcards = false: the Captain Action 0 cards become {CAPTAIN_ACTION!r}, "
                f"but deck.characters has no such character"
            )
        card_ch[captain] = deck.characters.index(CAPTAIN_ACTION)
    card_effect = np.full(deck.size, EFFECT_NONE, dtype=np.int64)
    printed_evil = ((deck.kind == KIND_NUMBERED) & (deck.character == evil)) | (deck.kind == KIND_DR_LING)
    card_effect[printed_evil] = EFFECT_DRAW
    if lady >= 0:
        card_effect[(deck.kind == KIND_NUMBERED) & (deck.character == lady)] = EFFECT_REVERSE
    anywhere = card_wild | (anything & (card_effect != EFFECT_NONE))
    match = np.zeros((n_bg + 1) * (n_ch + 1), dtype=np.uint64)
    for bg in range(-1, n_bg):
        for ch in range(-1, n_ch):
            ok = anywhere | ((card_bg >= 0) & (card_bg == bg)) | ((card_ch >= 0) & (card_ch == ch))
            match[top_index(bg, ch, n_ch)] = _mask(np.flatnonzero(ok))
    kind_cards = np.array([_mask(np.flatnonzero(card_bg == b)) for b in range(n_bg)]
                          + [_mask(np.flatnonzero(card_ch == c)) for c in range(n_ch)], dtype=np.uint64)
    card_info = np.zeros((deck.size, N_INFO), dtype=np.int64)
    card_info[:, INFO_BG] = card_bg
    card_info[:, INFO_CH] = card_ch
    card_info[:, INFO_WILD] = card_wild
    card_info[:, INFO_EFFECT] = card_effect
    card_info[:, INFO_NUMBER] = deck.number
    return card_info, match, kind_cards


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return np.uint64(m)


def _can_ever_play(card_bg, card_ch, match, n_ch) -> bool:
    """Can some card follow some other card? (Otherwise every game is a stalemate.)"""
    for a in range(len(card_bg)):
        others = int(match[top_index(int(card_bg[a]), int(card_ch[a]), n_ch)]) & ~(1 << a)
        if others:
            return True
    return False


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    deck = game_deck(cfg)
    if players > MAX_SEATS:
        raise ConfigError(f"game.players = {players}: at most {MAX_SEATS}")
    if deck.size > MAX_CARDS:
        raise ConfigError(f"deck: {deck.size} lady-actions-escape cards; at most {MAX_CARDS} are supported")
    card_info, match, kind_cards = card_arrays(cfg, deck)
    if not _can_ever_play(card_info[:, INFO_BG], card_info[:, INFO_CH], match, len(deck.characters)):
        raise ConfigError("deck: no card of this deck can ever follow another; every game would stall")
    hand_size = require_int(cfg, "rules.hand_size", 1, 100)
    if players * hand_size > deck.size:
        raise ConfigError(
            f"rules.hand_size = {hand_size}: {players} players need {players * hand_size} cards "
            f"but the deck has {deck.size}"
        )
    game_rules = np.zeros(N_GAME_RULES, dtype=np.int64)
    game_rules[G_PLAYERS] = players
    game_rules[G_HAND] = hand_size
    game_rules[G_REVERSE] = require_bool(cfg, "rules.reverse")
    game_rules[G_DRAW] = require_int(cfg, "rules.draw_penalty", 0, 100)
    game_rules[G_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 10**7)
    game_rules[G_N_BG] = len(deck.backgrounds)
    game_rules[G_LEADER] = FIRST_LEADERS.index(require_choice(cfg, "rules.first_leader", FIRST_LEADERS))
    return card_info, match, kind_cards, game_rules, np.bool_(validate)


# ---------------------------------------------------------------------------------------------
# Plug-in strategies (--strategy-file path.py:name, seated as "plugin"; see examples/)

PLUGIN_DOC = (
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
    """The numba types ``play_game`` passes to the plug-in (see PLUGIN_DOC)."""
    from numba import types as nt

    return (nt.uint64, nt.uint64, nt.int64, nt.int64, nt.int64[::1], nt.int64, nt.int64, nt.int64[:, ::1],
            nt.uint64[::1])


_PLUGIN_KERNELS: dict = {}  # per plug-in function: compiled once per process


def plugin_kernel(fn):
    """The kernel in which seats with strategy id PLUGIN_ID play with ``fn`` (an ``@njit`` function
    with the PLUGIN_DOC signature); a wrong function is a one-line ConfigError, not a numba traceback.

    The kernel returned is a Python function with the signature of ``kernel``; it raises a
    ConfigError when the plug-in returned a card it may not play (the game ends as END_INVALID).
    """
    from numba.core.errors import NumbaError

    key = _plugin_key(fn)
    if key in _PLUGIN_KERNELS:
        return _PLUGIN_KERNELS[key]
    name = getattr(fn, "__name__", "the plug-in")
    expected = f"lady-actions-escape plug-ins are called as {PLUGIN_DOC}"
    args = _plugin_arg_types()
    try:
        fn.compile(args)
    except (NumbaError, TypeError) as exc:  # TypeError: another number of arguments
        reason = _first_line(exc)
        raise ConfigError(f"--strategy-file: {name} cannot be called with the game's arguments ({reason}); "
                          f"expected: {expected}") from None
    returned = fn.overloads[args].signature.return_type
    from numba import types as nt

    if not isinstance(returned, nt.Integer) or isinstance(returned, nt.Boolean):
        raise ConfigError(f"--strategy-file: {name} returns {returned}, not an integer card id; expected: {expected}")
    jitted, trace = make_plugin_kernel(fn)

    def run(out, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules,
            validate):
        jitted(out, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules,
               validate)
        bad = np.flatnonzero(np.asarray(out["end"]) == END_INVALID)
        if bad.size:
            game = int(first_game) + int(bad[0])
            raise ConfigError(f"--strategy-file: {name} returned a card that is not playable in game {game} (seed "
                              f"{int(seed)}; `simbalance replay` shows it); it must return one of the set bits of "
                              f"playable")

    run.trace_game = trace  # the replay of games with this plug-in
    # Compile now, on one game with the default deck, so that a plug-in numba cannot fit into the
    # game fails here with one line.
    from simbalance.core.config import load_config

    cfg = load_config("lady-actions-escape")
    prepared = prepare(cfg, 2)
    out = np.zeros(1, RECORD_DTYPE)
    try:
        jitted(out, np.int64(0), np.uint64(0), np.zeros((1, 2), np.int8), np.array([PLUGIN_ID], np.int32),
               np.zeros((1, 1), np.float64), *prepared)
    except NumbaError as exc:
        raise ConfigError(f"--strategy-file: {name} does not fit the game ({_first_line(exc)}); "
                          f"expected: {expected}") from None
    _PLUGIN_KERNELS[key] = run
    return run


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


# ---------------------------------------------------------------------------------------------
# Report hooks


def _cols(games: pd.DataFrame, field: str, players: int) -> list[str]:
    return [f"{field}_{s}" for s in range(players) if f"{field}_{s}" in games]


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Plays, reversals, Dr. Evil draws, reshuffles, passes and cards left per seat."""
    if len(games) == 0:
        return {}
    out = {}
    for field in ("reversals", "draw_twos", "reshuffles", "passes", "wilds_played"):
        out[f"{field}_mean"] = float(games[field].mean())
    out["share_with_reshuffle"] = float((games["reshuffles"] > 0).mean())
    for field in ("plays", "drawn", "cards_left"):
        out[f"{field}_mean_by_seat"] = [float(games[c].mean()) for c in _cols(games, field, players)]
    left = games[_cols(games, "cards_left", players)].to_numpy()
    finished = games["end"].to_numpy() == 0
    if finished.any():
        # Cards the losers still held: how close the race was.
        losers = left[finished]
        out["cards_left_losers_mean"] = float(losers[losers > 0].mean()) if (losers > 0).any() else 0.0
    return out


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict:
    """Cards left in the losers' hands, and the game's event counts."""
    from matplotlib.figure import Figure

    players = sum(1 for c in games.columns if c.startswith("cards_left_"))
    left = games[[f"cards_left_{s}" for s in range(players)]].to_numpy()
    losers = left[(games["end"].to_numpy() == 0)[:, None] & (left > 0)]
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    if losers.size:
        values, counts = np.unique(losers, return_counts=True)
        ax.bar(values, counts / counts.sum())
    ax.set_xlabel("cards left in a losing hand at the end")
    ax.set_ylabel("share of losing hands")
    ax.set_title("lady-actions-escape: how close the others were")
    figs = {"lady_actions_escape_cards_left": fig}

    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    names = ["reversals", "draw_twos", "reshuffles", "passes", "wilds_played"]
    ax.bar(names, [games[n].mean() for n in names])
    ax.set_ylabel("per game (mean)")
    ax.set_title("lady-actions-escape: events per game")
    figs["lady_actions_escape_events"] = fig
    return figs


# ---------------------------------------------------------------------------------------------
# Replay


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again (the kernels' own code, validated) and return its
    record and its event log (rows of rules_nb.EV_*)."""
    from simbalance.games.lady_actions_escape import rules_nb

    run_trace = getattr(plan.kernel, "trace_game", None)  # a plug-in kernel's own replay
    if PLUGIN_ID in plan.lineup.slot_strategy and run_trace is None:
        raise SimbalanceError("lady-actions-escape: replaying a plug-in's game needs its kernel (plan_run with "
                              "strategy_file=...)")
    run_trace = run_trace or rules_nb.trace_game
    lineup = plan.lineup
    return trace_with_log(
        lambda target, log, log_n: run_trace(lineup.seats, lineup.slot_strategy, lineup.slot_params,
                                             *plan.prepared[:4], np.uint64(plan.seed), np.int64(game), target,
                                             log, log_n),
        RECORD_DTYPE, 4)


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    from simbalance.games.lady_actions_escape import rules_nb as r

    out, events = trace(plan, game)
    deck = game_deck(plan.config)
    card = deck.label
    players = plan.players
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"seat {s} ({plan.lineup.slot_names[seats[s]]})" for s in range(players)}
    held = np.zeros(players, np.int64)

    def kind(bg: int, ch: int) -> str:
        parts = [deck.backgrounds[bg] if bg >= 0 else "", deck.characters[ch] if ch >= 0 else ""]
        return " / ".join(p for p in parts if p) or "nothing"

    leader = next((int(b) for ev, a, b, c in events.tolist() if ev == r.EV_TURN), 0)
    lines = [f"lady-actions-escape, game {game} of seed {plan.seed}, {players} players; seat {leader} leads, play "
             "starts clockwise."]
    dealt: dict[int, list[str]] = {}
    turn: list[str] = []  # the current turn's words
    after: list[str] = []  # what follows from it (penalties, reshuffles)
    penalty: dict[int, list[str]] = {}  # Dr. Evil's draws, per seat
    drawn: list[str] = []  # cards the player drew this turn, looking for a playable one

    def flush_penalty():
        if penalty:
            after.append("  " + "; ".join(f"seat {s} draws {', '.join(c)}" for s, c in penalty.items()) + ".")
            penalty.clear()

    def flush():
        flush_penalty()
        if turn:
            lines.append(" ".join(turn))
        lines.extend(after)
        turn.clear()
        after.clear()

    for ev, a, b, c in events.tolist():
        if ev == r.EV_DEAL:
            dealt.setdefault(a, []).append(card(b))
            held[a] += 1
            continue
        if dealt:
            for s in sorted(dealt):
                lines.append(f"Seat {s} is dealt {len(dealt[s])} cards: {', '.join(dealt[s])}.")
            lines.append(f"The draw pile holds {deck.size - int(held.sum())} cards.")
            dealt.clear()
        if ev == r.EV_TURN:
            flush()
            turn.append(f"Turn {a}, {who[b]}:")
        elif ev == r.EV_DRAW and c == 0:
            held[a] += 1
            drawn.append(card(b))
        elif ev == r.EV_DRAW:
            held[a] += 1
            penalty.setdefault(a, []).append(card(b))
        elif ev == r.EV_PLAY:
            held[a] -= 1
            if drawn:
                turn.append(f"cannot play, draws {', '.join(drawn)} and")
                drawn.clear()
            turn.append(f"{'leads' if c else 'plays'} {card(b)} ({held[a]} left).")
        elif ev == r.EV_NAME:
            turn.append(f"The wildcard stands for {kind(b, c)}.")
        elif ev == r.EV_REVERSE:
            turn.append(f"Lady Action: play now runs {'clockwise' if a == 1 else 'counter-clockwise'}.")
        elif ev == r.EV_DRAW_EFFECT:
            turn.append(f"Dr. Evil: every other player draws {b}:")
        elif ev == r.EV_RESHUFFLE:
            flush_penalty()
            after.append(f"  The discard pile but its top card ({a} cards) is shuffled into a new draw pile.")
        elif ev == r.EV_PASS:
            turn.append(f"cannot play, draws {', '.join(drawn)}, nothing is left to draw: passes." if drawn else
                        "cannot play and nothing is left to draw: passes.")
            drawn.clear()
        elif ev == r.EV_WIN:
            flush()
            lines.append(f"Seat {a} has played its last card and escapes: {who[a]} wins after "
                         f"{int(out[0]['length'])} turns.")
        elif ev == r.EV_STALEMATE:
            flush()
            lines.append(f"Nobody could play for a full round: a stalemate after {int(out[0]['length'])} turns, "
                         "nobody wins.")
        elif ev == r.EV_TIMEOUT:
            flush()
            lines.append(f"The turn cap ({a} turns) is reached: a timeout, nobody wins.")
        elif ev == r.EV_INVALID:
            flush()
            what = f"seat {a} played {b}, not a playable card" if a >= 0 else "the cards are no longer all accounted for"
            lines.append(f"Invalid game: {what}.")
    flush()
    left = ", ".join(f"seat {s} {int(out[0]['cards_left'][s])}" for s in range(players))
    lines.append(f"Cards left: {left}.")
    return lines


ENGINE = Engine(
    version=ENGINE_VERSION,
    record_dtype=RECORD_DTYPE,
    strategies=STRATEGIES,
    strategy_params=STRATEGY_PARAMS,
    prepare=prepare,
    kernel=kernel,
    module=__name__,
    chunk_size=CHUNK_SIZE,
    summarize=summarize,
    figures=figures,
    cards=Cards(card_labels, card_masks),
    replay=replay,
    trace=trace,
    plugin=Plugin(plugin_kernel, PLUGIN_DOC),
)
