"""Face-down signs: a planted game with a hidden move (docs/strategies.md, "Hidden moves").

Each round every seat puts a sign face down (rock, paper or scissors), in turn from the round's
leader (seat ``round % players``); when all have, the signs are shown and each seat scores a point
for every other seat whose sign its own beats. After ``rules.rounds`` rounds the most points win
(a tie shares the win). Nobody sees a sign before the round's end: a seat that moves later in the
round knows nothing more than the leader. The leader rotates, so every seat is in every place of
the round equally often: the seats are fair by construction.

Against a player that leans to rock, a seat gains by playing paper, and a search player finds it
in its play-outs (where that player plays as it does) as long as its own model of the others does
not answer a sign they never saw (the leak issue 53 measured).
"""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Face-down signs", players=(2, 4), length_unit="rounds",
                           summary="Rock, paper, scissors face down in turn; the signs are shown at the round's end.")
