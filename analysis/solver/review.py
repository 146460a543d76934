"""Reviewing a whole hand: the entry point the workers and the commands call, and the
review as a typed value.

``review_hand(record, params, progress)`` returns a :class:`Review`: the hand's result and
one :class:`DecisionReview` per decision: every call, the dealer's discard and every card
played. Each has the spec's hindsight fields (``options`` with ``dd_tricks``), the
foresight figures (expected net points of each option over sampled layouts), the mark
(``analysis.solver.judgement``) and a one-sentence explanation. It reports progress through
the callback as ``(decisions done, decisions in all)``, so a job can save it as it goes.
``Review.to_json()`` is what is stored and served; ``Review.from_json`` reads it back.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from mypy_extensions import mypyc_attr

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
from .explain import Line, explain_call, explain_card
from .foresight import (
    DEFAULT_SAMPLER,
    SAMPLERS,
    UNIFORM,
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
)
from .judgement import Mark, classify, mark_named, mean_accuracy

__all__ = [
    "FIRST_DEFAULT_SAMPLES",
    "SOLVER_VERSION",
    "DDOption",
    "DecisionReview",
    "Foresight",
    "ForesightOption",
    "Review",
    "ReviewParams",
    "count_decisions",
    "review_hand",
]

_SEED_LIMIT = 10**18

FIRST_DEFAULT_SAMPLES = 100
"""The samples a review took by default until they were raised to 400: a stored review that
does not say how many it took was made with these."""

SOLVER_VERSION = "5"
"""Bumped whenever a change to the solver or the review can change a result: cached
reviews of an older version are redone on request. 5: the layouts read the auction
(:data:`~analysis.solver.foresight.AUCTION_V1`)."""

Progress = Callable[[int, int], None]


# Compiled, a native class keeps no field values on the class, and the API's serializer, the
# command and a benchmark read the defaults there (ReviewParams.samples).
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class ReviewParams:
    """What a review depends on besides the record; part of the cache key."""

    samples: int = 400
    """Layouts of the unseen cards sampled for each foresight decision (0: hindsight only).
    400, four times the first default (:data:`FIRST_DEFAULT_SAMPLES`), halves the sampling
    error of every value; a review keeps the parameters it was made with."""
    seed: int = 0
    """The sampling seed: the same seed gives the same review."""
    sampler: str = DEFAULT_SAMPLER
    """How the layouts are drawn (``analysis.solver.foresight``): ``auction-v1`` weighs
    them by how likely the earlier calls were under the standard policy, ``uniform`` (every
    review before solver version 5) takes every layout that fits what was seen alike."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def stored(cls, data: Mapping[str, Any]) -> ReviewParams:
        """The parameters a stored review or job was made with: one that names no sampler
        was made before there was a choice, with ``uniform``."""
        return cls.from_json({"sampler": UNIFORM, **data})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReviewParams:
        samples = data.get("samples", cls.samples)
        seed = data.get("seed", cls.seed)
        sampler = data.get("sampler", cls.sampler)
        if not isinstance(samples, int) or isinstance(samples, bool) or not 1 <= samples <= 2000:
            raise ValueError("samples: expected a whole number from 1 to 2000")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed: expected a whole number")
        if not -_SEED_LIMIT < seed < _SEED_LIMIT:
            # A job's parameters are stored and keyed: a seed of a thousand digits is no
            # seed anyone needs, only a row too big to keep.
            raise ValueError("seed: expected a whole number of at most 18 digits")
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler: expected one of {', '.join(map(repr, SAMPLERS))}")
        return cls(samples=samples, seed=seed, sampler=sampler)


# -- the review as a value -------------------------------------------------------------------


@dataclass(frozen=True)
class DDOption:
    """Hindsight: one legal card and the ``dd_tricks`` it leaves the decider's side."""

    card: str
    dd_tricks: int

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "dd_tricks": self.dd_tricks}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DDOption:
        return cls(card=data["card"], dd_tricks=data["dd_tricks"])


@dataclass(frozen=True)
class ForesightOption:
    """Foresight: one option (a card, or a call's label) and its expected net points."""

    option: str
    ev: float
    se: float
    """The standard error of ``ev`` over the sampled layouts."""


@dataclass(frozen=True)
class Foresight:
    """What foresight made of a decision: it was forced, it could not be valued (``reason``),
    or its options were valued over ``samples`` layouts (it is *graded*)."""

    forced: bool = False
    reason: str | None = None
    samples: int | None = None
    best: str | None = None
    """The best option; ties go to the first card (or call) in the engine's order."""
    loss: float | None = None
    """Expected points the chosen option gave up against the best; ``None`` unless graded."""
    loss_se: float | None = None
    options: tuple[ForesightOption, ...] = ()

    @property
    def graded(self) -> bool:
        return self.loss is not None

    def value_of(self, option: str) -> ForesightOption | None:
        """The valued option called ``option``, if foresight valued it."""
        return next((o for o in self.options if o.option == option), None)

    def to_json(self, field: str) -> dict[str, Any]:
        """The JSON form; ``field`` names each option's key (``card`` or ``call``)."""
        if self.forced:
            return {"forced": True}
        if not self.graded:
            return {"reason": self.reason}
        return {
            "samples": self.samples,
            "best": self.best,
            "loss": self.loss,
            "loss_se": self.loss_se,
            "options": [{field: o.option, "ev": o.ev, "se": o.se} for o in self.options],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], field: str) -> Foresight:
        if data.get("forced"):
            return cls(forced=True)
        if "loss" not in data:
            return cls(reason=data.get("reason"))
        return cls(
            samples=data["samples"],
            best=data["best"],
            loss=data["loss"],
            loss_se=data["loss_se"],
            options=tuple(
                ForesightOption(o[field], o["ev"], o["se"]) for o in data.get("options", [])
            ),
        )


@dataclass(frozen=True)
class DecisionReview:
    """The review of one decision: a call, the dealer's discard or a card played."""

    kind: str
    """``call``, ``discard`` or ``play``."""
    seat: Seat
    chosen: str | None
    """The card, or the call's label (:func:`call_label`); ``None`` for an unknown card."""
    trick: int | None = None
    """A play's trick, counted from 1."""
    reviewable: bool = True
    """False when hindsight could not value the cards (``reason`` says why)."""
    reason: str | None = None
    options: tuple[DDOption, ...] | None = None
    """Hindsight: every legal card with its ``dd_tricks``; ``None`` for calls and when the
    cards are not known."""
    mark: Mark | None = None
    explanation: str | None = None
    foresight: Foresight | None = None
    """``None`` when foresight did not look (no samples, an unknown card)."""

    @property
    def field(self) -> str:
        """The key of an option in the JSON: ``call`` for calls, ``card`` otherwise."""
        return "call" if self.kind == "call" else "card"

    @property
    def graded(self) -> bool:
        """Whether foresight valued the options, so that the decision counts for accuracy."""
        return self.foresight is not None and self.foresight.graded

    @property
    def loss(self) -> float | None:
        """Expected points given up against the best option, when graded."""
        return None if self.foresight is None else self.foresight.loss

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat.value}
        if self.trick is not None:
            out["trick"] = self.trick
        out["chosen"] = self.chosen
        if not self.reviewable:
            out["reviewable"] = False
            out["reason"] = self.reason
        if self.options is not None:
            out["options"] = [option.to_json() for option in self.options]
        out["mark"] = None if self.mark is None else self.mark.glyph
        out["class"] = None if self.mark is None else self.mark.name
        out["explanation"] = self.explanation
        if self.foresight is not None:
            out["foresight"] = self.foresight.to_json(self.field)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DecisionReview:
        """Read back :meth:`to_json`.

        :raises ValueError: when the seat or the mark is not one the review writes.
        """
        kind = data["kind"]
        name = data.get("class")
        mark = None if name is None else mark_named(name)
        if mark is not None and data.get("mark") != mark.glyph:
            raise ValueError(f"mark: {data.get('mark')!r} is not the glyph of a {name}")
        options = data.get("options")
        foresight = data.get("foresight")
        return cls(
            kind=kind,
            seat=Seat(data["seat"]),
            chosen=data.get("chosen"),
            trick=data.get("trick"),
            reviewable=data.get("reviewable", True),
            reason=data.get("reason"),
            options=None if options is None else tuple(DDOption.from_json(o) for o in options),
            mark=mark,
            explanation=data.get("explanation"),
            foresight=(
                None
                if foresight is None
                else Foresight.from_json(foresight, "call" if kind == "call" else "card")
            ),
        )


@dataclass(frozen=True)
class Review:
    """A hand's review: its result and one :class:`DecisionReview` per action, in order."""

    result: dict[str, Any]
    """The hand's result (``HandResult.to_json``)."""
    decisions: tuple[DecisionReview, ...]
    solver_version: str
    params: ReviewParams

    def to_json(self) -> dict[str, Any]:
        """The JSON stored with a job and served by the API."""
        return {
            "result": self.result,
            "decisions": [decision.to_json() for decision in self.decisions],
            "solver_version": self.solver_version,
            "params": self.params.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        """Read back :meth:`to_json`: ``Review.from_json(j).to_json() == j``."""
        params = data.get("params", {})
        return cls(
            result=data["result"],
            decisions=tuple(DecisionReview.from_json(d) for d in data["decisions"]),
            solver_version=data.get("solver_version", ""),
            params=ReviewParams(
                samples=params.get("samples", FIRST_DEFAULT_SAMPLES),
                seed=params.get("seed", ReviewParams.seed),
                # Reviews stored before the sampler was a parameter drew layouts uniformly.
                sampler=params.get("sampler", UNIFORM),
            ),
        )

    def of_seat(self, seat: Seat) -> Iterator[DecisionReview]:
        """``seat``'s decisions, in order."""
        return (d for d in self.decisions if d.seat is seat)

    def marked(self, seat: Seat | None = None) -> list[int]:
        """The places of the marked decisions (of ``seat`` only, when given)."""
        return [
            i
            for i, d in enumerate(self.decisions)
            if d.mark is not None and (seat is None or d.seat is seat)
        ]

    @staticmethod
    def mark_counts_in(data: Mapping[str, Any]) -> dict[str, int]:
        """How many decisions of the review's JSON (:meth:`to_json`) have each mark, by the
        mark's name (``{"blunder": 1, …}``, marks no decision has left out): what a list of
        hands shows of a review, counted without reading the whole review back."""
        names = (d.get("class") for d in data.get("decisions", ()))
        return dict(Counter(name for name in names if name))

    def count(self, mark: Mark, seat: Seat | None = None) -> int:
        """How many decisions (of ``seat`` only, when given) have ``mark``."""
        return sum(1 for d in self.decisions if d.mark == mark and seat in (None, d.seat))

    @property
    def mistakes(self) -> int:
        """The decisions marked mistakes or blunders (``?`` and ``??``)."""
        return sum(1 for d in self.decisions if d.mark is not None and d.mark.is_mistake)

    def accuracy(self, seat: Seat) -> float | None:
        """The mean accuracy (0–100) of ``seat``'s graded decisions, or ``None`` when it has
        none: forced choices and decisions that could not be valued do not count."""
        return mean_accuracy(d.loss for d in self.of_seat(seat) if d.loss is not None)


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
) -> Review:
    """The hand's result and the review of each of its decisions. Passes (and every other
    call) are valued by following them with ``policy``, the standard one by default."""
    policy = policy or standard_policy
    total = count_decisions(record)
    if progress is not None:
        progress(0, total)
    state = record.revealed_state()
    solvers = Solvers()
    # The foresight of every decision shares its solvers: what they learn of a position
    # holds for any question, and later decisions meet the positions of earlier ones.
    shared: SolverCache = {}
    decisions: list[DecisionReview] = []
    for seat, action in record.state.history:
        rng = random.Random(f"{params.seed}:{len(decisions)}")
        if isinstance(action, Discard | Play):
            decisions.append(_review_decision(state, seat, action, params, rng, solvers, shared))
        else:
            decisions.append(_review_call(state, seat, action, params, rng, policy, shared))
        if progress is not None:
            progress(len(decisions), total)
        state.apply(action)
    return Review(
        result=record.state.result().to_json(),
        decisions=tuple(decisions),
        solver_version=SOLVER_VERSION,
        params=params,
    )


def _review_call(
    state: HandState,
    seat: Seat,
    action: Action,
    params: ReviewParams,
    rng: random.Random,
    policy: Policy,
    shared: SolverCache,
) -> DecisionReview:
    """A bidding decision, judged by foresight (hindsight has no meaning before the play)."""
    out = DecisionReview(kind="call", seat=seat, chosen=call_label(action))
    if params.samples == 0:
        return out
    options = state.legal_actions()
    if len(options) == 1:
        return replace(out, foresight=Foresight(forced=True))
    try:
        values = call_foresight(
            state, seat, params.samples, rng, policy, shared, sampler=params.sampler
        )
    except Unknown as unknown:
        return replace(out, foresight=Foresight(reason=unknown.reason))
    order = {option: i for i, option in enumerate(options)}
    best, loss, foresight, mark = _grade(
        values, action, params.samples, key=order.__getitem__, label=call_label
    )
    out = replace(out, foresight=foresight, mark=mark)
    if mark is None:
        return out
    hand = [c for c in state.hands[seat] if c is not None]
    return replace(
        out,
        explanation=explain_call(
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
        ),
    )


def _card_index(card: Card) -> int:
    return card.index


def _grade[K: (Card, Action)](
    values: Mapping[K, OptionValue],
    chosen: K,
    samples: int,
    *,
    key: Callable[[K], int],
    label: Callable[[K], str],
) -> tuple[K, float, Foresight, Mark | None]:
    """Judge ``chosen`` among the options valued by foresight: the best option, the loss,
    the foresight figures and the mark. Ties between options go to the first in ``key``
    order, so the best is reproducible.
    """
    best = max(values, key=lambda option: (values[option].mean, -key(option)))
    loss, loss_se = paired_loss(values[best], values[chosen])
    foresight = Foresight(
        samples=samples,
        best=label(best),
        loss=round(loss, 4),
        loss_se=round(loss_se, 4),
        options=tuple(
            ForesightOption(label(option), round(value.mean, 4), round(value.se, 4))
            for option, value in sorted(values.items(), key=lambda ov: key(ov[0]))
        ),
    )
    return best, loss, foresight, classify(loss, loss_se)


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
) -> DecisionReview:
    kind = "discard" if isinstance(action, Discard) else "play"
    chosen = action.card
    out = DecisionReview(
        kind=kind,
        seat=seat,
        chosen=None if chosen is None else str(chosen),
        trick=len(state.tricks) if kind == "play" else None,
    )

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
        out = replace(
            out,
            reviewable=False,
            reason=(
                unknown.reason
                if kind == "discard"
                else f"not every card in play is known: {unknown.reason}"
            ),
        )
    if dd is not None:
        out = replace(
            out,
            options=tuple(
                DDOption(str(card), tricks)
                for card, tricks in sorted(dd.items(), key=lambda ct: ct[0].index)
            ),
        )

    # Foresight: what the decider could know.
    if chosen is None or params.samples == 0:
        return out
    legal = _legal(state, seat, kind)
    if len(legal) == 1:
        return replace(out, foresight=Foresight(forced=True))
    try:
        if kind == "discard":
            values = discard_foresight(state, params.samples, rng, shared, params.sampler)
        else:
            values = card_foresight(state, seat, params.samples, rng, shared, params.sampler)
    except Unknown as unknown:
        return replace(out, foresight=Foresight(reason=unknown.reason))
    best, loss, foresight, mark = _grade(values, chosen, params.samples, key=_card_index, label=str)
    out = replace(out, foresight=foresight, mark=mark)
    if mark is None:
        return out
    return replace(
        out,
        explanation=explain_card(
            kind=kind,
            seat=seat,
            chosen=chosen,
            best=best,
            loss=loss,
            samples=params.samples,
            trump=state.trump,
            chosen_line=_line(state, kind, chosen, position, solvers),
            best_line=_line(state, kind, best, position, solvers),
        ),
    )


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
