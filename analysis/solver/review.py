"""Reviewing a whole hand: the entry point the workers and the commands call.

``review_hand(record, params, progress)`` returns a JSON-ready dict with the
hand's result and one entry per decision: the dealer's discard and every card
played (and, where the bidding policy can value them, every call). Each entry
has the spec's hindsight fields (``options`` with ``dd_tricks``), the foresight
figures (expected net points of each option over sampled layouts), the mark and
a one-sentence explanation. It reports progress through the callback as
``(decisions done, decisions in all)``, so a job can save it as it goes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from games.engine.cards import ALL_CARDS, Card, Seat
from games.engine.hand import (
    Action,
    Call,
    Discard,
    HandState,
    Phase,
    Play,
)
from games.engine.record import HandRecord
from games.engine.words import call_label
from games.strategy.observation import observe
from games.strategy.policy import choose_discard, decide

from .dd import Position
from .explain import MARKS, Line, classify, explain_call, explain_card
from .foresight import (
    OptionValue,
    Policy,
    SolverCache,
    call_foresight,
    card_foresight,
    discard_foresight,
    paired_loss,
)
from .hindsight import (
    Solvers,
    Unknown,
    card_options,
    discard_options,
    position_of,
    principal_line,
    revealed_state,
)

__all__ = ["SOLVER_VERSION", "ReviewParams", "count_decisions", "review_hand"]

SOLVER_VERSION = "3"
"""Bumped whenever a change to the solver or the review can change a result: cached
reviews of an older version are redone on request."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ReviewParams:
    """What a review depends on besides the record; part of the cache key."""

    samples: int = 100
    """Layouts of the unseen cards sampled for each foresight decision (0: hindsight only)."""
    seed: int = 0
    """The sampling seed: the same seed gives the same review."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewParams:
        samples = data.get("samples", cls.samples)
        seed = data.get("seed", cls.seed)
        if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= 2000:
            raise ValueError("samples: expected a whole number from 1 to 2000")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed: expected a whole number")
        return cls(samples=samples, seed=seed)


def count_decisions(record: HandRecord) -> int:
    """How many decisions a review of ``record`` goes through (its progress total): every
    call (declarations declined included), the discard and every card."""
    return len(record.state.history)


def standard_policy(state: HandState, seat: Seat) -> Action:
    """The project's standard bidding policy (``games.strategy.policy``) for ``seat``."""
    if state.phase is Phase.DISCARD and state.trump is not None:
        # The policy discards by the hand and trump alone: the review asks it thousands of
        # times a hand, so the seat's whole view is not built for it (tested to agree).
        hand = tuple(c for c in state.hands[seat] if c is not None)
        return Discard(choose_discard(hand, state.trump))
    return decide(observe(state, seat))


def review_hand(
    record: HandRecord,
    params: ReviewParams,
    progress: Progress | None = None,
    policy: Policy | None = None,
) -> dict[str, Any]:
    """The hand's result and the review of each of its decisions. Passes (and every other
    call) are valued by following them with ``policy``, the standard one by default."""
    policy = policy or standard_policy
    total = count_decisions(record)
    if progress is not None:
        progress(0, total)
    state = revealed_state(record)
    solvers = Solvers()
    # The foresight of every decision shares its solvers: what they learn of a position
    # holds for any question, and later decisions meet the positions of earlier ones.
    shared: SolverCache = {}
    decisions: list[dict[str, Any]] = []
    for seat, action in record.state.history:
        rng = random.Random(f"{params.seed}:{len(decisions)}")
        if isinstance(action, Discard | Play):
            decisions.append(_review_decision(state, seat, action, params, rng, solvers, shared))
        else:
            decisions.append(_review_call(state, seat, action, params, rng, policy, shared))
        if progress is not None:
            progress(len(decisions), total)
        state.apply(action)
    return {
        "result": record.state.result().to_json(),
        "decisions": decisions,
        "solver_version": SOLVER_VERSION,
        "params": params.to_json(),
    }


def _review_call(
    state: HandState,
    seat: Seat,
    action: Action,
    params: ReviewParams,
    rng: random.Random,
    policy: Policy,
    shared: SolverCache,
) -> dict[str, Any]:
    """A bidding decision, judged by foresight (hindsight has no meaning before the play)."""
    out: dict[str, Any] = {"kind": "call", "seat": seat.value, "chosen": call_label(action)}
    out["mark"] = None
    out["class"] = None
    out["explanation"] = None
    if params.samples == 0:
        return out
    options = state.legal_actions()
    if len(options) == 1:
        out["foresight"] = {"forced": True}
        return out
    try:
        values = call_foresight(state, seat, params.samples, rng, policy, shared)
    except Unknown as unknown:
        out["foresight"] = {"reason": unknown.reason}
        return out
    order = {option: i for i, option in enumerate(options)}
    best, loss, grade = _grade(
        out, values, action, params.samples, key=order.__getitem__, field="call", label=call_label
    )
    if grade is not None:
        hand = [c for c in state.hands[seat] if c is not None]
        out["explanation"] = explain_call(
            chosen=call_label(action),
            best=call_label(best),
            chosen_ev=values[action].mean,
            best_ev=values[best].mean,
            loss=loss,
            samples=params.samples,
            hand=hand,
            upcard=state.upcard,
            gets_upcard=seat is state.dealer,
            best_strain=_strain_of(best, state),
        )
    return out


def _card_index(card: Card) -> int:
    return card.index


def _grade[K: (Card, Action)](
    out: dict[str, Any],
    values: Mapping[K, OptionValue],
    chosen: K,
    samples: int,
    *,
    key: Callable[[K], int],
    field: str,
    label: Callable[[K], str],
) -> tuple[K, float, str | None]:
    """Judge ``chosen`` among the options valued by foresight: fill in ``out``'s
    ``foresight``, ``class`` and ``mark``, and return the best option, the loss and the class.
    Ties between options go to the first in ``key`` order, so the best is reproducible.
    """
    best = max(values, key=lambda option: (values[option].mean, -key(option)))
    loss, loss_se = paired_loss(values[best], values[chosen])
    grade = classify(loss, loss_se)
    out["foresight"] = {
        "samples": samples,
        "best": label(best),
        "loss": round(loss, 4),
        "loss_se": round(loss_se, 4),
        "options": [
            {field: label(option), "ev": round(value.mean, 4), "se": round(value.se, 4)}
            for option, value in sorted(values.items(), key=lambda ov: key(ov[0]))
        ],
    }
    if grade is not None:
        out["class"] = grade
        out["mark"] = MARKS[grade]
    return best, loss, grade


def _strain_of(action: Action, state: HandState) -> object:
    if isinstance(action, Call) and action.kind == "order_up":
        return state.upcard.suit
    if isinstance(action, Call) and action.kind == "name":
        return action.suit
    return None


def _review_decision(
    state: HandState,
    seat: Seat,
    action: Discard | Play,
    params: ReviewParams,
    rng: random.Random,
    solvers: Solvers,
    shared: SolverCache,
) -> dict[str, Any]:
    kind = "discard" if isinstance(action, Discard) else "play"
    chosen = action.card
    out: dict[str, Any] = {"kind": kind, "seat": seat.value}
    if kind == "play":
        out["trick"] = len(state.tricks)
    out["chosen"] = None if chosen is None else str(chosen)

    # Hindsight: every card visible.
    position: Position | None = None
    dd: dict[Card, int] | None = None
    try:
        if kind == "discard":
            dd = discard_options(state, solvers)
        else:
            position = position_of(state)
            dd = card_options(position, solvers, seat.team)
    except Unknown as unknown:
        out["reviewable"] = False
        out["reason"] = (
            unknown.reason
            if kind == "discard"
            else f"not every card in play is known: {unknown.reason}"
        )
    if dd is not None:
        out["options"] = [
            {"card": str(card), "dd_tricks": tricks}
            for card, tricks in sorted(dd.items(), key=lambda ct: ct[0].index)
        ]

    # Foresight: what the decider could know.
    out["mark"] = None
    out["class"] = None
    out["explanation"] = None
    if chosen is None or params.samples == 0:
        return out
    legal = _legal(state, seat, kind)
    if len(legal) == 1:
        out["foresight"] = {"forced": True}
        return out
    try:
        if kind == "discard":
            values = discard_foresight(state, params.samples, rng, shared)
        else:
            values = card_foresight(state, seat, params.samples, rng, shared)
    except Unknown as unknown:
        out["foresight"] = {"reason": unknown.reason}
        return out
    best, loss, grade = _grade(
        out, values, chosen, params.samples, key=_card_index, field="card", label=str
    )
    if grade is not None:
        out["explanation"] = explain_card(
            kind=kind,
            seat=seat,
            chosen=chosen,
            best=best,
            loss=loss,
            samples=params.samples,
            trump=state.trump,
            chosen_line=_line(state, kind, chosen, position, solvers),
            best_line=_line(state, kind, best, position, solvers),
        )
    return out


def _legal(state: HandState, seat: Seat, kind: str) -> list[Card]:
    if kind == "discard":
        return [c for c in state.hands[seat] if c is not None]
    return state.legal_cards(seat)


def _line(
    state: HandState, kind: str, card: Card, position: Position | None, solvers: Solvers
) -> Line | None:
    """Perfect play in this deal after ``card``, when every card is known."""
    if kind == "discard":
        trial = state.copy()
        trial.apply(Discard(card))
        try:
            start = position_of(trial)
        except Unknown:
            return None
        return principal_line(solvers(start), start)
    if position is None:
        return None
    solver = solvers(position)
    start, _ = solver.child(position, card.index)
    return _with_current_trick(position, card, start, principal_line(solver, start))


def _with_current_trick(position: Position, card: Card, start: Position, line: Line) -> Line:
    """Prefix the line with the trick ``card`` completed, if it completed one."""
    if start.trick or len(position.trick) + 1 < position.players:
        return line
    cards = (*position.trick, card.index)
    seats = [position.leader]
    for _ in cards[1:]:
        seats.append(position.next_seat(seats[-1]))
    winner = start.leader
    won = (_SEAT_OF[winner], ALL_CARDS[cards[seats.index(winner)]])
    return Line(first_trick=line.first_trick - 1, winners=(won, *line.winners))


_SEAT_OF = (Seat.N, Seat.E, Seat.S, Seat.W)
