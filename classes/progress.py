"""How far a student has got with each item of an assignment, read from the features
themselves: lesson progress, quiz answers, hand-review answers and finished games."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.engine.rules import PRESETS, parse_rules
from games.engine.words import plural, scores_text
from games.models import GamePlay
from lessons.models import LessonProgress, QuizQuestion
from lessons.progress import lesson_exercises
from lessons.quiz.skills import SKILLS

from .models import Assignment, HandAnswer, PracticeItem, Submission

QUESTION_TIME_CAP = timedelta(minutes=10)
"""A question left open longer than this counts for this long: the student was away."""


@dataclass(frozen=True)
class ItemResult:
    item_id: int
    done: bool
    score: float | None
    """From 0 to 1; ``None`` while nothing can be scored."""
    seconds: int | None
    """Time spent on the item, from the recorded timestamps; ``None`` when unknown."""
    finished_at: str | None
    detail: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def percent(self) -> int | None:
        return None if self.score is None else round(self.score * 100)

    @property
    def minutes(self) -> str:
        if self.seconds is None:
            return ""
        minutes, seconds = divmod(self.seconds, 60)
        return f"{minutes}:{seconds:02d}"

    def finished_late(self, due: datetime | None) -> bool:
        return (
            due is not None
            and self.finished_at is not None
            and datetime.fromisoformat(self.finished_at) > due
        )


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _opened(submission: Submission, item: PracticeItem) -> datetime | None:
    text = submission.opened.get(str(item.pk))
    return datetime.fromisoformat(text) if text else None


def _lesson(item: PracticeItem, submission: Submission, until: datetime) -> ItemResult:
    if item.lesson is None:
        return ItemResult(item.pk, False, None, None, None, "The lesson has been removed.")
    progress = LessonProgress.objects.filter(user=submission.student, lesson=item.lesson).first()
    exercises = lesson_exercises(item.lesson)
    solved = set(progress.solved) & exercises if progress else set()
    score = len(solved) / len(exercises) if exercises else 1.0
    completed = progress.completed_at if progress else None
    if completed is not None and completed > until:
        completed = None
    opened = _opened(submission, item)
    seconds = None
    if completed is not None and opened is not None and completed >= opened:
        seconds = int((completed - opened).total_seconds())
    detail = f"{len(solved)} of {len(exercises)} exercises solved"
    if completed is not None and submission.started_at and completed < submission.started_at:
        detail += " (completed before this assignment)"
    return ItemResult(item.pk, completed is not None, score, seconds, _iso(completed), detail)


def quiz_answers(item: PracticeItem, submission: Submission, until: datetime) -> list[QuizQuestion]:
    """The quiz questions of the item's skill and level the student answered during the
    attempt, the first ``item.questions`` of them."""
    if submission.started_at is None:
        return []
    rows = QuizQuestion.objects.filter(
        answered_by=submission.student,
        skill=item.skill,
        level=item.level,
        answered_at__gte=submission.started_at,
        answered_at__lte=until,
    ).order_by("answered_at", "pk")
    return list(rows[: item.questions])


def _quiz(item: PracticeItem, submission: Submission, until: datetime) -> ItemResult:
    answers = quiz_answers(item, submission, until)
    right = sum(1 for q in answers if q.correct)
    seconds = sum(
        min(q.answered_at - q.created, QUESTION_TIME_CAP).total_seconds()
        for q in answers
        if q.answered_at is not None
    )
    done = len(answers) >= item.questions
    last = answers[-1].answered_at if done else None
    return ItemResult(
        item.pk,
        done,
        right / item.questions if answers else None,
        int(seconds) if answers else None,
        _iso(last),
        f"{len(answers)} of {plural(item.questions, 'question')} answered"
        + (f", {right} right" if answers else ""),
    )


def _hands(item: PracticeItem, submission: Submission, until: datetime) -> ItemResult:
    hands = {hand.pk for hand in item.hands.all()}
    answers = [
        a
        for a in HandAnswer.objects.of_attempt(submission).filter(item=item, answered_at__lte=until)
        if a.hand_id in hands
    ]
    right = sum(1 for a in answers if a.correct)
    done = bool(hands) and len(answers) >= len(hands)
    seconds = sum(
        min(a.answered_at - a.shown_at, QUESTION_TIME_CAP).total_seconds() for a in answers
    )
    return ItemResult(
        item.pk,
        done,
        right / len(hands) if answers and hands else None,
        int(seconds) if answers else None,
        _iso(answers[-1].answered_at) if done else None,
        f"{len(answers)} of {plural(len(hands), 'hand')} answered"
        + (f", {right} right" if answers else ""),
    )


def matching_game(item: PracticeItem, game: GamePlay) -> bool:
    """A game counts for the item when its rules are the item's preset, to the item's
    target or more."""
    preset = PRESETS.get(item.preset)
    if preset is None:
        return False
    try:
        rules = parse_rules(game.rules)
    except ValueError:
        return False
    return replace(rules, target=preset.target) == preset and game.target >= item.target


def _game(item: PracticeItem, submission: Submission, until: datetime) -> ItemResult:
    games = [
        game
        for game in GamePlay.objects.filter(
            owner=submission.student,
            status=GamePlay.Status.FINISHED,
            created__gte=submission.started_at,
            updated__lte=until,
        ).order_by("updated")
        if matching_game(item, game)
    ]
    if not games:
        playing = GamePlay.objects.filter(
            owner=submission.student,
            status=GamePlay.Status.PLAYING,
            created__gte=submission.started_at,
        ).exists()
        detail = "A game is under way" if playing else "No game finished yet"
        return ItemResult(item.pk, False, None, None, None, detail)
    game = games[0]
    seconds = int((game.updated - game.created).total_seconds())
    score = scores_text(game.scores["NS"], game.scores["EW"])
    won = game.scores["NS"] > game.scores["EW"]
    detail = f"Game finished, {'won' if won else 'lost'}: {score}"
    return ItemResult(item.pk, True, 1.0, seconds, _iso(game.updated), detail)


_BY_KIND = {
    PracticeItem.Kind.LESSON: _lesson,
    PracticeItem.Kind.QUIZ: _quiz,
    PracticeItem.Kind.HANDS: _hands,
    PracticeItem.Kind.GAME: _game,
}


def item_results(
    submission: Submission | None,
    *,
    until: datetime | None = None,
    items: list[PracticeItem] | None = None,
) -> list[ItemResult]:
    """Each item's result for the submission: frozen once turned in, otherwise read live
    from what the student has done since the attempt started."""
    if items is None:
        assert submission is not None
        items = list(submission.assignment.practice_set.items.all())
    if submission is None or submission.started_at is None:
        return [ItemResult(item.pk, False, None, None, None, "Not started") for item in items]
    if submission.state in (Submission.State.TURNED_IN, Submission.State.RETURNED) and (
        submission.results and until is None
    ):
        frozen = {row["item_id"]: ItemResult(**row) for row in submission.results}
        return [
            frozen.get(item.pk, ItemResult(item.pk, False, None, None, None, "Added later"))
            for item in items
        ]
    until = until or timezone.now()
    return [_BY_KIND[PracticeItem.Kind(item.kind)](item, submission, until) for item in items]


def score_of(results: list[ItemResult]) -> int:
    """The percentage: the mean of the items' scores, an item not done counting as its
    score so far (0 when none)."""
    if not results:
        return 0
    return round(100 * sum(r.score or 0.0 for r in results) / len(results))


# The teacher's views of a class


@dataclass(frozen=True)
class GridRow:
    student: Any
    submission: Submission | None
    results: list[ItemResult]
    score: int | None

    @property
    def seconds(self) -> int:
        return sum(r.seconds or 0 for r in self.results)

    @property
    def minutes(self) -> str:
        minutes, seconds = divmod(self.seconds, 60)
        return f"{minutes}:{seconds:02d}"

    @property
    def state(self) -> str:
        if self.submission is None:
            return Submission.State.NOT_STARTED.label
        return self.submission.get_state_display()

    @property
    def late(self) -> bool:
        return self.submission.is_late if self.submission else self.assignment_past_due

    assignment_past_due: bool = False


def assignment_grid(assignment: Assignment) -> tuple[list[PracticeItem], list[GridRow]]:
    """The students × items grid of an assignment."""
    items = list(assignment.practice_set.items.select_related("lesson"))
    submissions = {
        s.student_id: s for s in assignment.submissions.select_related("assignment", "student")
    }
    rows = []
    past_due = assignment.is_past_due()
    for student in assignment.assignees():
        submission = submissions.get(student.pk)
        results = item_results(submission, items=items)
        if submission is not None and submission.score is not None:
            score: int | None = submission.score
        elif submission is not None and submission.started_at is not None:
            score = score_of(results)
        else:
            score = None
        rows.append(GridRow(student, submission, results, score, past_due))
    return items, rows


@dataclass(frozen=True)
class Mistake:
    what: str
    wrong: int
    answered: int
    students: int


def class_mistakes(students: list[Any], limit: int = 8) -> list[Mistake]:
    """What the class gets wrong most: quiz skills and kinds of question, and the hands of
    hand-review items, by the number of wrong answers."""
    wrong: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    who: defaultdict[str, set[int]] = defaultdict(set)
    kinds = {
        "effective_suit": "the suit a card belongs to",
        "winner": "who wins the trick",
        "legal": "which cards may be played",
        "trumps": "which cards are trumps",
        "points": "the points scored",
        "leader": "who leads",
        "call": "what to call",
        "best_card": "the best card",
    }
    rows = QuizQuestion.objects.filter(answered_by__in=students, answered_at__isnull=False)
    for skill, kind, correct, user_id in rows.values_list(
        "skill", "kind", "correct", "answered_by"
    ):
        title = SKILLS[skill].title if skill in SKILLS else "Their own mistakes, asked again"
        # A skill of one kind of question is named once ("The best card", not "The best
        # card: the best card").
        several = skill not in SKILLS or len(SKILLS[skill].kinds) > 1
        key = f"{title}: {kinds.get(kind, kind.replace('_', ' '))}" if several else title
        answered[key] += 1
        if not correct:
            wrong[key] += 1
            who[key].add(user_id)
    hand_rows = HandAnswer.objects.filter(submission__student__in=students).select_related(
        "hand", "item", "submission"
    )
    for answer in hand_rows:
        key = f"Hand review: the best card at trick {answer.item.trick} of {answer.hand}"
        answered[key] += 1
        if not answer.correct:
            wrong[key] += 1
            who[key].add(answer.submission.student_id)
    return [
        Mistake(key, count, answered[key], len(who[key])) for key, count in wrong.most_common(limit)
    ]
