"""captain-action: the set-collection game of the Captain Action deck ("Let Justice Be Done!").

This module stays light (the game registry imports it to read SPEC): ``score_hand`` imports the
jitted scoring code only when first called.
"""

from __future__ import annotations

from functools import cache

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Captain Action (Let Justice Be Done!)", players=(2, 6),
                           summary="Set collection: draw and discard to build sets of backgrounds and characters; call to end it.")


@cache
def _default_scorer():
    """Card ids by printed number and the scoring arrays, from the default config."""
    import numpy as np

    from simbalance.core.config import load_config
    from simbalance.decks.captain_action import KIND_CAPTAIN_WILD
    from simbalance.games.captain_action.deck import game_deck
    from simbalance.games.captain_action.deck import scoring_arrays

    cfg = load_config(SPEC.id)
    deck = game_deck(cfg)
    card_info, srules = scoring_arrays(cfg, deck)
    by_number = {int(deck.number[c]): c for c in range(deck.size) if deck.number[c] > 0}
    wilds = np.flatnonzero(deck.kind == KIND_CAPTAIN_WILD)
    wild_id = int(wilds[0]) if len(wilds) else None
    return by_number, wild_id, card_info, srules


def score_hand(cards) -> int:
    """The best score of a hand under the default rules.

    ``cards``: printed numbers, 0 for a Captain Action wildcard and 1 to 48 for numbered cards (any
    number of cards; a number may repeat, as if several decks were mixed). Wildcards take the
    identities that maximise the score; the engine scores hands with the same jitted code.
    """
    import numpy as np

    from simbalance.games.captain_action.scoring_nb import hand_score
    from simbalance.games.captain_action.state_nb import RULE_N_BG
    from simbalance.games.captain_action.state_nb import RULE_N_CH

    by_number, wild_id, card_info, srules = _default_scorer()
    ids = []
    for number in cards:
        if isinstance(number, bool) or not isinstance(number, (int, np.integer)):
            raise ValueError(f"card {number!r}: expected a printed number (0 for the wildcard)")
        number = int(number)
        if number == 0 and wild_id is not None:
            ids.append(wild_id)
        elif number in by_number:
            ids.append(by_number[number])
        else:
            raise ValueError(f"card {number}: no such card in the default captain-action deck")
    hand = np.array([ids], dtype=np.int64).reshape(1, len(ids))
    n_bg, n_ch = int(srules[RULE_N_BG]), int(srules[RULE_N_CH])
    cnt = np.zeros((3, max(n_bg, n_ch)), dtype=np.int64)
    scratch = np.zeros(n_bg + n_ch + len(ids) + 1, dtype=np.int64)
    return int(hand_score(hand, 0, len(ids), card_info, srules, cnt, scratch))
