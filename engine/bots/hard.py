"""The hard bot: the medium planner, tuned by measured tournaments against it.

Three changes to medium's judgement, each kept because ``bench/ai.py`` measured it ahead of
medium (an earlier one-ply look-ahead over claims, sampled ticket offers, racing to the end
when ahead, blocking an opponent's gap, drawing tickets early, and filling spare trains with
long routes alongside the tickets were all measured and did no better than medium, or worse):

- Route weights count a claim's turn as 1.5 trains (medium: 0.5) and a missing card as 0.6
  (medium: 0.45): its networks use fewer, longer routes, which score more points per train
  and per turn (a 4-route scores 7 for one claim; two 2-routes score 4 for two).
- Tickets are chosen on what their network earns, not on its cost alone: the route points
  of the routes still to claim, plus the points the turns and trains left over can still make
  with other routes, half-weighted beside the ticket points.
- A plan counts as safe only while it needs at most half the turns left (medium: 0.6), so
  it keeps and draws fewer tickets it would fail.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..board import Ticket
from .knowledge import Knowledge
from .medium import MediumBot
from .planner import Costs, Weights

# Points one spare turn, and one spare train, is worth in routes claimed outside the plan
# (about a 3- or 4-route per two turns of drawing and one of claiming).
SPARE_TURN_POINTS = 1.8
SPARE_TRAIN_POINTS = 1.4
# Weight of the network's route points (and the spare turns') beside the ticket points.
ROUTE_WEIGHT = 0.5


class HardBot(MediumBot):
    name = "hard"
    weights = Weights(turn=1.5, card=0.6)
    # Counts a plan safe only up to half the turns left (medium: 0.6): fewer failed tickets.
    safe_share = 0.5

    def keep_value(
        self, k: Knowledge, held: Sequence[Ticket], combo: Sequence[Ticket], costs: Costs
    ) -> float:
        plan, tickets = self.ticket_terms(k, held, combo, costs)
        points = k.board.rules.route_points
        routes = sum(points[k.board.routes[r].length] for r in plan.routes)
        spare_turns = max(0.0, self.horizon(k) - self.turns_needed(k, plan))
        spare_trains = max(0, k.my_trains - plan.trains)
        spare = min(SPARE_TURN_POINTS * spare_turns, SPARE_TRAIN_POINTS * spare_trains)
        return tickets + ROUTE_WEIGHT * (routes + spare)
