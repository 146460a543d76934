"""Learn from your mistakes: the decisions the review marked in a player's own hands,
asked again as questions.

Pure Python: from a hand record, its review and the player's seat, each decision of
that seat marked a mistake or a blunder becomes a question with the position as it
was (the hand so far, as that seat saw it, goes with it), the same options, and the
review's figures as its grading.

An option is marked right when the review would not have marked it: its loss against the
best is under the inaccuracy threshold or within twice its sampling error
(:func:`analysis.solver.judgement.classify`, the one home of the thresholds, which the
quiz follows too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from analysis.solver.judgement import INACCURACY, classify
from analysis.solver.review import DecisionReview, Foresight, ForesightOption, Review
from games.engine.cards import Seat, parse_card
from games.engine.hand import HandState
from games.engine.record import HandRecord, record_from_state
from games.engine.rules import format_rules
from games.engine.words import (
    are_trump,
    auction_story,
    call_imperative,
    call_words,
    table_words,
    the,
    the_short,
)

__all__ = ["TOLERANCE", "MistakeQuestion", "accepted_options", "mistake_questions"]

TOLERANCE = (
    f"the review's marks: a loss under {INACCURACY.threshold} points, "
    "or within twice its sampling error"
)
"""What the figures say of the tolerance: an option is right when the review gives it no mark."""


def _loss_se(
    option: ForesightOption, best: ForesightOption, foresight: Foresight, chosen: str
) -> float:
    """The standard error of an option's loss against the best. The review keeps the
    paired error of the card chosen; for the others, the errors of the two means added
    in quadrature (the unpaired error, never smaller than the paired one)."""
    if option.option == best.option:
        return 0.0
    if option.option == chosen and foresight.loss_se is not None:
        return foresight.loss_se
    return math.hypot(option.se, best.se)


def accepted_options(foresight: Foresight, chosen: str) -> dict[str, tuple[float, float]]:
    """Each option the review would have left unmarked, with its (loss, standard error):
    the options marked right."""
    best = foresight.value_of(foresight.best or "")
    if best is None:
        return {}
    out = {}
    for option in foresight.options:
        loss = max(0.0, best.ev - option.ev)
        se = _loss_se(option, best, foresight, chosen)
        if option.option == chosen and foresight.loss is not None:
            loss = foresight.loss
        if option.option == best.option or classify(loss, se) is None:
            out[option.option] = (loss, se)
    return out


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
    errors = {option.option: float(option.se) for option in foresight.options}
    best = foresight.best or ""
    chosen = decision.chosen or ""
    accepted = sorted(accepted_options(foresight, chosen))
    hand = [c for c in state.hands[seat] if c is not None]
    position: dict[str, Any] = {
        "rules": format_rules(state.rules),
        "dealer": state.dealer.value,
        "seat": seat.value,
        "hand": [str(c) for c in hand],
        "upcard": str(state.upcard),
        # The hand so far as the seat saw it: the earlier tricks are shown from it.
        "record": record_from_state(state.seen_by(seat)),
    }
    # The table's rules decide which calls are possible and what they are worth.
    intro = (
        f"From {title}. {table_words(state.rules)} You are {seat.word}; {state.dealer.word} dealt. "
    )
    if decision.kind == "call":
        kind = "call"
        position["auction"] = [
            {"seat": s.value, "call": c.kind, **({"suit": str(c.suit)} if c.suit else {})}
            for s, c in state.auction
        ]
        prompt = (
            f"{intro}The upcard is {the(state.upcard)}. {auction_story(state.auction)} "
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
            prompt = f"{intro}{trump}You picked up {the(state.upcard)}. Which card do you discard?"
        else:
            played = (
                ", ".join(f"{s.word} {the_short(c)}" for s, c in trick.cards)
                if (trick is not None and trick.cards)
                else ""
            )
            so_far = f"The trick so far: {played}. " if played else "You lead. "
            tally = (
                f"Tricks so far: your side {state.tricks_won[seat.team]}, the other side "
                f"{state.tricks_won[seat.team.other]}. "
                if any(len(t.cards) == len(state.active_seats) for t in state.tricks)
                else ""
            )
            prompt = f"{intro}{trump}{tally}{so_far}Which card do you play?"
        choices = sorted(values, key=lambda c: parse_card(c).index)
    explanation = (
        f"In the game you chose {chosen_words(chosen, field)}; "
        f"{better_words(best, field)} was worth more. {decision.explanation or ''} "
        f"Any choice the review would leave unmarked (giving up less than "
        f"{INACCURACY.threshold} points, or no more than twice its sampling error) counts "
        f"as right."
    ).replace("  ", " ")
    numbers = {
        "samples": foresight.samples,
        "tolerance": TOLERANCE,
        "options": [
            {
                "option": option,
                "expected_points": round(ev, 3),
                "standard_error": round(errors[option], 3),
                "accepted": option in accepted,
            }
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


def chosen_words(option: str, field: str) -> str:
    """What the player chose, after "you chose": ``the A♦``, ``to name hearts alone``."""
    if field == "card":
        return the_short(parse_card(option))
    return "to " + call_imperative(option)


def better_words(option: str, field: str) -> str:
    """The better option, before "was worth more": ``the A♥``, ``passing``."""
    if field == "card":
        return the_short(parse_card(option))
    return call_words(option)
