"""Learn from your mistakes: the decisions the review marked in a player's own hands,
asked again as questions.

Pure Python: from a hand record, its review and the player's seat, each decision of
that seat marked a mistake or a blunder becomes a question with the position as it
was, the same options, and the review's figures as its grading. An option is marked
right when its expected points come within ``TOLERANCE`` of the best.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from analysis.solver.judgement import INACCURACY
from analysis.solver.review import DecisionReview, Foresight, Review
from games.engine.cards import Seat, parse_card
from games.engine.hand import HandState
from games.engine.record import HandRecord
from games.engine.rules import format_rules
from games.engine.words import are_trump, card_name, label_text, the_short

__all__ = ["TOLERANCE", "MistakeQuestion", "mistake_questions"]

TOLERANCE = INACCURACY.threshold
"""Points an option may give up against the best and still be marked right: the review's
threshold for an inaccuracy."""


@dataclass(frozen=True)
class MistakeQuestion:
    decision: int
    """The decision's place in the review (and in the hand's history of actions)."""
    kind: str
    prompt: str
    position: dict[str, Any]
    choices: list[str]
    grading: dict[str, Any]


def mistake_questions(
    record: HandRecord, review: Review, seat: Seat, title: str
) -> list[MistakeQuestion]:
    """One question for each decision of ``seat`` the review marked a mistake or a blunder."""
    questions: list[MistakeQuestion] = []
    if len(review.decisions) != len(record.state.history):
        return questions  # a review made before calls were reviewed: nothing to line up
    state = record.revealed_state()
    for index, ((who, action), decision) in enumerate(
        zip(record.state.history, review.decisions, strict=True)
    ):
        foresight = decision.foresight
        marked = decision.mark is not None and decision.mark.is_mistake
        if who is seat and marked and foresight is not None and foresight.options:
            question = _question(index, state, seat, decision, foresight, title)
            if question is not None:
                questions.append(question)
        state.apply(action)
    return questions


def _question(
    index: int,
    state: HandState,
    seat: Seat,
    decision: DecisionReview,
    foresight: Foresight,
    title: str,
) -> MistakeQuestion | None:
    field = decision.field
    values = {option.option: float(option.ev) for option in foresight.options}
    best = foresight.best or ""
    accepted = sorted(c for c, ev in values.items() if ev >= values[best] - TOLERANCE)
    hand = [c for c in state.hands[seat] if c is not None]
    position: dict[str, Any] = {
        "rules": format_rules(state.rules),
        "dealer": state.dealer.value,
        "seat": seat.value,
        "hand": [str(c) for c in hand],
        "upcard": str(state.upcard),
    }
    intro = f"From {title}. You are {seat.word}; {state.dealer.word} dealt. "
    if decision.kind == "call":
        kind = "call"
        position["auction"] = [
            {"seat": s.value, "call": c.kind, **({"suit": str(c.suit)} if c.suit else {})}
            for s, c in state.auction
        ]
        bids = ", ".join(f"{s.word} {c}" for s, c in state.auction) or "nobody has bid yet"
        prompt = (
            f"{intro}The upcard is the {card_name(state.upcard)}. The bidding so far: {bids}. "
            "What do you call?"
        )
        choices = list(values)
    else:
        kind = "best_card"
        trick = state.tricks[-1] if state.tricks else None
        position["trump"] = None if state.strain is None else str(state.strain)
        trump = "" if state.strain is None else are_trump(state.strain, no_trump="called") + ". "
        if trick is not None and trick.cards:
            position["trick"] = [[s.value, str(c)] for s, c in trick.cards]
        if decision.kind == "discard":
            prompt = (
                f"{intro}{trump}You picked up the {card_name(state.upcard)}. "
                "Which card do you discard?"
            )
        else:
            played = (
                ", ".join(f"{s.word} {the_short(c)}" for s, c in trick.cards)
                if (trick is not None and trick.cards)
                else ""
            )
            so_far = f"The trick so far: {played}. " if played else "You lead. "
            prompt = f"{intro}{trump}{so_far}Which card do you play?"
        choices = sorted(values, key=lambda c: parse_card(c).index)
    chosen = decision.chosen or ""
    explanation = (
        f"In the game you chose {_option_words(chosen, field)}; "
        f"{_option_words(best, field)} was worth more. {decision.explanation or ''}"
    ).strip()
    numbers = {
        "samples": foresight.samples,
        "tolerance": TOLERANCE,
        "options": [
            {"option": option, "expected_points": round(ev, 3), "accepted": option in accepted}
            for option, ev in values.items()
        ],
    }
    return MistakeQuestion(
        decision=index,
        kind=kind,
        prompt=prompt,
        position=position,
        choices=choices,
        grading={
            "answer": [best],
            "accepted": accepted,
            "explanation": explanation,
            "feedback": {},
            "numbers": numbers,
        },
    )


def _option_words(option: str, field: str) -> str:
    if field == "card":
        return the_short(parse_card(option))
    return label_text(option, spell_no_trump=True)
