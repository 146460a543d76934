"""What a generated question is: the payload sent to the learner, and the grading kept back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Draft", "Explanation", "Grading", "Question", "QuizError"]


class QuizError(ValueError):
    """A question asked for that cannot be made (an unknown skill, a bad level or seed)."""


@dataclass(frozen=True)
class Explanation:
    """Why a question's answer is right, as one explainer of its kind says it, for the
    quiz's questions and the course's exercises alike."""

    text: str
    """Why the answer is right, in a sentence or two."""
    feedback: dict[str, str] = field(default_factory=dict)
    """For some choices, why that choice is right or wrong: told before ``text`` when that
    choice is answered wrongly (or, where the answer is several choices, wrongly left out).
    """


@dataclass(frozen=True)
class Grading:
    """How a question is marked. Never sent with the question."""

    answer: list[str]
    """The best answer: one choice, or every right card where the question is ``multiple``."""
    accepted: list[str]
    """Every choice marked right. For a ``multiple`` question, the same cards as ``answer``:
    the answer is right when it names exactly them."""
    explanation: str
    """Why the answer is right, in a sentence or two."""
    feedback: dict[str, str] = field(default_factory=dict)
    """For some choices, why that choice is right or wrong; added to the explanation when
    that choice is answered wrongly (or, in a ``multiple`` question, wrongly left out)."""
    numbers: dict[str, Any] | None = None
    """The figures behind a graded call or card: expected points of each option, samples."""
    pick: int | None = None
    """For a ``multiple`` question whose right answer is any ``pick`` of the ``accepted``
    choices rather than all of them: a farmer's hand holding four eligible cards swaps any
    three. ``answer`` is then one such pick."""

    def to_json(self) -> dict[str, Any]:
        return {
            "answer": list(self.answer),
            "accepted": list(self.accepted),
            "explanation": self.explanation,
            "feedback": dict(self.feedback),
            "numbers": self.numbers,
            "pick": self.pick,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Grading:
        return cls(
            answer=list(data["answer"]),
            accepted=list(data["accepted"]),
            explanation=str(data["explanation"]),
            feedback=dict(data.get("feedback") or {}),
            numbers=data.get("numbers"),
            pick=data.get("pick"),
        )


@dataclass(frozen=True)
class Question:
    """A question as generated: what the learner sees, and how it is graded."""

    skill: str
    kind: str
    level: int
    seed: int
    prompt: str
    position: dict[str, Any]
    choices: list[str]
    multiple: bool
    grading: Grading

    def payload(self) -> dict[str, Any]:
        """What is sent to the learner (the API adds the question's id). Never the answer."""
        return {
            "skill": self.skill,
            "kind": self.kind,
            "level": self.level,
            "prompt": self.prompt,
            "position": self.position,
            "choices": list(self.choices),
            "multiple": self.multiple,
        }


@dataclass(frozen=True)
class Draft:
    """What a generator makes; :func:`lessons.quiz.skills.generate` adds the skill, level
    and seed."""

    kind: str
    prompt: str
    position: dict[str, Any]
    choices: list[str]
    multiple: bool
    grading: Grading
