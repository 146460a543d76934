"""An independent grader of the quiz's judgement questions, for the tests and
``benchmarks/quiz_truth.py``.

It shares nothing with the served grading but the engine, the standard policy (which
defines what a call leads to) and the double-dummy solver's public API
(``Solver.solve``, ``Solver.options``). It rebuilds each decision from the question's
payload alone, draws its own layouts, and plays each option out itself:

- **its own sampler**: rejection from a full random deal. The cards the deciding seat
  cannot see are shuffled and dealt to the other seats (and the kitty); for a card
  played in the middle of a hand, a deal is kept only if no seat holds a card of a suit
  it has already failed to follow (the voids read from the tricks here, not from the
  engine's ``shown_out``). The auction's earlier calls are read as auction-v1 defines
  them, by this file's own code: each deal is kept with probability the product, over the
  other seats' earlier calls, of 1 when the standard policy holding that hand makes the
  call and NOISE / ((n - 1)(1 - NOISE)) when not (n legal calls; NOISE = 0.05).
- **its own play-out**: the deal is put into a fresh ``HandState``, the auction so far
  replayed, the option applied, the rest of the auction (and the dealer's discard) made by
  the standard policy, and the play solved double dummy with ``Solver.solve`` (a card in
  the play with ``Solver.options``); the points come from the engine's scoring table.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from analysis.solver.dd import Position, Solver
from analysis.solver.hindsight import strain_number
from analysis.solver.review import standard_policy
from games.engine.cards import ALL_CARDS, Card, Seat, Suit, Team, effective_suit, parse_card
from games.engine.hand import Action, Call, Discard, HandState, Phase
from games.engine.record import parse_record
from games.engine.rules import parse_rules
from games.engine.scoring import scoring_row
from games.engine.words import call_label

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
NOISE = 0.05
"""auction-v1's noise: how often a seat makes a call other than the standard policy's."""
WARM_UP = 50
"""Layouts that fit a best-card question's voids drawn only to find the heaviest weight."""
AUCTION_TRIES = 100_000
"""Uniform deals tried for one layout before giving up (the filter keeps most of them)."""


@dataclass(frozen=True)
class Figure:
    """An option's value and its loss against the independent best, with their errors."""

    mean: float
    se: float
    loss: float
    loss_se: float


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def figures(values: dict[str, list[float]]) -> dict[str, Figure]:
    """Each option's mean, and its paired loss against the option with the best mean."""
    means = {label: _mean_se(xs) for label, xs in values.items()}
    best = max(values, key=lambda label: means[label][0])
    out = {}
    for label, xs in values.items():
        loss, loss_se = _mean_se([b - x for b, x in zip(values[best], xs, strict=True)])
        out[label] = Figure(means[label][0], means[label][1], loss, loss_se)
    return out


class Grader:
    """Plays options out double dummy; one solver per strain and set of active seats."""

    def __init__(self) -> None:
        self.solvers: dict[tuple[int, tuple[bool, ...]], Solver] = {}

    def solver(self, strain: int, active: tuple[bool, bool, bool, bool]) -> Solver:
        key = (strain, active)
        if key not in self.solvers:
            self.solvers[key] = Solver(strain, active)
        return self.solvers[key]

    # -- the points of a played-out hand ------------------------------------------------

    def net_points(self, state: HandState, ns_tricks: int, team: Team) -> float:
        """``team``'s points minus the other side's when North-South take ``ns_tricks``."""
        assert state.maker is not None
        makers = state.maker.team
        maker_tricks = ns_tricks if makers is Team.NS else 5 - ns_tricks
        _, points, to_makers = scoring_row(
            state.rules,
            no_trump=state.trump is None,
            alone=state.alone,
            defender_alone=state.defender_alone is not None,
            maker_tricks=maker_tricks,
        )
        winner = makers if to_makers else makers.other
        return float(points if winner is team else -points)

    def play_out(self, state: HandState, team: Team) -> float:
        """Finish the auction by the standard policy, then solve the play."""
        while state.phase not in (Phase.PLAY, Phase.DONE):
            seat = state.current_seat
            assert seat is not None
            state.apply(standard_policy(state, seat))
        if state.phase is Phase.DONE:
            return 0.0  # thrown in
        assert state.strain is not None and not state.tricks[-1].cards
        active = (
            not state.sits_out(Seat.N),
            not state.sits_out(Seat.E),
            not state.sits_out(Seat.S),
            not state.sits_out(Seat.W),
        )
        strain = strain_number(state.strain)
        hands = tuple(_mask(state.hands[s]) if active[s.number] else 0 for s in SEATS)
        position = Position(
            strain,
            (hands[0], hands[1], hands[2], hands[3]),
            state.tricks[-1].leader.number,
            (),
            active,
        )
        ns = self.solver(strain, active).solve(position)
        return self.net_points(state, ns, team)

    # -- the three kinds ----------------------------------------------------------------

    def grade(
        self, kind: str, position: dict[str, Any], choices: list[str], layouts: int, seed: int
    ) -> dict[str, Figure]:
        """Every choice's figures over ``layouts`` layouts of this grader's own."""
        rng = random.Random(seed)
        run = {"call": self._call, "discard": self._discard, "best_card": self._card}[kind]
        values: dict[str, list[float]] = {c: [] for c in choices}
        for _ in range(layouts):
            for label, value in run(position, choices, rng).items():
                values[label].append(value)
        return figures(values)

    def _auction_deal(
        self, position: dict[str, Any], own: list[Card], rng: random.Random
    ) -> HandState:
        """A full random deal around ``position["seat"]``'s dealt cards and the upcard,
        with the auction so far replayed (farmer's hands declined: nobody declared one)."""
        for _ in range(AUCTION_TRIES):
            state, weight = self._one_deal(position, own, rng)
            if rng.random() < weight:
                return state
        raise RuntimeError(f"no deal fits the auction in {AUCTION_TRIES} tries: {position}")

    def _one_deal(
        self, position: dict[str, Any], own: list[Card], rng: random.Random
    ) -> tuple[HandState, float]:
        """One uniform deal, replayed, and its acceptance probability: the product over the
        other seats' earlier calls of P(call | hand) / P(the policy's call | hand) under the
        noise model (the policy's call with probability 1 - NOISE, each other legal call
        with NOISE / (n - 1))."""
        rules = parse_rules(position["rules"])
        dealer, seat = Seat(position["dealer"]), Seat(position["seat"])
        upcard = parse_card(position["upcard"])
        pool = [c for c in ALL_CARDS if c not in own and c != upcard]
        rng.shuffle(pool)
        hands: dict[Seat, list[Card | None]] = {}
        for s in SEATS:
            if s is seat:
                hands[s] = list(own)
            else:
                hands[s], pool = list(pool[:5]), pool[5:]
        state = HandState(rules, dealer, hands, upcard, list(pool))
        weight = 1.0
        for entry in position["auction"]:
            while state.phase is Phase.FARMER:
                state.apply(Call("pass"))
            who = Seat(entry["seat"])
            assert state.current_seat is who, (entry, state.current_seat)
            made = _call_from(state, entry)
            if who is not seat:
                n = len(state.legal_actions())
                if n > 1 and call_label(standard_policy(state, who)) != call_label(made):
                    weight *= NOISE / ((n - 1) * (1.0 - NOISE))
            state.apply(made)
        while state.phase is Phase.FARMER:
            state.apply(Call("pass"))
        return state, weight

    def _call(
        self, position: dict[str, Any], choices: list[str], rng: random.Random
    ) -> dict[str, float]:
        own = [parse_card(c) for c in position["hand"]]
        state = self._auction_deal(position, own, rng)
        seat = Seat(position["seat"])
        assert state.current_seat is seat
        by_label = {call_label(a): a for a in state.legal_actions()}
        out = {}
        for label in choices:
            trial = state.copy()
            trial.apply(by_label[label])
            out[label] = self.play_out(trial, seat.team)
        return out

    def _discard(
        self, position: dict[str, Any], choices: list[str], rng: random.Random
    ) -> dict[str, float]:
        upcard = parse_card(position["upcard"])
        own = [parse_card(c) for c in position["hand"] if c != position["upcard"]]
        state = self._auction_deal(position, own, rng)
        lone = position.get("defender_alone")
        while state.phase is Phase.DEFEND:
            seat = state.current_seat
            assert seat is not None
            state.apply(Call("defend_alone") if seat.value == lone else Call("pass"))
        assert state.phase is Phase.DISCARD and upcard in state.hands[state.dealer]
        out = {}
        for label in choices:
            trial = state.copy()
            trial.apply(Discard(parse_card(label)))
            out[label] = self.play_out(trial, state.dealer.team)
        return out

    def _card(
        self, position: dict[str, Any], choices: list[str], rng: random.Random
    ) -> dict[str, float]:
        state = parse_record(position["record"]).state
        seat = Seat(position["seat"])
        assert state.current_seat is seat and state.strain is not None
        trump = state.trump
        own = [c for c in state.hands[seat] if c is not None]
        played = [card for trick in state.tricks for _, card in trick.cards]
        seen = set(own) | set(played)
        holds_upcard: Seat | None = None
        seen.add(state.upcard)
        if state.picked_up and state.upcard not in played and seat is not state.dealer:
            holds_upcard = state.dealer
        if seat is state.dealer and state.discard is not None:
            seen.add(state.discard)
        pool = [c for c in ALL_CARDS if c not in seen]
        void: dict[Seat, set[Suit]] = {s: set() for s in SEATS}
        for trick in state.tricks:
            if not trick.cards:
                continue
            led = effective_suit(trick.cards[0][1], trump)
            for who, card in trick.cards[1:]:
                if effective_suit(card, trump) is not led:
                    void[who].add(led)
        others = [s for s in SEATS if s is not seat and not state.sits_out(s)]
        counts = {s: len(state.hands[s]) - (s is holds_upcard) for s in others}
        # Rejection against the heaviest weight seen: the first layouts that fit the voids
        # only set it, so that a position whose every layout needs an off-policy call
        # (weights far below 1) is still sampled, in proportion to its weights.
        heaviest, fitting = 0.0, 0
        for _ in range(AUCTION_TRIES):
            rng.shuffle(pool)
            hands: dict[Seat, list[Card]] = {}
            at = 0
            for s in others:
                hands[s] = pool[at : at + counts[s]]
                at += counts[s]
            if not all(effective_suit(c, trump) not in void[s] for s in others for c in hands[s]):
                continue
            weight = _auction_weight(state, seat, {**hands, seat: own}, pool[at:], rng)
            heaviest, fitting = max(heaviest, weight), fitting + 1
            if fitting > WARM_UP and rng.random() * heaviest < weight:
                break
        else:
            raise AssertionError("no deal fits the voids and the auction")
        if holds_upcard is not None:
            hands[holds_upcard] = [*hands[holds_upcard], state.upcard]
        hands[seat] = own
        active = (
            not state.sits_out(Seat.N),
            not state.sits_out(Seat.E),
            not state.sits_out(Seat.S),
            not state.sits_out(Seat.W),
        )
        masks = [_mask(hands[s]) if active[s.number] else 0 for s in SEATS]
        trick = state.tricks[-1]
        strain = strain_number(state.strain)
        position_now = Position(
            strain,
            (masks[0], masks[1], masks[2], masks[3]),
            trick.leader.number,
            tuple(card.index for _, card in trick.cards),
            active,
        )
        options = self.solver(strain, active).options(position_now)
        ns_so_far = state.tricks_won[Team.NS]
        return {
            label: self.net_points(state, ns_so_far + options[parse_card(label).index], seat.team)
            for label in choices
        }


def _auction_weight(
    state: HandState,
    seat: Seat,
    hands: dict[Seat, list[Card]],
    left: list[Card],
    rng: random.Random,
) -> float:
    """How likely the earlier calls of the other seats were with the cards a layout gives
    them (auction-v1's noise model, as in :meth:`Grader._one_deal`): the layout's hands as
    they were dealt (what each seat holds and has played; the dealer's upcard back for a
    random unseen discard; a sitting-out seat's five from the unseen cards), the auction
    replayed on them. A hand whose farmer's hand was swapped is taken as it is (1.0)."""
    played: dict[Seat, list[Card]] = {s: [] for s in SEATS}
    for trick in state.tricks:
        for who, card in trick.cards:
            played[who].append(card)
    spare = list(left)
    rng.shuffle(spare)
    dealt: dict[Seat, list[Card | None]] = {}
    for s in SEATS:
        if s not in hands:
            dealt[s], spare = list(spare[:5]), spare[5:]
            continue
        cards: list[Card] = [*hands[s], *played[s]]
        if state.picked_up and s is state.dealer and state.upcard in cards:
            cards.remove(state.upcard)
            if s is seat and state.discard is not None:
                cards.append(state.discard)
            else:
                cards.append(spare.pop())
        dealt[s] = list(cards)
    replay = HandState(state.rules, state.dealer, dealt, state.upcard, list(spare))
    weight = 1.0
    for (who, action), phase in zip(state.history, state.history_phases, strict=True):
        if not isinstance(action, Call):
            break
        if phase is Phase.FARMER and action != Call("pass"):
            return 1.0
        if phase is not Phase.FARMER and who is not seat:
            n = len(replay.legal_actions())
            if n > 1 and call_label(standard_policy(replay, who)) != call_label(action):
                weight *= NOISE / ((n - 1) * (1.0 - NOISE))
        replay.apply(action)
    return weight


def _mask(cards: list[Card | None] | list[Card]) -> int:
    mask = 0
    for card in cards:
        if card is not None:
            mask |= 1 << card.index
    return mask


def _call_from(state: HandState, entry: dict[str, Any]) -> Action:
    """The record's auction entry as one of the legal actions."""
    for action in state.legal_actions():
        if (
            isinstance(action, Call)
            and action.kind == entry["call"]
            and action.alone == bool(entry.get("alone", False))
            and (None if action.suit is None else str(action.suit)) == entry.get("suit")
        ):
            return action
    raise AssertionError(f"{entry} is not legal here")


@dataclass(frozen=True)
class Check:
    """A served question against the independent figures (each beyond ``z`` of their
    standard errors)."""

    accepted_over: list[str]
    """Accepted options that lose more than 0.15 points."""
    rejected_within: list[str]
    """Options marked wrong that lose less than 0.05 points."""
    best_wrong: bool
    """The served best answer loses more than 0.05 points (it is not among the best)."""
    margin: float | None
    """The independent loss of the best option marked wrong (how clear the question is)."""


def check(grading: dict[str, Any], found: dict[str, Figure], z: float = 3.0) -> Check:
    """What the independent figures say of a served grading (``Grading.to_json()``)."""
    accepted = set(grading["accepted"])
    over = [a for a in accepted if found[a].loss - z * found[a].loss_se > 0.15]
    rejected = [label for label in found if label not in accepted]
    within = [r for r in rejected if found[r].loss + z * found[r].loss_se < 0.05]
    best = grading["answer"][0]
    wrong = found[best].loss - z * found[best].loss_se > 0.05
    margin = min((found[r].loss for r in rejected), default=None)
    return Check(sorted(over), sorted(within), wrong, margin)
