"""Fill the accounts' record of who teaches whom from the memberships of today: a
student's teachers are the teachers of every class they are in, archived or not."""

from django.db import migrations


def fill_teachings(apps, schema_editor):
    Membership = apps.get_model("classes", "Membership")
    Teaching = apps.get_model("accounts", "Teaching")
    pairs = Membership.objects.values_list("classroom__teacher_id", "student_id").distinct()
    Teaching.objects.bulk_create(
        [Teaching(teacher_id=teacher, student_id=student) for teacher, student in pairs],
        ignore_conflicts=True,
        batch_size=500,
    )


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_teaching"),
        ("classes", "0002_classroom_archived_at"),
    ]

    operations = [
        migrations.RunPython(fill_teachings, migrations.RunPython.noop),
    ]
