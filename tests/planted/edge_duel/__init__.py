"""Edge duel: a planted game whose metagame is known exactly (issue 55).

Two seats each bring a style (``alpha``, ``beta``, ``gamma``); one draw decides the game: the seat
with style ``i`` beats the seat with style ``j`` with probability 1/2 + edge(i, j), where
edge(alpha, beta) = ``rules.edge_ab``, edge(beta, gamma) = ``rules.edge_bc``, edge(gamma, alpha) =
``rules.edge_ca`` (in percentage points, each from -50 to 50), edge(j, i) = -edge(i, j) and a style
against itself is even. Nothing else matters (no seat is favoured), so the win-share matrix between
the styles is 1/2 + edge exactly.

- All three edges positive: rock, paper, scissors (alpha beats beta beats gamma beats alpha). With
  edges a, b, c the symmetric game's one equilibrium mixes the styles in proportion (b, c, a).
- ``edge_ca`` negative: alpha beats both others, a dominant strategy; the other two are dominated.

The preset ``alpha_twin`` is alpha under another name: it plays exactly alike.
"""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Edge duel", players=(2, 2), length_unit="draws",
                           summary="Two styles meet; each beats another by a known edge.")
