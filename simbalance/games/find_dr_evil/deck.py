"""The find-dr-evil deck, chosen from the shared Captain Action deck of the config. A module of its
own because the engine (prepare), the report (card labels) and the replay (card names) all need it."""

from __future__ import annotations

from simbalance.decks.captain_action import DR_EVIL
from simbalance.decks.captain_action import KIND_CAPTAIN_WILD
from simbalance.decks.captain_action import KIND_DR_LING
from simbalance.decks.captain_action import load_deck


def game_deck(cfg: dict):
    """Every numbered card that is not Dr. Evil, plus Dr. Ling."""
    deck = load_deck(cfg["deck"])
    evil = deck.character_index(DR_EVIL)
    keep = ((deck.kind != KIND_CAPTAIN_WILD) & (deck.character != evil)) | (deck.kind == KIND_DR_LING)
    return deck.select(keep)
