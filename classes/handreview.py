"""Hand review for assignments: "find the best card at trick N" in one of the teacher's hands.

The question is the position where the hand's own seat played its card of trick N; the
solver gives every legal card its double-dummy tricks for that seat's partnership, and
every card as good as the best is marked right.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analysis.solver.hindsight import Solvers, Unknown, card_options, position_of
from games.engine.cards import Card, Seat, parse_seat
from games.engine.hand import NT, Play
from games.engine.record import parse_record

__all__ = ["TrickQuestion", "trick_question"]

_ORDER = (Seat.N, Seat.E, Seat.S, Seat.W)


def _after(seat: Seat) -> list[Seat]:
    """The other three seats, from ``seat``'s left round the table."""
    at = _ORDER.index(seat)
    return [_ORDER[(at + step) % 4] for step in (1, 2, 3)]


@dataclass(frozen=True)
class TrickQuestion:
    seat: Seat
    trick: int
    trump: str | None
    """The strain as a letter (``H``), ``NT``, or ``None``."""
    hand: list[str]
    played: list[tuple[str, str]]
    """The trick so far: (seat, card) in the order played."""
    others: list[tuple[str, list[str]]]
    """The cards the other players still hold (seat, cards), in order round the table from
    the seat's left: the grading sees every card, so the student does too."""
    options: dict[str, int]
    """Each legal card and the tricks the seat's partnership takes after it, all cards seen."""
    chosen: str
    """The card played in the hand itself."""

    @property
    def best(self) -> int:
        return max(self.options.values())

    @property
    def accepted(self) -> list[str]:
        return [card for card, tricks in self.options.items() if tricks == self.best]

    def is_right(self, card: str) -> bool:
        return card in self.accepted

    def exercise(self) -> dict[str, Any]:
        """The position in the shape the lessons' facts display expects."""
        return {
            "kind": "best_card",
            "trump": self.trump,
            "hand": self.hand,
            "trick": [list(pair) for pair in self.played],
            "seat": self.seat.value,
        }


def trick_question(record_data: dict[str, Any], seat_letter: str, trick: int) -> TrickQuestion:
    """The question for ``seat_letter``'s card in trick ``trick`` (1 to 5) of a hand.

    Raises ``ValueError`` with a reason when the hand cannot give one: the seat played no
    card in that trick (a partner alone, a hand that stopped early) or a card is unknown.
    """
    record = parse_record(record_data)
    seat = parse_seat(seat_letter)
    state = record.revealed_state()
    for who, action in record.state.history:
        if isinstance(action, Play) and who is seat and len(state.tricks) == trick:
            try:
                position = position_of(state)
            except Unknown as unknown:
                raise ValueError(f"not every card is known ({unknown.reason})") from None
            values = card_options(position, Solvers(), seat.team)
            ordered: list[Card] = sorted(values, key=lambda c: c.index)
            strain = state.strain
            trump = None if strain is None else ("NT" if strain == NT else str(strain))
            return TrickQuestion(
                seat=seat,
                trick=trick,
                trump=trump,
                hand=[str(c) for c in state.hands[seat] if c is not None],
                played=[(s.value, str(c)) for s, c in state.tricks[-1].cards],
                others=[
                    (other.value, [str(c) for c in state.hands[other] if c is not None])
                    for other in _after(seat)
                    if not state.sits_out(other)
                ],
                options={str(c): values[c] for c in ordered},
                chosen=str(action.card),
            )
        state.apply(action)
    raise ValueError(f"{seat.word} played no card in trick {trick} of this hand")
