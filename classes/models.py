"""Classes, practice sets, assignments and students' submissions."""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Teaching, User
from games.engine.cards import parse_card
from games.engine.rules import PRESET_LABELS
from games.engine.words import card_text
from games.models import Hand
from lessons.models import Lesson
from lessons.quiz.skills import SKILLS

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Join codes and children's passwords avoid the letters and digits easily mixed up."""
CODE_LENGTH = 8


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_child_password() -> str:
    """Easy to copy from a card: three groups of four, like ``KQ7M-2XPA-9RTD``."""
    groups = ["".join(secrets.choice(CODE_ALPHABET) for _ in range(4)) for _ in range(3)]
    return "-".join(groups)


class ClassError(ValueError):
    """An action that cannot be done now; the message is meant for the user."""


# Classes


class ClassroomQuerySet(models.QuerySet["Classroom"]):
    def taught_by(self, user: User) -> ClassroomQuerySet:
        return self.filter(teacher=user)

    def attended_by(self, user: User) -> ClassroomQuerySet:
        """The classes ``user`` is a student of and that are open (not archived)."""
        return self.filter(memberships__student=user, archived_at__isnull=True)

    def active(self) -> ClassroomQuerySet:
        return self.filter(archived_at__isnull=True)

    def archived(self) -> ClassroomQuerySet:
        return self.filter(archived_at__isnull=False)


def sync_teachers(student_ids: Iterable[int]) -> None:
    """Bring the accounts' :class:`~accounts.models.Teaching` of each of these students in
    step with their classes. A student's teachers are the teachers of every class they are
    in: a class being archived does not end it, taking the student out of the class does.
    This is the one place the rule lives; :mod:`classes.signals` calls it whenever a
    membership or a class's teacher changes."""
    for student_id in set(student_ids):
        teachers = Classroom.objects.filter(memberships__student_id=student_id).values_list(
            "teacher_id", flat=True
        )
        Teaching.objects.set_teachers(student_id, teachers)


class Classroom(models.Model):
    """A teacher's class: students join it with its code."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes_taught"
    )
    name = models.CharField(max_length=100)
    join_code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_join_code)
    students = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="classes_attended"
    )
    created = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Archived: gone from the students' lists and closed to joining.",
    )

    objects = ClassroomQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None

    def archive(self, now: datetime | None = None) -> None:
        """Put the class away: it drops out of its students' lists and nobody can join it.
        Its students, assignments and work stay, for when it is unarchived."""
        if self.archived_at is None:
            self.archived_at = now or timezone.now()
            self.save(update_fields=["archived_at"])

    def unarchive(self) -> None:
        if self.archived_at is not None:
            self.archived_at = None
            self.save(update_fields=["archived_at"])

    def add_student(self, user: User) -> bool:
        """Put ``user`` in the class; ``False`` when they were in it already.
        Raises :class:`ClassError` for the class's own teacher, or when it is archived."""
        if user.pk == self.teacher_id:
            raise ClassError("You teach this class: you cannot join it as a student.")
        if self.is_archived:
            raise ClassError(f"“{self.name}” is archived: joining it is closed.")
        _, created = Membership.objects.get_or_create(classroom=self, student=user)
        return created

    def remove_student(self, user: User) -> None:
        """Take ``user`` out of the class. Their submissions stay, out of sight, in case
        they come back."""
        Membership.objects.filter(classroom=self, student=user).delete()

    def has_student(self, user: User) -> bool:
        return Membership.objects.filter(classroom=self, student=user).exists()

    def change_join_code(self) -> None:
        """A new code: the old one (and its link) stop working."""
        for _ in range(5):
            self.join_code = new_join_code()
            try:
                with transaction.atomic():
                    self.save(update_fields=["join_code"])
                return
            except IntegrityError:
                continue
        raise ClassError("Could not make a new code; try again.")

    def create_student_accounts(self, names: list[str]) -> list[tuple[User, str]]:
        """Accounts without e-mail for children, each with a generated password, in this
        class. Returns each user with their password, which is not kept anywhere."""
        made = []
        with transaction.atomic():
            for name in names:
                password = new_child_password()
                user = User.objects.create_user(name, password=password)
                StudentAccount.objects.create(user=user, created_by=self.teacher)
                Membership.objects.create(classroom=self, student=user)
                made.append((user, password))
        return made


class Membership(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="memberships")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["classroom", "student"], name="one_membership")
        ]
        ordering = ["student__username"]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"


class StudentAccount(models.Model):
    """An account a teacher created for a child, with no e-mail: the teacher may give it a
    new password (and a new login card) when the card is lost."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="student_account"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="student_accounts_made"
    )
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} (made by {self.created_by})"

    def reset_password(self) -> str:
        password = new_child_password()
        self.user.set_password(password)
        self.user.save(update_fields=["password"])
        return password


# Practice sets


class PracticeSetQuerySet(models.QuerySet["PracticeSet"]):
    def owned_by(self, user: User) -> PracticeSetQuerySet:
        return self.filter(teacher=user)


class PracticeSet(models.Model):
    """An ordered list of things to do, made by a teacher and given out as assignments."""

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="practice_sets"
    )
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = PracticeSetQuerySet.as_manager()

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.title

    def add_item(self, **fields: Any) -> PracticeItem:
        hands = fields.pop("hands", None)
        last = self.items.aggregate(top=models.Max("position"))["top"]
        item = self.items.create(position=0 if last is None else last + 1, **fields)
        if hands:
            item.hands.set(hands)
        return item

    def move_item(self, item: PracticeItem, offset: int) -> None:
        """Swap ``item`` with its neighbour before (``-1``) or after (``+1``)."""
        items = list(self.items.all())
        at = [i.pk for i in items].index(item.pk)
        other = at + offset
        if not 0 <= other < len(items):
            return
        items[at], items[other] = items[other], items[at]
        with transaction.atomic():
            for position, each in enumerate(items):
                if each.position != position:
                    PracticeItem.objects.filter(pk=each.pk).update(position=position)


class PracticeItem(models.Model):
    """One thing to do in a practice set."""

    class Kind(models.TextChoices):
        LESSON = "lesson", "Lesson"
        QUIZ = "quiz", "Quiz"
        HANDS = "hands", "Hand review"
        GAME = "game", "Game against the computer"

    practice_set = models.ForeignKey(PracticeSet, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    lesson = models.ForeignKey(Lesson, null=True, blank=True, on_delete=models.SET_NULL)
    skill = models.CharField(max_length=40, blank=True)
    questions = models.PositiveSmallIntegerField(default=10)
    level = models.PositiveSmallIntegerField(default=1)
    trick = models.PositiveSmallIntegerField(default=3)
    hands = models.ManyToManyField(Hand, blank=True, related_name="practice_items")
    preset = models.CharField(max_length=40, blank=True)
    target = models.PositiveSmallIntegerField(default=5)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        """The item in words, as students and teachers see it."""
        if self.kind == self.Kind.LESSON:
            return f"Lesson: {self.lesson.title}" if self.lesson else "Lesson (removed)"
        if self.kind == self.Kind.QUIZ:
            skill = SKILLS[self.skill].title if self.skill in SKILLS else self.skill
            questions = f"{self.questions} question" + ("s" if self.questions != 1 else "")
            return f"Quiz: {skill}, {questions} at level {self.level}"
        if self.kind == self.Kind.HANDS:
            count = len(self.hands.all())
            return f"Hand review: the best card at trick {self.trick} in {count} hand" + (
                "s" if count != 1 else ""
            )
        preset = PRESET_LABELS.get(self.preset, self.preset)
        return f"Game against the computer: {preset}, to {self.target} points or more"


# Assignments


class AssignmentQuerySet(models.QuerySet["Assignment"]):
    def set_by(self, teacher: User) -> AssignmentQuerySet:
        return self.filter(classroom__teacher=teacher)

    def visible_to_student(self, student: User, now: datetime | None = None) -> AssignmentQuerySet:
        """Assignments of the student's classes given to them (the whole class, or them by
        name) that have started."""
        now = now or timezone.now()
        return (
            self.filter(classroom__memberships__student=student)
            .filter(Q(chosen_students=None) | Q(chosen_students=student))
            .filter(Q(start_at__isnull=True) | Q(start_at__lte=now))
            .distinct()
        )

    def counts(self, assignments: list[Assignment]) -> dict[int, tuple[int, int]]:
        """Each assignment's number of students (:meth:`Assignment.assignees`) and of those
        who turned their work in or had it returned
        (:meth:`Assignment.turned_in_count`), by its id, in three queries for any number."""
        classes = {assignment.classroom_id for assignment in assignments}
        members: defaultdict[int, set[int]] = defaultdict(set)
        for classroom_id, student_id in Membership.objects.filter(
            classroom_id__in=classes
        ).values_list("classroom_id", "student_id"):
            members[classroom_id].add(student_id)
        chosen: defaultdict[int, set[int]] = defaultdict(set)
        through = Assignment.chosen_students.through
        for assignment_id, user_id in through.objects.filter(
            assignment_id__in=[a.pk for a in assignments]
        ).values_list("assignment_id", "user_id"):
            chosen[assignment_id].add(user_id)
        turned_in: defaultdict[int, set[int]] = defaultdict(set)
        for assignment_id, student_id in Submission.objects.filter(
            assignment__in=assignments,
            state__in=[Submission.State.TURNED_IN, Submission.State.RETURNED],
        ).values_list("assignment_id", "student_id"):
            turned_in[assignment_id].add(student_id)
        counts = {}
        for assignment in assignments:
            assignees = members[assignment.classroom_id]
            if chosen[assignment.pk]:
                assignees = assignees & chosen[assignment.pk]
            counts[assignment.pk] = (len(assignees), len(assignees & turned_in[assignment.pk]))
        return counts


class Assignment(models.Model):
    """A practice set given to a class, or to some of its students."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    practice_set = models.ForeignKey(
        PracticeSet, on_delete=models.PROTECT, related_name="assignments"
    )
    chosen_students = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="assignments_chosen_for"
    )
    """Empty: the whole class."""
    instructions = models.TextField(blank=True)
    start_at = models.DateTimeField(null=True, blank=True, help_text="Hidden from students before.")
    due_at = models.DateTimeField(null=True, blank=True)
    pass_mark = models.PositiveSmallIntegerField(default=80, help_text="A percentage.")
    attempts = models.PositiveSmallIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)

    objects = AssignmentQuerySet.as_manager()

    class Meta:
        ordering = ["due_at", "-created", "-id"]

    def __str__(self) -> str:
        return f"{self.practice_set.title} ({self.classroom})"

    @property
    def title(self) -> str:
        return self.practice_set.title

    def assignees(self) -> models.QuerySet[Any]:
        """The students who have this assignment: in the class, and chosen if any were."""
        members = self.classroom.students.all()
        if self.chosen_students.exists():
            members = members.filter(pk__in=self.chosen_students.values("pk"))
        return members.order_by("username")

    def is_for(self, student: User) -> bool:
        return self.assignees().filter(pk=student.pk).exists()

    def has_started(self, now: datetime | None = None) -> bool:
        return self.start_at is None or self.start_at <= (now or timezone.now())

    def is_past_due(self, now: datetime | None = None) -> bool:
        return self.due_at is not None and (now or timezone.now()) > self.due_at

    def turned_in_count(self) -> int:
        """How many of the assignment's students have turned their work in (or had it
        returned)."""
        return self.submissions.filter(
            student__in=self.assignees(),
            state__in=[Submission.State.TURNED_IN, Submission.State.RETURNED],
        ).count()

    def submission_for(self, student: User) -> Submission:
        submission, _ = Submission.objects.get_or_create(assignment=self, student=student)
        return submission


class Submission(models.Model):
    """A student's work on an assignment, in the states Google Classroom uses."""

    class State(models.TextChoices):
        NOT_STARTED = "not_started", "Not started"
        IN_PROGRESS = "in_progress", "In progress"
        TURNED_IN = "turned_in", "Turned in"
        RETURNED = "returned", "Returned"

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="submissions")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions"
    )
    state = models.CharField(max_length=20, choices=State.choices, default=State.NOT_STARTED)
    attempt = models.PositiveSmallIntegerField(default=0)
    """Attempts started, counting from 1 (0 before the first)."""
    started_at = models.DateTimeField(null=True, blank=True)
    turned_in_at = models.DateTimeField(null=True, blank=True)
    returned_at = models.DateTimeField(null=True, blank=True)
    opened = models.JSONField(default=dict, blank=True)
    """When each item was first opened in this attempt: item id to an ISO timestamp."""
    results = models.JSONField(default=list, blank=True)
    """Each item's result, frozen when the work is turned in."""
    score = models.PositiveSmallIntegerField(null=True, blank=True)
    """The percentage of the turned-in attempt."""
    best_score = models.PositiveSmallIntegerField(null=True, blank=True)
    comment = models.TextField(blank=True)
    extra_attempts = models.PositiveSmallIntegerField(
        default=0,
        help_text="Attempts added to the assignment's when the teacher returned the work for "
        "the student to try again.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student"], name="one_submission")
        ]

    def __str__(self) -> str:
        return f"{self.student} · {self.assignment} ({self.get_state_display()})"

    @property
    def is_late(self) -> bool:
        """Turned in after the due date, or still not turned in after it."""
        due = self.assignment.due_at
        if due is None:
            return False
        if self.turned_in_at is not None:
            return self.turned_in_at > due
        return timezone.now() > due

    @property
    def passed(self) -> bool:
        return self.score is not None and self.score >= self.assignment.pass_mark

    @property
    def allowed_attempts(self) -> int:
        """The assignment's attempts and those its teacher added by returning the work."""
        return self.assignment.attempts + self.extra_attempts

    @property
    def attempts_left(self) -> int:
        return max(0, self.allowed_attempts - self.attempt)

    @property
    def can_start(self) -> bool:
        if self.state == self.State.NOT_STARTED:
            return True
        return self.state == self.State.RETURNED and self.attempts_left > 0

    def start(self, now: datetime | None = None) -> None:
        """Begin an attempt: what the student does from now on counts for it."""
        if not self.can_start:
            if self.state == self.State.IN_PROGRESS:
                raise ClassError("You have started this already.")
            if self.state == self.State.TURNED_IN:
                raise ClassError("You have turned this in; your teacher will return it.")
            raise ClassError("You have used every attempt at this assignment.")
        self.attempt += 1
        self.state = self.State.IN_PROGRESS
        self.started_at = now or timezone.now()
        self.turned_in_at = None
        self.opened, self.results, self.score = {}, [], None
        self.save()

    def note_opened(self, item: PracticeItem, now: datetime | None = None) -> None:
        """Remember when the student first opened ``item`` in this attempt."""
        if self.state != self.State.IN_PROGRESS or str(item.pk) in self.opened:
            return
        self.opened = {**self.opened, str(item.pk): (now or timezone.now()).isoformat()}
        self.save(update_fields=["opened"])

    def turn_in(self, results: list[dict[str, Any]], score: int, now: datetime) -> None:
        """Hand the work in with each item's result (as JSON) and the score frozen, as
        :func:`classes.services.turn_in` read them from the attempt until ``now``."""
        if self.state != self.State.IN_PROGRESS:
            raise ClassError("Start the assignment before turning it in.")
        self.results = results
        self.score = score
        self.best_score = max(score, self.best_score or 0)
        self.state = self.State.TURNED_IN
        self.turned_in_at = now
        self.save()

    def return_to_student(
        self, comment: str, now: datetime | None = None, *, reopen: bool = True
    ) -> None:
        """The teacher hands the work back, with a comment. With ``reopen`` (the usual
        case) the student may try again: when the assignment's attempts are used, one
        more is added for this student, so that a return is never a dead end."""
        if self.state != self.State.TURNED_IN:
            raise ClassError("Only work that has been turned in can be returned.")
        if reopen and self.attempts_left == 0:
            self.extra_attempts += 1
        self.comment = comment.strip()
        self.state = self.State.RETURNED
        self.returned_at = now or timezone.now()
        self.save()


class HandAnswerQuerySet(models.QuerySet["HandAnswer"]):
    def of_attempt(self, submission: Submission) -> HandAnswerQuerySet:
        """The answers given in the submission's current attempt."""
        return self.filter(submission=submission, attempt=submission.attempt)


class HandAnswer(models.Model):
    """A student's card for a hand-review item of an assignment."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="answers")
    attempt = models.PositiveSmallIntegerField()
    item = models.ForeignKey(PracticeItem, on_delete=models.CASCADE, related_name="answers")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="+")
    card = models.CharField(max_length=2)
    correct = models.BooleanField()
    best = models.JSONField(default=list)
    """The cards as good as the best, as the solver found them."""
    shown_at = models.DateTimeField()
    answered_at = models.DateTimeField(auto_now_add=True)

    objects = HandAnswerQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "attempt", "item", "hand"], name="one_answer_per_hand"
            )
        ]
        ordering = ["answered_at", "id"]

    def __str__(self) -> str:
        return f"{self.submission.student}: {self.card} in {self.hand}"

    @property
    def card_text(self) -> str:
        return card_text(parse_card(self.card))

    @property
    def best_text(self) -> str:
        return ", ".join(card_text(parse_card(card)) for card in self.best)
