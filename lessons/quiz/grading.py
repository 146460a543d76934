"""Marking an answer against a question's grading data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.errors import shown

from .question import Grading

__all__ = ["AnswerError", "Verdict", "grade", "read_answer"]


class AnswerError(ValueError):
    """An answer that is not one of the question's choices, or of the wrong shape."""


@dataclass(frozen=True)
class Verdict:
    correct: bool
    answer: list[str]
    accepted: list[str]
    explanation: str
    numbers: dict[str, Any] | None
    given: list[str]
    """The answer given, as canonical choices (not part of the reply)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "answer": self.answer,
            "accepted": self.accepted,
            "explanation": self.explanation,
            "numbers": self.numbers,
        }


def _choice(value: object, choices: list[str]) -> str:
    if not isinstance(value, str):
        raise AnswerError(f"answer: expected one of the choices as a string, got {shown(value)}")
    by_key = {c.casefold(): c for c in choices}
    key = " ".join(value.split()).casefold()
    if key.startswith("10"):
        key = "t" + key[2:]
    if key not in by_key:
        raise AnswerError(
            f"answer: {shown(value)} is not one of the choices ({', '.join(choices)})"
        )
    return by_key[key]


def read_answer(value: object, choices: list[str], multiple: bool) -> list[str]:
    """The answer as canonical choices; a ``multiple`` question takes a list (possibly empty),
    any other a single string."""
    if multiple:
        if not isinstance(value, list):
            raise AnswerError(
                "answer: this question takes a list of choices (every right one), "
                f"got {shown(value)}"
            )
        picked = [_choice(v, choices) for v in value]
        if len(set(picked)) != len(picked):
            raise AnswerError("answer: a choice is given twice")
        return [c for c in choices if c in picked]
    if isinstance(value, list):
        raise AnswerError("answer: this question takes one choice as a string, not a list")
    return [_choice(value, choices)]


def grade(grading: Grading, choices: list[str], multiple: bool, value: object) -> Verdict:
    """Mark ``value`` (raw, as sent). Raise :class:`AnswerError` when it is malformed."""
    picked = read_answer(value, choices, multiple)
    notes: list[str] = []
    if multiple and grading.pick is not None:
        allowed = set(grading.accepted)
        correct = len(picked) == grading.pick and set(picked) <= allowed
        for choice in picked:
            note = grading.feedback.get(choice)
            if choice not in allowed and note:
                notes.append(note)
    elif multiple:
        right = set(grading.answer)
        correct = set(picked) == right
        for choice in choices:
            if (choice in right) != (choice in picked):
                note = grading.feedback.get(choice)
                if note:
                    notes.append(note)
    else:
        correct = picked[0] in grading.accepted
        if not correct and picked[0] in grading.feedback:
            notes.append(grading.feedback[picked[0]])
    explanation = " ".join([*notes, grading.explanation])
    return Verdict(
        correct=correct,
        answer=list(grading.answer),
        accepted=list(grading.accepted),
        explanation=explanation,
        numbers=grading.numbers,
        given=picked,
    )
