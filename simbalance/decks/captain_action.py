"""The Captain Action deck, loaded from config and validated: one source for three games.

``load_deck(cfg["deck"])`` turns the deck table of a resolved config into ``CaptainActionDeck``:
parallel arrays over the cards, in a fixed order (numbered cards by printed number, then the
Captain Action wildcards, then Dr. Ling). Games pick their subset with ``select``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simbalance.core.errors import ConfigError

KIND_NUMBERED = 0
KIND_CAPTAIN_WILD = 1  # printed 0, no background
KIND_DR_LING = 2  # "Dr. Evil as Dr. Ling": character Dr. Evil, no background

DR_EVIL = "Dr. Evil"
MAX_CARD_NUMBER = 9999


@dataclass(frozen=True)
class CaptainActionDeck:
    backgrounds: tuple[str, ...]
    characters: tuple[str, ...]
    number: np.ndarray  # printed number; 0 for both kinds of wildcard
    pose: np.ndarray  # pose index 0..n_poses-1; -1 for wildcards
    character: np.ndarray  # index into characters; Dr. Ling is Dr. Evil; -1 for Captain wilds
    background: np.ndarray  # index into backgrounds; -1 for wildcards
    kind: np.ndarray  # KIND_*
    pose_ids: tuple[int, ...]  # the config's pose number of each pose index

    @property
    def size(self) -> int:
        return len(self.number)

    @property
    def n_poses(self) -> int:
        return len(self.pose_ids)

    def character_index(self, name: str) -> int:
        return self.characters.index(name)

    def label(self, card: int) -> str:
        """A designer-readable name of card ``card``: ``"Lady Action 9 (periwinkle)"``."""
        if self.kind[card] == KIND_CAPTAIN_WILD:
            return "Captain Action wildcard 0"
        if self.kind[card] == KIND_DR_LING:
            return "Dr. Ling wildcard"
        return (
            f"{self.characters[self.character[card]]} {self.number[card]} "
            f"({self.backgrounds[self.background[card]]})"
        )

    def labels_and_groups(self) -> tuple[list[str], dict[str, list[int]]]:
        """Every card's label, and the cards of each character and background: what the
        card-impact table reports on. Copies of one card (the wildcards share a face) share a label,
        and the card-impact table makes them one row."""
        labels = [self.label(c) for c in range(self.size)]
        groups: dict[str, list[int]] = {}
        for c in range(self.size):
            if self.character[c] >= 0:
                groups.setdefault(f"any {self.characters[self.character[c]]}", []).append(c)
            if self.background[c] >= 0:
                groups.setdefault(f"any {self.backgrounds[self.background[c]]}", []).append(c)
        wild = [c for c in range(self.size) if self.kind[c] != KIND_NUMBERED]
        if wild:
            groups["any wildcard"] = wild
        return labels, groups

    def select(self, keep: np.ndarray) -> CaptainActionDeck:
        """The sub-deck of the cards where ``keep`` is true, in the same order."""
        keep = np.asarray(keep, dtype=bool)
        return CaptainActionDeck(
            self.backgrounds, self.characters, self.number[keep], self.pose[keep],
            self.character[keep], self.background[keep], self.kind[keep], self.pose_ids,
        )


def _names(table: dict, key: str) -> tuple[str, ...]:
    names = table.get(key)
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise ConfigError(f"deck.{key} = {names!r}: expected a non-empty list of names")
    if len(set(names)) != len(names):
        raise ConfigError(f"deck.{key} = {names!r}: a name appears twice")
    return tuple(names)


def load_deck(table: dict) -> CaptainActionDeck:
    """Validate the ``[deck]`` table of a config and build the deck's arrays."""
    backgrounds = _names(table, "backgrounds")
    characters = _names(table, "characters")
    if DR_EVIL not in characters:
        raise ConfigError(f"deck.characters = {list(characters)!r}: must include {DR_EVIL!r} (Dr. Ling is one)")
    wild = table.get("wildcards", {})
    counts = {}
    for key in ("captain_action", "dr_ling"):
        value = wild.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"deck.wildcards.{key} = {value!r}: expected a whole number >= 0")
        counts[key] = value
    poses = table.get("poses")
    if not isinstance(poses, dict) or not poses:
        raise ConfigError("deck.poses: expected a table of poses (poses.<number> = {character, cards})")

    number, pose, character, background = [], [], [], []
    seen: dict[int, str] = {}
    pose_ids = []
    for index, (key, spec) in enumerate(sorted(poses.items(), key=lambda kv: _pose_number(kv[0]))):
        pose_ids.append(_pose_number(key))
        where = f"deck.poses.{key}"
        if not isinstance(spec, dict) or set(spec) != {"character", "cards"}:
            raise ConfigError(f"{where}: expected {{ character = ..., cards = {{ background = number }} }}")
        name = spec["character"]
        if name not in characters:
            raise ConfigError(f"{where}.character = {name!r}: unknown character; declared: {', '.join(characters)}")
        cards = spec["cards"]
        if not isinstance(cards, dict) or not cards:
            raise ConfigError(f"{where}.cards: expected a table background = printed number")
        for bg, num in cards.items():
            if bg not in backgrounds:
                raise ConfigError(
                    f"{where}.cards.{bg}: unknown background {bg!r}; declared: {', '.join(backgrounds)}"
                )
            if isinstance(num, bool) or not isinstance(num, int) or not 1 <= num <= MAX_CARD_NUMBER:
                raise ConfigError(f"{where}.cards.{bg} = {num!r}: expected a card number from 1 to {MAX_CARD_NUMBER} "
                                  "(0 is the wildcard)")
            if num in seen:
                raise ConfigError(f"{where}.cards.{bg} = {num}: card number {num} appears twice (also {seen[num]})")
            seen[num] = f"{where}.cards.{bg}"
            number.append(num)
            pose.append(index)
            character.append(characters.index(name))
            background.append(backgrounds.index(bg))

    removed = table.get("removed", [])
    if not isinstance(removed, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in removed):
        raise ConfigError(f"deck.removed = {removed!r}: expected a list of printed card numbers")
    for r in removed:
        if r not in seen:
            raise ConfigError(f"deck.removed: no card numbered {r} in the deck (wildcards are removed by count)")
    if len(set(removed)) != len(removed):
        raise ConfigError(f"deck.removed = {removed!r}: a card is listed twice")
    keep = [num not in removed for num in number]
    number, pose, character, background = ([v for v, k in zip(col, keep, strict=True) if k]
                                           for col in (number, pose, character, background))
    order = np.argsort(number, kind="stable")
    n_wild, n_ling = counts["captain_action"], counts["dr_ling"]
    evil = characters.index(DR_EVIL)

    def cat(values, wild_value, ling_value, dtype):
        return np.concatenate([
            np.asarray(values, dtype=dtype)[order],
            np.full(n_wild, wild_value, dtype=dtype),
            np.full(n_ling, ling_value, dtype=dtype),
        ])

    return CaptainActionDeck(
        backgrounds=backgrounds,
        characters=characters,
        number=cat(number, 0, 0, np.int16),
        pose=cat(pose, -1, -1, np.int16),
        character=cat(character, -1, evil, np.int8),
        background=cat(background, -1, -1, np.int8),
        kind=cat([KIND_NUMBERED] * len(number), KIND_CAPTAIN_WILD, KIND_DR_LING, np.int8),
        pose_ids=tuple(pose_ids),
    )


def _pose_number(key: str) -> int:
    try:
        value = int(key)
    except ValueError:
        raise ConfigError(f"deck.poses.{key}: a pose is named by its number (poses.1, poses.2, ...)") from None
    if value < 1:
        raise ConfigError(f"deck.poses.{key}: pose numbers start at 1")
    return value
