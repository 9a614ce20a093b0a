"""The captain-future config, read and checked in Python, turned into the arrays the kernel uses.

The board is drawn as text in ``[board] map`` (a header of column labels, then one line per row:
its label and one token per column; ``.`` is not a landing space, a letter is a landing space of
the body ``[board.legend]`` names). Landing spaces are numbered 0..L-1 in reading order (row by
row, left to right); that numbering is the bit order of the ``*_mask_*`` record fields.

Card kinds (the hand is kept as a count per kind): row r -> r, column c -> R + c, body b ->
R + C + b, joker -> R + C + B, then Simon Wright, Recall, Otto, GRAG. The kernel's arrays are laid
out in state_nb.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simbalance.core.config import get
from simbalance.core.config import require_bool
from simbalance.core.config import require_choice
from simbalance.core.config import require_int
from simbalance.core.config import seat_compensation
from simbalance.core.config import seat_points
from simbalance.core.errors import ConfigError
from simbalance.games.captain_future import state_nb as X

MAX_SPACES = X.ML  # the held-space masks are two uint64 words
MAX_BODIES = X.MB  # per-body record fields have this length
EVENT_NAMES = ("simon_wright", "recall", "otto", "grag")

@dataclass(frozen=True)
class Layout:
    """The board in designer terms, for reports: labels, ids and where each landing space is."""

    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    body_ids: tuple[str, ...]
    body_names: tuple[str, ...]
    body_classes: tuple[str, ...]
    space_row: np.ndarray
    space_col: np.ndarray
    space_body: np.ndarray


def parse_map(cfg: dict) -> Layout:
    """Read ``board.map`` and ``board.legend``; a broken map is a ConfigError naming what is wrong."""
    text = get(cfg, "board.map")
    legend = get(cfg, "board.legend")
    classes = get(cfg, "board.classes")
    if not isinstance(text, str):
        raise ConfigError("board.map: expected the board drawn as a multi-line string")
    if not isinstance(legend, dict) or not legend:
        raise ConfigError("board.legend: expected a table of map letter -> { id, name, class }")
    if not isinstance(classes, dict) or not classes:
        raise ConfigError("board.classes: expected a table of class -> full-control points")
    for cls, pts in classes.items():
        if isinstance(pts, bool) or not isinstance(pts, int) or pts < 0:
            raise ConfigError(f"board.classes.{cls} = {pts!r}: expected whole points >= 0")
    lines = [ln.split() for ln in text.strip("\n").splitlines() if ln.strip()]
    if len(lines) < 2:
        raise ConfigError("board.map: expected a header line of column labels and at least one row")
    col_labels = tuple(lines[0])
    rows = lines[1:]
    row_labels = []
    for ln in rows:
        if len(ln) - 1 != len(col_labels):
            raise ConfigError(
                f"board.map: row {ln[0]!r} has {len(ln) - 1} spaces; every row needs one per column "
                f"({len(col_labels)})"
            )
        row_labels.append(ln[0])
    if len(set(row_labels)) != len(row_labels) or len(set(col_labels)) != len(col_labels):
        raise ConfigError("board.map: row labels and column labels must each be unique")
    letters = list(legend)
    lines_lower = {x.lower() for x in row_labels} | {x.lower() for x in col_labels}
    ids, names, body_classes = [], [], []
    for letter in letters:
        entry = legend[letter]
        if letter == "." or len(letter) != 1:
            raise ConfigError(f"board.legend.{letter}: map letters are single characters other than '.'")
        if not isinstance(entry, dict) or not {"id", "name", "class"} <= set(entry):
            raise ConfigError(f"board.legend.{letter}: expected {{ id = ..., name = ..., class = ... }}")
        bid = entry["id"]
        if not isinstance(bid, str) or not bid or bid.lower() in lines_lower:
            raise ConfigError(
                f"board.legend.{letter}.id = {bid!r}: a body id must be a non-empty name that is not a row or "
                "column label"
            )
        if entry["class"] not in classes:
            raise ConfigError(
                f"board.legend.{letter}.class = {entry['class']!r}: allowed {', '.join(map(repr, classes))}"
            )
        ids.append(bid)
        names.append(str(entry["name"]))
        body_classes.append(entry["class"])
    if len(set(ids)) != len(ids):
        raise ConfigError("board.legend: body ids must be unique")
    body_of = {letter: i for i, letter in enumerate(letters)}
    sr, sc, sb = [], [], []
    for r, ln in enumerate(rows):
        for c, tok in enumerate(ln[1:]):
            if tok == ".":
                continue
            if tok not in body_of:
                raise ConfigError(
                    f"board.map: letter {tok!r} at {row_labels[r]}-{col_labels[c]} has no entry in board.legend"
                )
            sr.append(r)
            sc.append(c)
            sb.append(body_of[tok])
    space_body = np.array(sb, dtype=np.int64)
    for b, letter in enumerate(letters):
        if not np.any(space_body == b):
            raise ConfigError(f"board.legend.{letter} ({ids[b]}): the body has no landing space on board.map")
    if len(row_labels) > X.MR or len(col_labels) > X.MC:
        raise ConfigError(f"board.map: {len(row_labels)} rows x {len(col_labels)} columns; at most {X.MR} x {X.MC}")
    sizes = np.bincount(space_body, minlength=len(letters)) if sb else np.zeros(len(letters), int)
    if len(letters) <= MAX_BODIES and sizes.max(initial=0) > X.MBS:
        raise ConfigError(f"board.map: a body has {sizes.max()} landing spaces; at most {X.MBS} are supported")
    if len(sb) > MAX_SPACES:
        raise ConfigError(f"board.map: {len(sb)} landing spaces; at most {MAX_SPACES} are supported")
    if len(letters) > MAX_BODIES:
        raise ConfigError(f"board.legend: {len(letters)} bodies; at most {MAX_BODIES} are supported")
    return Layout(
        tuple(row_labels), col_labels, tuple(ids), tuple(names), tuple(body_classes),
        np.array(sr, dtype=np.int64), np.array(sc, dtype=np.int64), space_body,
    )


def build_board(cfg: dict, players: int) -> tuple[np.ndarray, Layout]:
    """Validate the whole config for ``players``; return the kernel's ``bd`` array (layout.py)."""
    lay = parse_map(cfg)
    classes = get(cfg, "board.classes")
    n_rows, n_cols, n_bodies = len(lay.row_labels), len(lay.col_labels), len(lay.body_ids)
    n_spaces = len(lay.space_body)
    n_traj = n_rows + n_cols + n_bodies + 1
    k_joker = n_rows + n_cols + n_bodies
    kinds_n = k_joker + 5

    body_size = np.bincount(lay.space_body, minlength=n_bodies).astype(np.int64)
    body_bonus = np.array([classes[c] for c in lay.body_classes], dtype=np.int64)
    body_sp = np.full((n_bodies, int(body_size.max())), -1, dtype=np.int64)
    fill = np.zeros(n_bodies, dtype=np.int64)
    sp_kinds = np.empty((n_spaces, 4), dtype=np.int64)
    kind_sp = np.full((n_traj, n_spaces), -1, dtype=np.int64)
    kind_n = np.zeros(n_traj, dtype=np.int64)
    for s in range(n_spaces):
        b = lay.space_body[s]
        body_sp[b, fill[b]] = s
        fill[b] += 1
        ks = (lay.space_row[s], n_rows + lay.space_col[s], n_rows + n_cols + b, k_joker)
        sp_kinds[s] = ks
        for k in ks:
            kind_sp[k, kind_n[k]] = s
            kind_n[k] += 1

    # The deck: counts per kind, checked against the board.
    per_row = require_int(cfg, "cards.row", 0, 1000)
    per_col = require_int(cfg, "cards.column", 0, 1000)
    per_body = require_int(cfg, "cards.body", 0, 1000)
    jokers = require_int(cfg, "cards.joker", 0, 1000)
    events = [require_int(cfg, f"cards.{name}", 0, 1000) for name in EVENT_NAMES]
    if per_row > 0:
        for r in range(n_rows):
            if kind_n[r] == 0:
                raise ConfigError(
                    f"cards.row = {per_row}: row {lay.row_labels[r]} has no landing space, so its card could never "
                    "land (set cards.row = 0 or draw a landing space in that row)"
                )
    if per_col > 0:
        for c in range(n_cols):
            if kind_n[n_rows + c] == 0:
                raise ConfigError(
                    f"cards.column = {per_col}: column {lay.col_labels[c]} has no landing space, so its card could "
                    "never land (set cards.column = 0 or draw a landing space in that column)"
                )
    counts = np.zeros(kinds_n, dtype=np.int64)
    counts[:n_rows] = per_row
    counts[n_rows:n_rows + n_cols] = per_col
    counts[n_rows + n_cols:k_joker] = per_body
    counts[k_joker] = jokers
    counts[k_joker + 1:] = events
    deck = np.repeat(np.arange(kinds_n, dtype=np.int64), counts)
    if counts[:n_traj].sum() == 0:
        raise ConfigError("cards: the deck has no trajectory card (row, column, body or joker): no ship could land")
    if deck.size > X.MN:
        raise ConfigError(f"cards: {deck.size} cards; at most {X.MN} are supported")

    ships_tbl = get(cfg, "ships")
    if not isinstance(ships_tbl, dict) or str(players) not in ships_tbl:
        have = ", ".join(sorted(ships_tbl)) if isinstance(ships_tbl, dict) else "none"
        raise ConfigError(f"ships.{players}: missing; ships per player are configured for player counts {have}")
    ships = require_int(cfg, f"ships.{players}", 1, 120)
    # Seat compensation (docs/rules/captain-future.md, "Seat compensation"): every seat keeps at least
    # one ship (an empty supply triggers the end when its last ship lands) and at most 120.
    extra_ships = seat_compensation(cfg, "ships", players, 1 - ships, 120 - ships)
    extra_points = seat_points(cfg, players)
    hand_size = require_int(cfg, "rules.hand_size", 1, 60)
    if players * hand_size > deck.size:
        raise ConfigError(
            f"rules.hand_size = {hand_size}: {players} hands of {hand_size} need {players * hand_size} cards; "
            f"the deck (cards.*) has {deck.size}"
        )
    slots = require_int(cfg, "rules.actions_per_turn", 1, 10)
    events_per_turn = require_int(cfg, "rules.events_per_turn", 0, 2)
    c_maj = require_int(cfg, "rules.attack_cost_majority", 1, hand_size)
    c_pre = require_int(cfg, "rules.attack_cost_present", 1, hand_size)
    c_abs = require_int(cfg, "rules.attack_cost_absent", 1, hand_size)
    final_max = require_int(cfg, "rules.final_round_max_attack_cost", 0, 1000)
    reshuffle = require_bool(cfg, "rules.reshuffle_discards")
    stone = require_choice(cfg, "rules.stone_start", ["body", "anywhere"])
    turn_cap = require_int(cfg, "rules.turn_cap", 1, 1_000_000)
    window = require_int(cfg, "rules.stalemate_window", 0, 1_000_000)
    ship_pts = require_int(cfg, "scoring.ship", 0, 1000)
    maj_pts = require_int(cfg, "scoring.majority", 0, 1000)
    bd = np.zeros(X.BD_SIZE, dtype=np.int64)
    for off, val in (
        (X.NR, n_rows), (X.NC, n_cols), (X.NB, n_bodies), (X.NL, n_spaces), (X.NK, kinds_n), (X.KJ, k_joker),
        (X.NCARDS, deck.size), (X.PLAYERS, players), (X.SHIPS, ships), (X.HAND, hand_size), (X.SLOTS, slots),
        (X.EVPT, events_per_turn), (X.COST_MAJ, c_maj), (X.COST_PRE, c_pre), (X.COST_ABS, c_abs),
        (X.FINAL_MAX, final_max), (X.RESHUFFLE, int(reshuffle)), (X.STONE_ANY, int(stone == "anywhere")),
        (X.TURN_CAP, turn_cap), (X.SHIP_PTS, ship_pts), (X.MAJ_PTS, maj_pts), (X.WINDOW, window),
        (X.TOP_BONUS, int(body_bonus.max())), (X.BD_ORDERED, int(body_bonus.min() >= maj_pts)),
    ):
        bd[off] = val
    bd[X.SP_ROW:X.SP_ROW + n_spaces] = lay.space_row
    bd[X.SP_COL:X.SP_COL + n_spaces] = lay.space_col
    bd[X.SP_BODY:X.SP_BODY + n_spaces] = lay.space_body
    bd[X.SP_K:X.SP_K + 4 * n_spaces] = sp_kinds.ravel()
    bd[X.BODY_SIZE:X.BODY_SIZE + n_bodies] = body_size
    bd[X.BODY_BONUS:X.BODY_BONUS + n_bodies] = body_bonus
    for b in range(n_bodies):
        bd[X.BODY_SP + b * X.MBS:X.BODY_SP + b * X.MBS + body_size[b]] = body_sp[b, :body_size[b]]
    bd[X.KIND_N:X.KIND_N + n_traj] = kind_n
    for k in range(n_traj):
        bd[X.KIND_SP + k * X.ML:X.KIND_SP + k * X.ML + kind_n[k]] = kind_sp[k, :kind_n[k]]
    for b in range(n_bodies):
        lines = {int(lay.space_row[s]) for s in body_sp[b, :body_size[b]]}
        lines |= {n_rows + int(lay.space_col[s]) for s in body_sp[b, :body_size[b]]}
        mask = sum(1 << k for k in lines)
        bd[X.BODY_LINES + b] = mask - (1 << 64) if mask >= 1 << 63 else mask  # 64 bits in an int64
    for k in range(n_rows + n_cols):
        crossed = sorted(set(lay.space_body[kind_sp[k, :kind_n[k]]].tolist()))
        bd[X.LINE_NB + k] = len(crossed)
        bd[X.LINE_B + k * X.MB:X.LINE_B + k * X.MB + len(crossed)] = crossed
    bd[X.DECK:X.DECK + deck.size] = deck
    bd[X.COMP_SHIPS:X.COMP_SHIPS + players] = extra_ships
    bd[X.COMP_PTS:X.COMP_PTS + players] = extra_points
    return bd, lay
