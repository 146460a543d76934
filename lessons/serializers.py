"""Serializers of the lessons app's API: the quiz's (``/api/v1/quiz/``), the shapes of
``shared/spec/quiz.md``."""

from __future__ import annotations

from rest_framework import serializers

from .quiz.skills import LEVELS, MAX_SEED, SKILLS


class SkillSerializer(serializers.Serializer):
    skill = serializers.CharField()
    title = serializers.CharField()
    kinds = serializers.ListField(child=serializers.CharField())
    levels = serializers.ListField(child=serializers.IntegerField())


class NextQuerySerializer(serializers.Serializer):
    """The query of ``GET next``: the skill, and optionally the seed and the level."""

    skill = serializers.CharField()
    seed = serializers.IntegerField(required=False, min_value=0, max_value=MAX_SEED)
    level = serializers.IntegerField(
        required=False, default=1, min_value=min(LEVELS), max_value=max(LEVELS)
    )

    def validate_skill(self, value: str) -> str:
        if value not in SKILLS:
            raise serializers.ValidationError(
                f"unknown skill {value!r} (known skills: {', '.join(SKILLS)})"
            )
        return value


class QuestionSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The question's public id, `q_` and hex digits.")
    skill = serializers.CharField()
    kind = serializers.CharField(
        help_text="What is asked: winner, legal, trumps, effective_suit, leader, points, "
        "call, best_card."
    )
    level = serializers.IntegerField()
    prompt = serializers.CharField()
    position = serializers.JSONField(
        help_text="The position, in the vocabulary of the hand record; fields that do not "
        "apply are left out."
    )
    choices = serializers.ListField(child=serializers.CharField())
    multiple = serializers.BooleanField(
        help_text="True when the answer is a list of every right choice."
    )


class AnswerSerializer(serializers.Serializer):
    answer = serializers.JSONField(
        help_text='One choice ("JD"), or a list of choices where the question is multiple.'
    )


class NumbersOptionSerializer(serializers.Serializer):
    option = serializers.CharField()
    expected_points = serializers.FloatField()
    standard_error = serializers.FloatField()
    loss = serializers.FloatField()
    loss_se = serializers.FloatField()
    accepted = serializers.BooleanField()
    verdict = serializers.CharField(
        required=False,
        help_text="best, equal (as good as the best: marked right) or worse (marked wrong).",
    )


class NumbersSerializer(serializers.Serializer):
    samples = serializers.IntegerField(help_text="Layouts every option was valued on.")
    seed = serializers.IntegerField(required=False, help_text="The seed of those layouts.")
    target_se = serializers.FloatField(
        required=False, help_text="The standard error every option's loss was graded to."
    )
    tolerance = serializers.CharField()
    options = NumbersOptionSerializer(many=True)


class VerdictSerializer(serializers.Serializer):
    correct = serializers.BooleanField()
    answer = serializers.ListField(child=serializers.CharField(), help_text="The best answer.")
    accepted = serializers.ListField(
        child=serializers.CharField(), help_text="Every answer marked right."
    )
    explanation = serializers.CharField()
    numbers = NumbersSerializer(allow_null=True)


# The course (``/api/v1/lessons/``, ``/api/v1/progress/``): the views write these shapes,
# the serializers describe them in the schema.


class LessonSummarySerializer(serializers.Serializer):
    slug = serializers.SlugField()
    order = serializers.IntegerField(help_text="The lesson's place in the course.")
    title = serializers.CharField()
    summary = serializers.CharField(allow_blank=True)
    exercises = serializers.IntegerField(help_text="The lesson's exercises.")
    solved = serializers.IntegerField(help_text="Those the learner has solved.")


class LessonStepSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The step's place in the lesson, from 0.")
    type = serializers.ChoiceField(choices=["text", "exercise"])
    text = serializers.CharField(required=False, help_text="An explanation (Markdown).")
    kind = serializers.CharField(required=False, help_text="An exercise's kind.")
    prompt = serializers.CharField(required=False)
    position = serializers.JSONField(required=False)
    choices = serializers.ListField(child=serializers.CharField(), required=False)
    multiple = serializers.BooleanField(required=False)
    solved = serializers.BooleanField(required=False)


class LessonSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    title = serializers.CharField()
    summary = serializers.CharField(allow_blank=True)
    steps = LessonStepSerializer(many=True)


class LessonVerdictSerializer(serializers.Serializer):
    correct = serializers.BooleanField()
    answer = serializers.ListField(child=serializers.CharField(), help_text="The right answer.")
    explanation = serializers.CharField()


class LessonsDoneSerializer(serializers.Serializer):
    completed = serializers.IntegerField()
    total = serializers.IntegerField()


class SkillMasterySerializer(serializers.Serializer):
    skill = serializers.CharField()
    mastery = serializers.CharField(
        help_text="not started, attempted, familiar, proficient or mastered."
    )
    right = serializers.IntegerField()
    answered = serializers.IntegerField()


class CourseProgressSerializer(serializers.Serializer):
    lessons = LessonsDoneSerializer()
    skills = SkillMasterySerializer(
        many=True, required=False, help_text="For a signed-in learner only."
    )
    reviews_due = serializers.IntegerField(required=False, help_text="For a signed-in learner.")
