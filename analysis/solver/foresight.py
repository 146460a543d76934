"""Foresight: what each option was worth to a player who could not see the other hands.

For a decision by ``seat``, the unseen cards are dealt at random many times, in
every layout that agrees with what ``seat`` has seen: its own hand, the upcard
(which the dealer holds after picking it up, until it is played), the cards
played and who played them, the suits each player has shown out of, the three
cards a farmer showed, and its own discard when it dealt. Each layout is solved
double dummy after each option, and the option's value is the average of the
hand's net points for the decider's side (its points minus the opponents').

The same ``seed`` gives the same layouts, so a review is reproducible.

Reading the auction (the sampler ``auction-v1``, the default)
-------------------------------------------------------------
The calls made before a decision say something about the hands that made them: a seat
that passed in the first round seldom holds both bowers of the upcard's suit. The
sampler reads them as the standard policy (``games.strategy.policy``) would have made
them, with a little noise, so that no layout is ever impossible:

- a seat makes the policy's call with probability ``1 - ε`` and each of its other legal
  calls with ``ε / (n - 1)``, ``n`` its legal calls (``ε`` is :data:`AUCTION_NOISE`, 0.05);
- a layout is worth the product, over the calls of every other seat before the decision
  (the auction and the declines or declarations of defending alone, read at 0–0 as the
  review's policy reads the hand), of that call's chance given the hand the layout gives
  the seat when it called. The decider's own calls say nothing it does not know.
  Relative to a layout where every call is the policy's, a call the policy would not
  have made multiplies the weight by ``ε / ((n - 1)(1 - ε))`` (about 0.026 for a
  first-round call with three legal calls);
- layouts are drawn by rejection: each candidate from the uniform deal above, kept with
  a chance equal to its relative weight, so the layouts kept are independent draws from
  the weighted model and every mean and standard error stays that of equal, independent
  layouts. The weights are taken relative to the heaviest of a first batch of
  :data:`PILOT_CANDIDATES` candidates: 1 when some candidate fits every call, less for an
  auction no candidate fits (a quiz's made-up auction, say), so that such an auction
  does not cost a candidate per miss. Should fewer than ``count`` still be kept in
  :data:`CANDIDATES_PER_LAYOUT` candidates a layout, the rest are drawn from all the
  candidates in proportion to their weights (those may repeat);
- the hand a seat called with is the layout's cards of that seat with the cards it has
  played; the dealer's, when it picked the upcard up, less the upcard and with a card of
  the kitty as its discard; a seat sitting out, five cards of the kitty's part of the
  deal. The farmer's hand and the dealer's discard are not read.

``uniform`` is the first sampler, every layout that agrees with what the decider has seen
equally likely; it stays selectable (``sampler=UNIFORM``) and draws exactly the layouts it
drew before. ``benchmarks/auction_sampling.py`` measures what reading the auction costs
and how often it changes a mark.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.engine.cards import ALL_CARDS, Card, Seat, Team, effective_suit
from games.engine.hand import Action, Call, Discard, FarmerSwap, HandState, Phase
from games.engine.rules import Rules
from games.engine.scoring import scoring_row
from games.strategy.observation import Observation, observe
from games.strategy.policy import decide

from .dd import Position, Prepared, Solver
from .hindsight import Unknown, distinct_discards, strain_number
from .tables import card_mask, tables_for

__all__ = [
    "AUCTION_NOISE",
    "AUCTION_V1",
    "CANDIDATES_PER_LAYOUT",
    "PILOT_CANDIDATES",
    "DEFAULT_SAMPLER",
    "SAMPLERS",
    "UNIFORM",
    "Heard",
    "Layout",
    "auction_weight",
    "heard_calls",
    "Policy",
    "call_foresight",
    "OptionValue",
    "card_foresight",
    "discard_foresight",
    "distinct_discards",
    "hand_points",
    "paired_loss",
    "sample_deals",
    "sample_layouts",
    "SolverCache",
]

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)

AUCTION_V1 = "auction-v1"
"""The sampler that reads the earlier calls by the standard policy (the module docstring)."""
UNIFORM = "uniform"
"""The first sampler: every layout that agrees with what the decider has seen alike."""
SAMPLERS = (AUCTION_V1, UNIFORM)
DEFAULT_SAMPLER = AUCTION_V1
AUCTION_NOISE = 0.05
"""ε: the chance that a seat makes a call other than the standard policy's."""
CANDIDATES_PER_LAYOUT = 25
"""The rejection sampler's budget: at most this many candidates a layout asked for."""
PILOT_CANDIDATES = 32
"""The first batch of candidates, whose heaviest sets the scale of the rejection: this many,
or twice the layouts asked for if fewer, or the layouts asked for if more."""

SolverCache = dict[tuple[int, tuple[bool, bool, bool, bool]], Solver]
"""Solvers by strain and active seats. Their tables hold what is true of a position
whatever the question, so one cache can serve every decision of a hand."""


def _solver(
    solvers: SolverCache | None, strain: int, active: tuple[bool, bool, bool, bool]
) -> Solver:
    if solvers is None:
        return Solver(strain, active)
    solver = solvers.get((strain, active))
    if solver is None:
        solver = solvers[(strain, active)] = Solver(strain, active)
    return solver


@dataclass(frozen=True)
class OptionValue:
    """An option's expected net points over the sampled layouts, and its standard error."""

    mean: float
    se: float
    values: tuple[float, ...]


Layout = dict[Seat, list[Card]]
"""The cards each active seat other than the decider holds now, in one sampled layout."""


def hand_points(rules: Rules, state: HandState, team: Team, team_tricks: int) -> int:
    """Net points of a finished hand for ``team`` (its points minus the other side's) when it
    ends with ``team_tricks`` tricks.
    """
    assert state.maker is not None
    makers = state.maker.team
    maker_tricks = team_tricks if team is makers else 5 - team_tricks
    _, points, to_makers = scoring_row(
        rules,
        no_trump=state.trump is None,
        alone=state.alone,
        defender_alone=state.defender_alone is not None,
        maker_tricks=maker_tricks,
    )
    winner = makers if to_makers else makers.other
    return points if winner is team else -points


def _unseen(state: HandState, seat: Seat) -> tuple[list[Card], dict[Seat, int], Card | None]:
    """The cards ``seat`` cannot place, how many each other active seat holds, and the upcard
    if the dealer must still hold it.
    """
    own = state.hands[seat]
    if None in own:
        raise Unknown(f"{seat}'s own cards are not all known")
    seen: set[Card] = {c for c in own if c is not None}
    for trick in state.tricks:
        seen.update(card for _, card in trick.cards)
    if isinstance(state.farmer, FarmerSwap):
        seen.update(state.farmer.cards)  # shown to the table, now in the kitty
    dealer_holds: Card | None = None
    if state.picked_up:
        seen.add(state.upcard)
        upcard_played = any(card == state.upcard for t in state.tricks for _, card in t.cards)
        if seat is not state.dealer and not upcard_played and not state.sits_out(state.dealer):
            dealer_holds = state.upcard
        if seat is state.dealer and state.discard is not None:
            seen.add(state.discard)
    else:
        seen.add(state.upcard)  # turned down, or left down for a sitting-out dealer
    counts = {s: len(state.hands[s]) for s in _SEATS if s is not seat and not state.sits_out(s)}
    if dealer_holds is not None:
        counts[state.dealer] -= 1
    pool = [c for c in ALL_CARDS if c not in seen]
    return pool, counts, dealer_holds


def sample_layouts(
    state: HandState,
    seat: Seat,
    count: int,
    rng: random.Random,
    sampler: str = DEFAULT_SAMPLER,
) -> list[Layout]:
    """``count`` layouts of the unseen cards, each consistent with what ``seat`` has seen,
    drawn by ``sampler`` (:data:`AUCTION_V1` reads the earlier calls, :data:`UNIFORM` does
    not: the module docstring)."""
    _check_sampler(sampler)
    pool, counts, dealer_holds = _unseen(state, seat)
    trump = state.trump
    # The cards each seat cannot hold: those of the suits it has shown out of.
    banned = {
        s: frozenset(c for c in pool if effective_suit(c, trump) in state.shown_out[s])
        for s in counts
    }
    order = sorted(counts, key=lambda s: -len(state.shown_out[s]))
    heard = heard_calls(state, seat) if sampler == AUCTION_V1 else []

    def draw() -> tuple[Layout, list[Card]]:
        layout, rest = _deal_one(pool, counts, banned, order, rng)
        if dealer_holds is not None:
            layout[state.dealer].append(dealer_holds)
        return layout, rest

    if not heard:
        return [draw()[0] for _ in range(count)]
    played: dict[Seat, list[Card]] = {s: [] for s in _SEATS}
    for trick in state.tricks:
        for who, card in trick.cards:
            played[who].append(card)
    memo: dict[tuple[int, int], bool] = {}

    def weight(candidate: tuple[Layout, list[Card]], floor: float) -> float:
        layout, rest = candidate
        return auction_weight(heard, _called_with(state, layout, rest, played), memo, floor)

    return [layout for layout, _ in _draw(draw, weight, count, rng)]


def _check_sampler(sampler: str) -> None:
    if sampler not in SAMPLERS:
        raise ValueError(f"sampler: expected one of {', '.join(SAMPLERS)}, not {sampler!r}")


def _called_with(
    state: HandState, layout: Layout, rest: list[Card], played: Mapping[Seat, list[Card]]
) -> dict[Seat, list[Card]]:
    """The hand each other seat held in the auction, in a layout of the cards now unseen:
    its cards now and those it played; the dealer that picked the upcard up less the upcard
    and with a card of ``rest`` (the kitty's part of the deal) for its discard; a seat
    sitting out, five cards of ``rest``."""
    hands: dict[Seat, list[Card]] = {}
    spare = 0
    for s, cards in layout.items():
        hand = cards + played[s]
        if s is state.dealer and state.picked_up and state.upcard in hand:
            hand = [c for c in hand if c != state.upcard]
            if spare < len(rest):
                hand.append(rest[spare])
                spare += 1
        hands[s] = hand
    for s in _SEATS:
        if s not in hands and state.sits_out(s) and spare + 5 <= len(rest):
            hands[s] = rest[spare : spare + 5]
            spare += 5
    return hands


@dataclass(frozen=True)
class Heard:
    """A call some other seat made before the decision, as the decider heard it: the seat's
    view then (its hand left out: each layout gives its own) and the weight a layout keeps
    when the standard policy, holding the layout's hand, would have called otherwise."""

    seat: Seat
    call: Call
    view: Observation
    miss: float


def heard_calls(state: HandState, seat: Seat, noise: float = AUCTION_NOISE) -> list[Heard]:
    """The calls before the decision by seats other than ``seat`` (the auction and the
    declarations of defending alone), each with the public view it was made from."""
    seen = state.seen_by(seat)
    trial = HandState(
        seen.rules,
        seen.dealer,
        {s: list(seen.dealt[s]) for s in _SEATS},
        seen.upcard,
        list(seen.dealt_kitty),
    )
    heard: list[Heard] = []
    for (who, action), phase in zip(seen.history, seen.history_phases, strict=True):
        if phase is not Phase.FARMER and phase is not Phase.AUCTION and phase is not Phase.DEFEND:
            break
        if phase is not Phase.FARMER and who is not seat and isinstance(action, Call):
            view = observe(trial, who)
            n = len(view.legal)
            if n > 1:
                miss = noise / ((n - 1) * (1.0 - noise))
                heard.append(Heard(who, action, _holding(view, ()), miss))
        trial.apply(action)
    # A call other than a pass is the one a random hand least often agrees with: read first,
    # it lets a rejection sampler stop soonest.
    return sorted(heard, key=lambda h: h.call.kind == "pass")


def _holding(view: Observation, hand: tuple[Card, ...]) -> Observation:
    """``view`` with ``hand`` for the seat's cards (and nothing of the state it came from)."""
    return Observation(
        seat=view.seat,
        phase=view.phase,
        rules=view.rules,
        dealer=view.dealer,
        upcard=view.upcard,
        hand=hand,
        legal=view.legal,
        auction=view.auction,
        strain=view.strain,
        maker=view.maker,
        alone=view.alone,
        defender_alone=view.defender_alone,
        picked_up=view.picked_up,
        tricks_won=view.tricks_won,
        score=view.score,
        farmer_seat=view.farmer_seat,
        farmer_cards=view.farmer_cards,
    )


def _same_call(ours: Action, theirs: Call) -> bool:
    """Whether the policy's call is the call made (an order up names no suit of its own)."""
    if not isinstance(ours, Call) or ours.kind != theirs.kind or ours.alone != theirs.alone:
        return False
    return ours.kind == "order_up" or ours.suit == theirs.suit


def auction_weight(
    heard: Sequence[Heard],
    hands: Mapping[Seat, Sequence[Card]],
    memo: dict[tuple[int, int], bool] | None = None,
    floor: float = 0.0,
) -> float:
    """A layout's weight relative to one where every heard call is the policy's: the
    product of :attr:`Heard.miss` over the calls the policy, holding ``hands``, would not
    have made. A seat whose hand is not in ``hands`` (or not five cards) is not read.
    ``memo`` keeps each call's verdict by hand (the same hands come back in many layouts).
    Once the product is below ``floor`` it is returned as it stands (the rest of the calls
    can only lower it): a rejection sampler needs no more."""
    weight = 1.0
    for i, h in enumerate(heard):
        if weight < floor:
            return weight
        cards = hands.get(h.seat)
        if cards is None or len(cards) != 5:
            continue
        hand = tuple(cards)
        key = (i, card_mask(hand))
        agrees = None if memo is None else memo.get(key)
        if agrees is None:
            agrees = _same_call(decide(_holding(h.view, hand)), h.call)
            if memo is not None:
                memo[key] = agrees
        if not agrees:
            weight *= h.miss
    return weight


def _draw[T](
    draw: Callable[[], T],
    weight: Callable[[T, float], float],
    count: int,
    rng: random.Random,
) -> list[T]:
    """``count`` draws from the model that weighs ``draw``'s candidates by ``weight`` (at
    most 1; ``weight(c, u)`` may stop short once it is below ``u``), by rejection: each
    candidate is kept when a uniform draw falls below its weight relative to the heaviest
    of a first batch (:data:`PILOT_CANDIDATES`; 1 unless no candidate of the batch fits
    every call). Past the budget (:data:`CANDIDATES_PER_LAYOUT` a layout), the rest by
    resampling every candidate drawn in proportion to its weight."""
    budget = count * CANDIDATES_PER_LAYOUT
    pilot = max(count, min(PILOT_CANDIDATES, 2 * count))
    candidates = [draw() for _ in range(pilot)]
    weights = [weight(c, 0.0) for c in candidates]
    top = max(weights, default=1.0)
    kept = [c for c, w in zip(candidates, weights, strict=True) if rng.random() * top < w]
    while len(kept) < count and len(candidates) < budget:
        candidate = draw()
        u = rng.random() * top
        candidates.append(candidate)
        if u < weight(candidate, u):
            kept.append(candidate)
    del kept[count:]
    if len(kept) < count:
        cumulative: list[float] = []
        total = 0.0
        for candidate in candidates:
            total += weight(candidate, 0.0)
            cumulative.append(total)
        while len(kept) < count:
            at = bisect_right(cumulative, rng.random() * total)
            kept.append(candidates[min(at, len(candidates) - 1)])
    return kept


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same permutation from the same generator state, drawn
    the same way (``getrandbits``, a draw retried while out of range), without the two
    Python calls per card the library makes. Sampling shuffles by the hundred thousand.
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _deal_one(
    pool: list[Card],
    counts: dict[Seat, int],
    banned: dict[Seat, frozenset[Card]],
    order: list[Seat],
    rng: random.Random,
) -> tuple[Layout, list[Card]]:
    """A layout, and the unseen cards left in no hand (the kitty's part), in random order."""
    # Rejection first: a uniform shuffle, kept if it breaks no void. It is exact and, with
    # few voids, quick.
    cards = list(pool)
    for _ in range(40):
        shuffle(cards, rng)
        layout: Layout = {}
        position = 0
        fits = True
        for s in order:
            hand = cards[position : position + counts[s]]
            position += counts[s]
            if banned[s] and not banned[s].isdisjoint(hand):
                fits = False
                break
            layout[s] = hand
        if fits:
            return layout, cards[position:]
    # Many voids: give the most constrained seats their cards first, from what they may hold
    # (a greedy deal can still paint itself into a corner: shuffle and try again).
    for _ in range(40):
        shuffle(cards, rng)
        layout = {}
        remaining = list(cards)
        for s in order:
            allowed = [c for c in remaining if c not in banned[s]]
            if len(allowed) < counts[s]:
                break
            hand = allowed[: counts[s]]
            layout[s] = hand
            remaining = [c for c in remaining if c not in hand]
        else:
            return layout, remaining
    # Rarely, both fail by chance where a layout exists (a sampler that reads the auction
    # deals many candidates): search for one, the cards in a shuffled order.
    found = _search_deal(cards, counts, banned, order)
    if found is None:
        raise Unknown("no layout of the unseen cards fits the suits the players have shown out of")
    return found


def _search_deal(
    cards: list[Card],
    counts: dict[Seat, int],
    banned: dict[Seat, frozenset[Card]],
    order: list[Seat],
) -> tuple[Layout, list[Card]] | None:
    """A layout of ``cards`` that breaks no void, found by a depth-first search (the card
    the fewest seats may hold placed first), or ``None`` when there is none."""
    room = {s: counts[s] for s in order}
    spare = len(cards) - sum(room.values())
    if spare < 0:
        return None
    ranked = sorted(cards, key=lambda c: sum(1 for s in order if c not in banned[s]))
    hands: Layout = {s: [] for s in order}
    rest: list[Card] = []

    def place(i: int, spare: int) -> bool:
        if i == len(ranked):
            return True
        card = ranked[i]
        for s in order:
            if room[s] and card not in banned[s]:
                room[s] -= 1
                hands[s].append(card)
                if place(i + 1, spare):
                    return True
                hands[s].pop()
                room[s] += 1
        if spare:
            rest.append(card)
            if place(i + 1, spare - 1):
                return True
            rest.pop()
        return False

    return (hands, rest) if place(0, spare) else None


def card_foresight(
    state: HandState,
    seat: Seat,
    samples: int,
    rng: random.Random,
    solvers: SolverCache | None = None,
    sampler: str = DEFAULT_SAMPLER,
) -> dict[Card, OptionValue]:
    """Expected net points for ``seat``'s side of each legal card, over layouts sampled by
    ``sampler``."""
    assert state.phase is Phase.PLAY and state.strain is not None
    strain = strain_number(state.strain)
    active = tuple(not state.sits_out(s) for s in _SEATS)
    act = (active[0], active[1], active[2], active[3])
    solver = _solver(solvers, strain, act)
    trick = state.tricks[-1]
    team = seat.team
    groups = _equivalent_cards(state, seat, strain)
    own = card_mask([c for c in state.hands[seat] if c is not None])
    assert state.maker is not None
    makers, outcomes = state.maker.team, _outcomes(state, team)
    # What each card leads to is the same in every layout but for the other hands: the
    # seat's own hand after it, who leads next, the trick, and whether North-South won it.
    me = seat.number
    own_only = [0, 0, 0, 0]
    own_only[me] = own
    known = Position(
        strain,
        (own_only[0], own_only[1], own_only[2], own_only[3]),
        trick.leader.number,
        tuple(card.index for _, card in trick.cards),
        act,
    )
    ns_so_far = state.tricks_won[Team.NS]
    values: dict[Card, list[float]] = {card: [] for card in groups}
    plans: list[tuple[list[float], int, int, tuple[int, ...], int]] = []
    for card in groups:
        after, ns_won = solver.child(known, card.index)
        plans.append((values[card], after.hands[me], after.leader, after.trick, ns_so_far + ns_won))
    for layout in sample_layouts(state, seat, samples, rng, sampler):
        masks = [0, 0, 0, 0]
        for other, cards in layout.items():
            masks[other.number] = card_mask(cards)
        for values_of, mine, leader, played, ns_total in plans:
            masks[me] = mine
            child = solver.prepare(masks, leader, played)
            values_of.append(_net_points(solver, child, makers, outcomes, ns_total))
    summaries = {card: _summary(v) for card, v in values.items()}
    return {member: summaries[card] for card, group in groups.items() for member in group}


def _equivalent_cards(state: HandState, seat: Seat, strain: int) -> dict[Card, list[Card]]:
    """``seat``'s legal cards, grouped where they are equivalent in every layout: the same
    effective suit, with no card between them that has not been played to an earlier trick
    (wherever the unseen cards lie, playing either comes to the same, so each group is
    solved once). Keyed by the group's strongest card.
    """
    gone = {card for trick in state.tricks[:-1] for _, card in trick.cards}
    legal = {card.index: card for card in state.legal_cards(seat)}
    groups: dict[Card, list[Card]] = {}
    for order in tables_for(strain).order:
        run: list[Card] | None = None
        for index in order:
            card = ALL_CARDS[index]
            if card in gone:
                continue
            if index in legal:
                if run is None:
                    run = groups[card] = []
                run.append(card)
            else:
                run = None
    return groups


Outcomes = tuple[int, int, int]
"""A side's net points when the makers are euchred, make their bid, and march."""


def _outcomes(state: HandState, team: Team) -> Outcomes:
    """``team``'s net points in each of the hand's three outcomes: worked out once per
    decision, not once per layout."""
    assert state.maker is not None
    makers = state.maker.team
    euchred, made, march = (
        hand_points(state.rules, state, team, t if team is makers else 5 - t) for t in (0, 3, 5)
    )
    return euchred, made, march


def _net_points(
    solver: Solver, position: Prepared, makers: Team, outcomes: Outcomes, ns_total: int
) -> int:
    """Net points (one of ``outcomes``) when the hand is played out perfectly from
    ``position``, North-South having won ``ns_total`` tricks so far. Points only change at
    three and five tricks for the makers, so two zero-window tests at most stand in for an
    exact solve.
    """
    left = position.left
    # The first test's answer is a bound on the tricks: it often settles the second too.
    if makers is Team.NS:
        need_made, need_march = 3 - ns_total, 5 - ns_total
        value = solver.test_prepared(position, need_made)
        made = value >= need_made
        march = made and (value >= need_march or solver.at_least_prepared(position, need_march))
    else:
        # East-West take at least t more tricks exactly when North-South take at most left - t.
        ew_total = 5 - left - ns_total
        stop_made = left - (3 - ew_total) + 1
        stop_march = left - (5 - ew_total) + 1
        value = solver.test_prepared(position, stop_made)
        made = value < stop_made
        march = made and (value < stop_march or not solver.at_least_prepared(position, stop_march))
    return outcomes[2] if march else outcomes[1] if made else outcomes[0]


def _summary(values: list[float]) -> OptionValue:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return OptionValue(mean=mean, se=math.sqrt(var / n), values=tuple(values))


def paired_loss(best: OptionValue, chosen: OptionValue) -> tuple[float, float]:
    """The chosen option's expected loss against the best, and its standard error: the
    options were valued on the same layouts, so the error is that of the differences.
    """
    diffs = [b - c for b, c in zip(best.values, chosen.values, strict=True)]
    summary = _summary(diffs)
    return summary.mean, summary.se


def discard_foresight(
    state: HandState,
    samples: int,
    rng: random.Random,
    solvers: SolverCache | None = None,
    sampler: str = DEFAULT_SAMPLER,
) -> dict[Card, OptionValue]:
    """Expected net points for the dealer's side of each discard, over layouts sampled by
    ``sampler``."""
    assert state.phase is Phase.DISCARD and state.strain is not None
    dealer = state.dealer
    team = dealer.team
    strain = strain_number(state.strain)
    active = tuple(not state.sits_out(s) for s in _SEATS)
    act = (active[0], active[1], active[2], active[3])
    solver = _solver(solvers, strain, act)
    groups = distinct_discards(state)
    after: dict[Card, HandState] = {}
    for card in groups:
        trial = state.copy()
        trial.apply(Discard(card))
        after[card] = trial
    own = [c for c in state.hands[dealer] if c is not None]
    # The discard changes neither the makers nor the scoring: one set of outcomes.
    assert state.maker is not None
    makers, outcomes = state.maker.team, _outcomes(state, team)
    values: dict[Card, list[float]] = {card: [] for card in groups}
    for layout in sample_layouts(state, dealer, samples, rng, sampler):
        masks = [0, 0, 0, 0]
        for other, cards in layout.items():
            masks[other.number] = card_mask(cards)
        for card, trial in after.items():
            if active[dealer.number]:
                masks[dealer.number] = card_mask([c for c in own if c != card])
            position = solver.prepare(masks, trial.tricks[-1].leader.number)
            values[card].append(_net_points(solver, position, makers, outcomes, 0))
    summaries = {card: _summary(v) for card, v in values.items()}
    return {member: summaries[card] for card, group in groups.items() for member in group}


Policy = Callable[[HandState, Seat], Action]
"""How the other decisions of a hand are made when an option is followed to its end: the
project's standard policy, injected so the solver does not depend on the bots."""


def call_options(state: HandState) -> list[Action]:
    """The options of a bidding decision (the auction, defending alone, the farmer's hand),
    with the farmer's possible swaps counted as one option each.
    """
    return state.legal_actions()


def _deal_for(
    state: HandState, seat: Seat, rng: random.Random
) -> tuple[dict[Seat, list[Card | None]], list[Card | None]] | None:
    """A dealt layout consistent with what ``seat`` knows before the play: its own dealt
    hand, the upcard, and a farmer's three shown cards (dealt to the farmer)."""
    own = state.dealt[seat]
    if None in own:
        return None
    shown: tuple[Card, ...] = ()
    if isinstance(state.farmer, FarmerSwap) and state.farmer_seat is not seat:
        shown = state.farmer.cards
    known = {c for c in own if c is not None} | {state.upcard} | set(shown)
    pool = [c for c in ALL_CARDS if c not in known]
    shuffle(pool, rng)
    hands: dict[Seat, list[Card | None]] = {seat: list(own)}
    position = 0
    for other in _SEATS:
        if other is seat:
            continue
        cards: list[Card | None] = []
        if other is state.farmer_seat and shown:
            cards.extend(shown)
        need = 5 - len(cards)
        cards.extend(pool[position : position + need])
        position += need
        hands[other] = cards
    kitty: list[Card | None] = list(pool[position : position + 3])
    return hands, kitty


def call_foresight(
    state: HandState,
    seat: Seat,
    samples: int,
    rng: random.Random,
    policy: Policy,
    solvers: SolverCache | None = None,
    sampler: str = DEFAULT_SAMPLER,
) -> dict[Action, OptionValue]:
    """Expected net points for ``seat``'s side of each option of a bidding decision. Each
    option is followed to the end of the auction (and the dealer's discard) by ``policy``
    for every seat, then the play is solved double dummy in each layout, dealt by
    ``sampler`` (:data:`AUCTION_V1` weighs each deal by the calls made before; the module
    docstring).
    """
    options = call_options(state)
    values: dict[Action, list[float]] = {option: [] for option in options}
    if solvers is None:
        solvers = {}
    known: dict[tuple[Team, bool, bool, bool], Outcomes] = {}
    deals = sample_deals(state, seat, samples, rng, sampler)
    for hands, kitty in deals:
        base = HandState(state.rules, state.dealer, hands, state.upcard, kitty)
        _replay(base, state, seat)
        for option in options:
            trial = base.copy()
            trial.apply(option)
            while trial.phase not in (Phase.PLAY, Phase.DONE):
                assert trial.current_seat is not None
                trial.apply(policy(trial, trial.current_seat))
            values[option].append(_play_out(trial, seat.team, solvers, known))
    return {option: _summary(v) for option, v in values.items()}


Dealt = tuple[dict[Seat, list[Card | None]], list[Card | None]]
"""A deal of every hand and the kitty, as :func:`_deal_for` makes it."""


def sample_deals(
    state: HandState,
    seat: Seat,
    count: int,
    rng: random.Random,
    sampler: str = DEFAULT_SAMPLER,
) -> list[Dealt]:
    """``count`` deals (every hand as dealt, and the kitty) consistent with what ``seat``
    knows before the play, drawn by ``sampler``: the layouts of a bidding decision."""
    _check_sampler(sampler)
    heard = heard_calls(state, seat) if sampler == AUCTION_V1 else []

    def draw() -> Dealt:
        dealt = _deal_for(state, seat, rng)
        if dealt is None:
            raise Unknown(f"{seat}'s own cards are not all known")
        return dealt

    if not heard:
        return [draw() for _ in range(count)]
    memo: dict[tuple[int, int], bool] = {}

    def weight(dealt: Dealt, floor: float) -> float:
        return auction_weight(heard, _bid_with(state, seat, dealt[0], dealt[1]), memo, floor)

    return _draw(draw, weight, count, rng)


def _bid_with(
    state: HandState,
    seat: Seat,
    hands: Mapping[Seat, list[Card | None]],
    kitty: list[Card | None],
) -> dict[Seat, list[Card]]:
    """The hand each other seat bid with in a dealt layout: the hand dealt, but for a farmer
    who swapped, its hand after the swap (the kitty for the three cards shown)."""
    out: dict[Seat, list[Card]] = {}
    swap = state.farmer if isinstance(state.farmer, FarmerSwap) else None
    for s in _SEATS:
        if s is seat:
            continue
        cards = [c for c in hands[s] if c is not None]
        if swap is not None and s is state.farmer_seat:
            cards = [c for c in cards if c not in swap.cards]
            cards.extend(c for c in kitty if c is not None)
        out[s] = cards
    return out


def _replay(trial: HandState, state: HandState, seat: Seat) -> None:
    """Bring a state dealt from a sampled layout to ``state``'s decision by ``seat``. A
    sampled hand may qualify for a farmer's hand where the real one was not known to: such
    a seat declines it. A sampled hand may also not qualify where the real one did: the
    trial does not ask that seat, and its decline is not replayed (replayed, it would be
    taken for a pass in the auction, by the wrong seat)."""
    for (who, action), phase in zip(state.history, state.history_phases, strict=True):
        if phase is Phase.FARMER:
            while trial.phase is Phase.FARMER and _asked_before(trial, trial.current_seat, who):
                trial.apply(Call("pass"))
            if trial.phase is not Phase.FARMER or trial.current_seat is not who:
                continue
        while trial.phase is Phase.FARMER and phase is not Phase.FARMER:
            trial.apply(Call("pass"))
        trial.apply(action)
    while trial.phase is Phase.FARMER and (
        state.phase is not Phase.FARMER or trial.current_seat is not seat
    ):
        trial.apply(Call("pass"))
    assert (trial.phase, trial.current_seat) == (state.phase, seat), "the replay lost its place"


def _asked_before(state: HandState, first: Seat | None, second: Seat) -> bool:
    """Whether ``first`` is asked about a farmer's hand before ``second``: the seats are
    asked in turn from the dealer's left."""
    order = [state.dealer.next, state.dealer.partner, state.dealer.partner.next, state.dealer]
    return first is not None and order.index(first) < order.index(second)


def _play_out(
    state: HandState,
    team: Team,
    solvers: SolverCache,
    known: dict[tuple[Team, bool, bool, bool], Outcomes],
) -> int:
    """Net points for ``team`` of a hand whose auction is over, played double dummy.
    ``known`` keeps each contract's outcomes for ``team`` (one set per decision)."""
    if state.phase is Phase.DONE:
        return 0  # thrown in: nobody scores
    assert state.strain is not None
    strain = strain_number(state.strain)
    active = tuple(not state.sits_out(s) for s in _SEATS)
    act = (active[0], active[1], active[2], active[3])
    solver = _solver(solvers, strain, act)
    masks = [0, 0, 0, 0]
    for s in _SEATS:
        if act[s.number]:
            masks[s.number] = card_mask([c for c in state.hands[s] if c is not None])
    position = solver.prepare(masks, state.tricks[-1].leader.number)
    assert state.maker is not None
    makers = state.maker.team
    # The outcomes' points depend on the contract alone: few contracts, many layouts.
    contract = (makers, state.trump is None, state.alone, state.defender_alone is not None)
    outcomes = known.get(contract)
    if outcomes is None:
        outcomes = known[contract] = _outcomes(state, team)
    return _net_points(solver, position, makers, outcomes, 0)
