"""Two-step trap: a planted game where one-step look-ahead is fooled and two steps are not
(issue 53 item 2).

2 players, ``rules.rounds`` rounds, the leader alternating (seat ``round % 2``). A card shows one
of ``rules.replies`` replies, the refutation (drawn at random each round, face up). The leader
either *plays safe* (a fair coin gives the round's point to the leader or the other) or *attacks*:
then the other seat replies with one of the replies; the refutation takes the point, any other
reply gives it to the leader. The most points win (a tie shares the win).

Attacking is a trap: against a seat that reads the card it loses the round for sure, where playing
safe wins it half the time. A one-step look-ahead whose play-outs reply at random sees the attack
win (replies - 1) / replies of the time (3/4 at 4 replies) and falls for it; a search that looks two
steps deep sees the refutation.
"""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Two-step trap", players=(2, 2), length_unit="rounds",
                           summary="Play safe (a coin) or attack (the other seat may refute it with the card's reply).")
