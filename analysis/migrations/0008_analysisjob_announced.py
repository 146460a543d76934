"""Whether every receiver of review_finished took a done job. The jobs done before this
start unannounced: the sweep announces them, a batch each time, which brings any count of
mistakes left stale up to date."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('analysis', '0007_fill_dd_tables'),
    ]

    operations = [
        migrations.AddField(
            model_name='analysisjob',
            name='announced',
            field=models.BooleanField(default=False, help_text="Done, and every receiver of review_finished took it (games: the hands' counts of mistakes); the sweep sends it again until then."),
        ),
        migrations.AddIndex(
            model_name='analysisjob',
            index=models.Index(condition=models.Q(('announced', False), ('status', 'done')), fields=['finished_at'], name='analysis_job_unannounced'),
        ),
    ]
