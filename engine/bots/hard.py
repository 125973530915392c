"""The hard bot: a tuned planner whose biggest decisions are checked by playing them out.

``HardPlanner`` is medium's planner with these changes, each kept because ``bench/ai.py``
measured it ahead of medium:

- Route weights count a claim's turn as 1.5 trains (medium: 0.5) and a missing card as 0.6
  (medium: 0.45): its networks use fewer, longer routes, which score more points per train
  and per turn (a 4-route scores 7 for one claim; two 2-routes score 4 for two).
- Tickets are chosen on what their network earns, not on its cost alone: the route points
  of the routes still to claim, plus the points the turns and trains left over can still make
  with other routes, half-weighted beside the ticket points.
- A plan counts as safe only while it needs at most half the turns left (medium: 0.6), so
  it keeps and draws fewer tickets it would fail.
- It plays for the longest-path bonus: a ticket choice counts the bonus the network's trail
  (with half the spare trains) is likely to win against the longest trail an opponent is
  expected to end with (``trails``), at twice its weight; a claim for points counts what it
  adds to that chance.
- A station weighs 9 in its paths (medium: 5): it builds fewer, keeps their 4 points, and
  its trail is not broken by a borrowed route.

``HardBot`` adds look-ahead over hidden information (``lookahead``, ``sampling``): at each
ticket choice, near the end, and whenever an opponent's plan seems to hang on a route it
could take, it compares a few candidate moves over the same sampled states, each played to
the end by the planner at its own seat and medium bots at the others, and keeps the
planner's move unless another is clearly ahead (near the end, where it looks at every
face-up card too and takes more samples, it plays whichever is ahead). Sampled opponents
hold tickets their track covers, so the look-ahead sees which of its claims would cut an
opponent's plan.

Measured and dropped along the way (``docs/ai-history.md``): a one-ply look-ahead over
claims, racing to the end when ahead, blocking whatever joins two parts of an opponent's
network, drawing tickets earlier or later, filling spare trains with long routes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ..board import Ticket
from ..colors import LOCOMOTIVE
from ..legal import claimable_routes, draw_actions
from ..state import GameState
from .knowledge import Knowledge, know
from .lookahead import MIN_SAMPLES, ActionT, Clock, Policy, best, evaluate
from .medium import MediumBot
from .planner import Costs, PlanMemo, Weights, criticality, pending_tickets, route_costs
from .sampling import sample_state, ticket_beliefs
from .tactics import claim_tunnel_risk, keep, offer_subsets, pay_for_route
from .trails import longest_chance, owned_edges, rival_trail, route_edges, trail_length

# Points one spare turn, and one spare train, is worth in routes claimed outside the plan
# (about a 3- or 4-route per two turns of drawing and one of claiming).
SPARE_TURN_POINTS = 1.8
SPARE_TRAIN_POINTS = 1.4


class HardPlanner(MediumBot):
    """Hard's judgement without the look-ahead: what its play-outs assume it will do."""

    name = "hard-planner"
    # A station costs it 9 where medium counts 5: the 4 points it keeps and the trail it
    # does not break are worth more than a detour's trains.
    weights = Weights(turn=1.5, card=0.6, borrow=9.0)
    # Counts a plan safe only up to half the turns left (medium: 0.6): fewer failed tickets.
    safe_share = 0.5
    # Weight of the network's route points (and the spare turns') beside the ticket points.
    route_weight = 0.5
    # Weight of the longest-path bonus a network is likely to win, beside the ticket points;
    # and the share of the trains a plan leaves over expected to lengthen the trail.
    longest_weight = 2.0
    spare_trail_share = 0.5

    def keep_value(
        self, k: Knowledge, held: Sequence[Ticket], combo: Sequence[Ticket], costs: Costs
    ) -> float:
        plan, tickets = self.ticket_terms(k, held, combo, costs)
        points = k.board.rules.route_points
        routes = sum(points[k.board.routes[r].length] for r in plan.routes)
        spare_turns = max(0.0, self.horizon(k) - self.turns_needed(k, plan))
        spare_trains = max(0, k.my_trains - plan.trains)
        spare = min(SPARE_TURN_POINTS * spare_turns, SPARE_TRAIN_POINTS * spare_trains)
        value = tickets + self.route_weight * (routes + spare)
        bonus = k.board.rules.longest_path_bonus
        if bonus:
            edges = owned_edges(k, k.seat) + route_edges(k, plan.routes)
            mine = trail_length(edges) + self.spare_trail_share * spare_trains
            value += self.longest_weight * bonus * longest_chance(mine, rival_trail(k))
        return value

    def claim_rank(self, k: Knowledge) -> Callable[[int], tuple[float, ...]]:
        """A claim for points ranks by its points and what it adds to the chance of the
        longest-path bonus against the longest trail an opponent has now."""
        bonus = k.board.rules.longest_path_bonus
        mine = owned_edges(k, k.seat)
        touching = {c for e in mine for c in e[1:3]}
        rival = max((trail_length(owned_edges(k, o)) for o in k.opponents()), default=0)
        before = longest_chance(trail_length(mine), rival)

        def rank(r: int) -> tuple[float, ...]:
            route = k.board.routes[r]
            gain = 0.0
            if bonus and any(c in touching for c in route.city_indices):
                after = trail_length(mine + route_edges(k, [r]))
                gain = bonus * (longest_chance(after, rival) - before)
            return (route.points + gain, -r)

        return rank


class HardBot(HardPlanner):
    """The planner, with its biggest decisions checked by playing the game out.

    - Ticket choices (the first one and every later one): the planner's best
      ``ticket_candidates`` combinations.
    - Before the end: the planner's move against claiming one of the two routes the
      opponents' sampled plans need most, when taking it would cost a plan at least
      ``block_threshold`` (a link with no way around counts twice its ticket's points).
    - Near the end (the player nearest it at ``search_trains`` or fewer): the planner's move
      against the two best-scoring claims, the best claim counting the longest path, a
      blind draw, each face-up colour and the two best blocks.

    Each candidate is played out on the same sampled states, by the planner at this seat and
    medium bots at the others, each seat keeping its plan while the play-out leaves it whole
    (``PlanMemo``). Before the end the planner's move stays unless another is
    ahead by more than ``keep_margin`` points and ``keep_z`` standard errors; near the end,
    where more samples make the comparison sharper, the best mean is played.
    """

    name = "hard"
    takes_budget = True
    # The think time a decision is given when none is passed in; the sample counts below
    # are those of this budget, and scale with the one given (``samples_for``). They are
    # sized for the compiled planning modules (``native``); from the sources alone the
    # play-outs take about 1.4 times as long, and the clock cuts the longest decisions.
    default_budget = 1.0
    # Sampled states per candidate at each kind of decision.
    initial_samples = 16
    keep_samples = 20
    # Near the end: every candidate on ``endgame_screen`` samples, then the planner's move
    # and the best ``endgame_finalists`` of those ahead of it on the rest, up to
    # ``endgame_samples`` (``lookahead.evaluate``); the best mean is played, however
    # little it is ahead (``endgame_margin``, ``endgame_z``).
    endgame_samples = 40
    endgame_screen = 16
    endgame_finalists = 3
    endgame_margin = 0.0
    endgame_z = 0.0
    # The same at ticket choices and before the end: candidates screened on half the
    # samples, then the planner's move and ``ticket_finalists`` (blocks: one) on the rest.
    initial_screen = 8
    keep_screen = 10
    ticket_finalists = 2
    block_screen = 8
    # Candidates compared at a ticket choice.
    ticket_candidates = 3
    # The end is near once the player nearest it has this many trains or fewer.
    search_trains = 10
    keep_margin = 1.0
    # Standard errors another move must be ahead by to replace the planner's.
    keep_z = 1.5
    # Sampled worlds in which the opponents' plans are read, to find routes to block.
    plan_samples = 3
    # Before the end, a block is weighed only when it would cost an opponent's plan this
    # much (a missing link counts twice its ticket's points), over this many samples.
    block_threshold = 12.0
    block_samples = 16
    check_ticket_draws = True

    def __init__(
        self, seed: int = 0, budget: float | None = None, clock: Clock | None = None
    ) -> None:
        super().__init__(seed)
        self._seed = seed
        self._planner = HardPlanner(seed)
        self._opponent = MediumBot(seed)
        # Who plays the play-outs: the planner at this seat, medium at the others, each
        # seat keeping its plan while the play-out leaves it whole (``PlanMemo``).
        self._memo = PlanMemo()
        self._playout_planner = HardPlanner(seed)
        self._playout_opponent = MediumBot(seed)
        self._playout_planner.memo = self._playout_opponent.memo = self._memo
        self.budget = self.default_budget if budget is None else budget
        self.clock = clock
        self._stop: Callable[[], bool] | None = None

    def decide(self, state: GameState, seat: int, k: Knowledge | None = None) -> Action:
        """The planner's move checked by the look-ahead within the think time: no samples
        are started once ``budget`` seconds of ``clock`` have passed since the decision
        began (each comparison still gets ``lookahead.MIN_SAMPLES``). Without a clock,
        the sample counts alone bound it, and the same position gets the same move on
        every machine. A budget of 0 or less plays the planner alone."""
        if self.budget <= 0:
            return self._planner.decide(state, seat, k)
        self._stop = None
        clock = self.clock
        if clock is not None:
            deadline = clock() + self.budget
            self._stop = lambda: clock() >= deadline
        return super().decide(state, seat, k)

    def samples_for(self, samples: int, screen: int | None) -> tuple[int, int | None]:
        """A decision's sample count and screen at this bot's budget: those set for
        ``default_budget``, scaled by the budget (at least ``MIN_SAMPLES``, and a screen
        of at least one sample before the last)."""
        scale = self.budget / self.default_budget
        n = max(MIN_SAMPLES, round(samples * scale))
        if screen is not None:
            screen = min(n - 1, max(1, round(screen * scale)))
        return n, screen

    def search(
        self,
        state: GameState,
        seat: int,
        k: Knowledge,
        candidates: Sequence[ActionT | None],
        samples: int,
        beliefs: dict[int, list[float]] | None = None,
        screen: int | None = None,
        finalists: int = 1,
        margin: float | None = None,
        z: float | None = None,
    ) -> ActionT | None:
        """The candidate the look-ahead plays: the first is the planner's move, and a None
        among them (no move of that kind) is left out; None when no candidate is left."""
        # Face-up cards of one colour are one move: the first of them stands for all.
        unique: list[ActionT] = []
        seen: list[Action | tuple[str, int | None]] = []
        for c in candidates:
            if c is None:
                continue
            same = ("face-up", k.market[c.slot]) if isinstance(c, DrawFaceUp) else c
            if same not in seen:
                unique.append(c)
                seen.append(same)
        if len(unique) < 2:
            return unique[0] if unique else None
        samples, screen = self.samples_for(samples, screen)
        # Seeded by the position, not by earlier calls: the same position, the same choice.
        rng = random.Random(f"{self._seed}/{state.action_count}/{seat}")
        policies: list[Policy] = [
            self._playout_planner.decide if s == seat else self._playout_opponent.decide
            for s in range(k.players)
        ]
        estimates = evaluate(
            state,
            seat,
            k,
            unique,
            policies,
            samples,
            rng,
            beliefs,
            screen=screen,
            finalists=finalists,
            stop=self._stop,
            fresh=self._memo.clear,
        )
        return best(
            estimates,
            self.keep_margin if margin is None else margin,
            self.keep_z if z is None else z,
        )

    def keep_tickets(self, state: GameState, seat: int, k: Knowledge) -> KeepTickets:
        costs = route_costs(k, self.weights)
        held = pending_tickets(k)
        combos = offer_subsets(state, k)
        scored = sorted(
            range(len(combos)),
            key=lambda i: (self.keep_value(k, held, combos[i], costs), -i),
            reverse=True,
        )
        top = [keep(combos[i]) for i in scored[: self.ticket_candidates]]
        if k.kind == "choose_initial_tickets":
            samples, screen = self.initial_samples, self.initial_screen
        else:
            samples, screen = self.keep_samples, self.keep_screen
        kept = self.search(
            state, seat, k, top, samples, screen=screen, finalists=self.ticket_finalists
        )
        # An offer always has a subset to keep, so ``top`` is never empty.
        assert kept is not None
        return kept

    def near_end(self, k: Knowledge) -> bool:
        return k.last_round or min(k.trains) <= self.search_trains

    def turn(self, state: GameState, seat: int, k: Knowledge) -> Action | None:
        planned = super().turn(state, seat, k)
        near_end = self.near_end(k)
        # The opponents' ticket likelihoods, worked out once for the blocks and the search
        # (there are no blocks to weigh without a claimable route).
        beliefs: dict[int, list[float]] | None = None
        if near_end or (self.block_threshold != float("inf") and claimable_routes(state, seat)):
            beliefs = ticket_beliefs(k)
        if not near_end:
            blocks = self.blocking_claims(state, seat, k, self.block_threshold, beliefs)
            options = [planned, *blocks]
            if isinstance(planned, DrawTickets) and self.check_ticket_draws:
                # More tickets late in the game may not get done: against the best claim
                # and a blind draw.
                options += self.alternatives(state, seat, k, planned)[1:2]
                options.append(DrawBlind())
            if len(options) == 1:
                return planned
            return self.search(
                state, seat, k, options, self.block_samples, beliefs, screen=self.block_screen
            )
        options = self.alternatives(state, seat, k, planned)
        if not k.last_round:
            # Every face-up card too: near the end, which colour comes next decides claims.
            options += [a for a in draw_actions(state, seat) if isinstance(a, DrawFaceUp)]
        options += self.blocking_claims(state, seat, k, 0.0, beliefs)
        return self.search(
            state,
            seat,
            k,
            options,
            self.endgame_samples,
            beliefs,
            screen=self.endgame_screen,
            finalists=self.endgame_finalists,
            margin=self.endgame_margin,
            z=self.endgame_z,
        )

    def blocking_claims(
        self,
        state: GameState,
        seat: int,
        k: Knowledge,
        threshold: float,
        beliefs: dict[int, list[float]] | None,
    ) -> list[ClaimRoute]:
        """Claims of routes the opponents' plans need, as sampled worlds show them: the
        two that would hurt those plans most, if that hurt reaches ``threshold``."""
        claimable = set(claimable_routes(state, seat))
        if not claimable or threshold == float("inf"):
            return []
        rng = random.Random(f"{self._seed}/{state.action_count}/{seat}/block")
        if beliefs is None:
            beliefs = ticket_beliefs(k)
        hurt: dict[int, float] = {}
        for _ in range(self.plan_samples):
            world = sample_state(state, seat, k, rng, beliefs)
            for o in k.opponents():
                theirs = know(world, o)
                plan, costs = self._opponent.make_plan(theirs)
                needed = [r for r in plan.routes if r in claimable]
                if not needed:
                    continue
                crit = criticality(theirs, plan, costs, needed)
                for r in needed:
                    hurt[r] = hurt.get(r, 0.0) + crit.get(r, 0.0) / self.plan_samples
        ranked = sorted(hurt, key=lambda r: (hurt[r], -r), reverse=True)
        out = []
        for r in ranked[:2]:
            if hurt[r] < threshold or hurt[r] <= 0.0:
                break
            claim = pay_for_route(state, seat, k, r, [0] * LOCOMOTIVE)
            if claim is not None and claim_tunnel_risk(k, claim) < self.tunnel_risk_max:
                out.append(claim)
        return out

    def alternatives(
        self, state: GameState, seat: int, k: Knowledge, planned: Action | None
    ) -> list[Action | None]:
        """The planned move, the two best-scoring claims, the best claim counting the
        longest path, and a blind draw."""
        out = [planned]
        claims: list[tuple[int, int, ClaimRoute]] = []
        claimable = claimable_routes(state, seat)
        for r in claimable:
            claim = pay_for_route(state, seat, k, r, [0] * LOCOMOTIVE)
            if claim is not None:
                claims.append((k.board.routes[r].points, -r, claim))
        claims.sort(key=lambda c: c[:2], reverse=True)
        out.extend(c[2] for c in claims[:2])
        # The best claim once the longest path counts too (often one of the two above).
        out.append(self.points_claim(state, seat, k, claimable, 1))
        if not k.last_round and DrawBlind() in draw_actions(state, seat):
            out.append(DrawBlind())
        return out
