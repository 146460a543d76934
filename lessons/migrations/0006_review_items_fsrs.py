"""Spaced repetition by FSRS instead of SM-2: each question under review gets a stability,
a difficulty and a last review, converted from its SM-2 ease, interval and due day by
:func:`lessons.mastery.from_sm2` (the due day is kept: the learner was told when it comes
back). Going back keeps the due day and restarts SM-2 from its ease after one miss."""

from django.db import migrations, models

from lessons.mastery import SM2_EASE_AFTER_MISSES, from_sm2, sm2_misses


def to_fsrs(apps, schema_editor):
    ReviewItem = apps.get_model("lessons", "ReviewItem")
    items = list(ReviewItem.objects.all())
    for item in items:
        schedule = from_sm2(item.ease, item.interval, item.due)
        item.stability = schedule.stability
        item.difficulty = schedule.difficulty
        item.last_review = schedule.last_review
        item.lapses = sm2_misses(item.ease)
    ReviewItem.objects.bulk_update(
        items, ["stability", "difficulty", "last_review", "lapses"], batch_size=500
    )


def to_sm2(apps, schema_editor):
    ReviewItem = apps.get_model("lessons", "ReviewItem")
    items = list(ReviewItem.objects.all())
    for item in items:
        item.ease = SM2_EASE_AFTER_MISSES[0]
        item.interval = max(1, round(item.stability))
        item.repetitions = 0
    ReviewItem.objects.bulk_update(items, ["ease", "interval", "repetitions"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("lessons", "0005_quizquestion_unanswered"),
    ]

    operations = [
        migrations.AddField(
            model_name="reviewitem",
            name="stability",
            field=models.FloatField(default=1.0, help_text="FSRS: days until recall falls to 90%."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="reviewitem",
            name="difficulty",
            field=models.FloatField(default=5.0, help_text="FSRS: from 1 (easy) to 10 (hard)."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="reviewitem",
            name="last_review",
            field=models.DateTimeField(null=True),
        ),
        migrations.AddField(
            model_name="reviewitem",
            name="lapses",
            field=models.PositiveIntegerField(
                default=0, help_text="Wrong answers to it since it entered the review."
            ),
        ),
        migrations.RunPython(to_fsrs, to_sm2),
        migrations.AlterField(
            model_name="reviewitem",
            name="last_review",
            field=models.DateTimeField(),
        ),
        migrations.RemoveField(model_name="reviewitem", name="ease"),
        migrations.RemoveField(model_name="reviewitem", name="interval"),
        migrations.RemoveField(model_name="reviewitem", name="repetitions"),
    ]
