"""Named fields of a flat array: a game keeps a table of integers (rules, state, scratch) in one
numpy array and names each field's offset once, in its state_nb.py."""


class Offsets:
    """Hands out the next free offsets: ``TURN = table.take(1)``, ``HAND = table.take(MAX_SEATS)``;
    ``n`` is the size taken so far (the array's length once every field is named)."""

    def __init__(self) -> None:
        self.n = 0

    def take(self, size: int) -> int:
        at = self.n
        self.n += size
        return at
