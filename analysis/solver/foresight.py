"""Foresight: what each option was worth to a player who could not see the other hands.

For a decision by ``seat``, the unseen cards are dealt at random many times, in
every layout that agrees with what ``seat`` has seen: its own hand, the upcard
(which the dealer holds after picking it up, until it is played), the cards
played and who played them, the suits each player has shown out of, the three
cards a farmer showed, and its own discard when it dealt. Each layout is solved
double dummy after each option, and the option's value is the average of the
hand's net points for the decider's side (its points minus the opponents').

The same ``seed`` gives the same layouts, so a review is reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.engine.cards import ALL_CARDS, Card, Seat, Team, effective_suit
from games.engine.hand import Action, Call, Discard, FarmerSwap, HandState, Phase
from games.engine.rules import Rules
from games.engine.scoring import scoring_row

from .dd import Position, Prepared, Solver
from .hindsight import Unknown, distinct_discards, strain_number
from .tables import card_mask, tables_for

__all__ = [
    "Layout",
    "Policy",
    "call_foresight",
    "OptionValue",
    "card_foresight",
    "discard_foresight",
    "distinct_discards",
    "hand_points",
    "paired_loss",
    "sample_layouts",
    "SolverCache",
]

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)

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


def sample_layouts(state: HandState, seat: Seat, count: int, rng: random.Random) -> list[Layout]:
    """``count`` layouts of the unseen cards, each consistent with what ``seat`` has seen."""
    pool, counts, dealer_holds = _unseen(state, seat)
    trump = state.trump
    # The cards each seat cannot hold: those of the suits it has shown out of.
    banned = {
        s: frozenset(c for c in pool if effective_suit(c, trump) in state.shown_out[s])
        for s in counts
    }
    layouts: list[Layout] = []
    order = sorted(counts, key=lambda s: -len(state.shown_out[s]))
    for _ in range(count):
        layout = _deal_one(pool, counts, banned, order, rng)
        if dealer_holds is not None:
            layout[state.dealer].append(dealer_holds)
        layouts.append(layout)
    return layouts


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
) -> Layout:
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
            return layout
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
            return layout
    raise Unknown("no layout of the unseen cards fits the suits the players have shown out of")


def card_foresight(
    state: HandState,
    seat: Seat,
    samples: int,
    rng: random.Random,
    solvers: SolverCache | None = None,
) -> dict[Card, OptionValue]:
    """Expected net points for ``seat``'s side of each legal card, over sampled layouts."""
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
    for layout in sample_layouts(state, seat, samples, rng):
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
    state: HandState, samples: int, rng: random.Random, solvers: SolverCache | None = None
) -> dict[Card, OptionValue]:
    """Expected net points for the dealer's side of each discard, over sampled layouts."""
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
    for layout in sample_layouts(state, dealer, samples, rng):
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
) -> dict[Action, OptionValue]:
    """Expected net points for ``seat``'s side of each option of a bidding decision. Each
    option is followed to the end of the auction (and the dealer's discard) by ``policy``
    for every seat, then the play is solved double dummy in each sampled layout.
    """
    options = call_options(state)
    values: dict[Action, list[float]] = {option: [] for option in options}
    if solvers is None:
        solvers = {}
    known: dict[tuple[Team, bool, bool, bool], Outcomes] = {}
    for _ in range(samples):
        dealt = _deal_for(state, seat, rng)
        if dealt is None:
            raise Unknown(f"{seat}'s own cards are not all known")
        hands, kitty = dealt
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
