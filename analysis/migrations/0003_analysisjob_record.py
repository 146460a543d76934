"""Jobs carry their record (they are about to lose their hand, which may now be missing),
filled by the next migration."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0002_analysisresult_analysisjob"),
        ("games", "0009_handcomment_edited"),
    ]

    operations = [
        migrations.AlterField(
            model_name="analysisjob",
            name="hand",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="analysis_jobs",
                to="games.hand",
            ),
        ),
        migrations.AddField(
            model_name="analysisjob",
            name="record",
            field=models.JSONField(null=True, help_text="The canonical record to review."),
        ),
    ]
