"""Match holds: one pause state per match, in the database.

Schema: the MatchHold table. Data: every match paused today gets the teacher's holds
that pause it: ``table`` where its table is paused, ``session`` where its session is,
since the match's ``paused_at``. A lesson pause lived only in the cache
(``live:lesson-pause:<match>``) and is not carried over: a match that only a lesson
paused resumes (its timers move later by the pause), as it would have after a Redis
restart; its lesson cards are still recorded (lessons.LessonMoment).
"""

import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def hold_paused_matches(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    MatchHold = apps.get_model("games", "MatchHold")
    MatchTimer = apps.get_model("games", "MatchTimer")
    Table = apps.get_model("classroom", "Table")
    now = timezone.now()
    for match in Match.objects.filter(status="paused"):
        since = match.paused_at or now
        table = Table.objects.select_related("session").filter(match=match).first()
        kinds = []
        if table is not None and table.paused:
            kinds.append("table")
        if table is not None and table.session.state == "paused":
            kinds.append("session")
        for kind in kinds:
            MatchHold.objects.create(match=match, kind=kind, created_at=since)
        if not kinds:
            pause = now - since
            for timer in MatchTimer.objects.filter(match=match):
                timer.due_at += pause
                timer.save(update_fields=["due_at"])
            match.status, match.paused_at = "running", None
            match.save(update_fields=["status", "paused_at"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_match_paused_at_matchtimer'),
        ('classroom', '0002_tables_seats'),
    ]

    operations = [
        migrations.CreateModel(
            name='MatchHold',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('table', 'table'), ('session', 'session'), ('lesson', 'lesson')], max_length=10, verbose_name='kind')),
                ('moment', models.PositiveIntegerField(blank=True, null=True, verbose_name='lesson moment')),
                ('event', models.CharField(blank=True, max_length=40, verbose_name='event')),
                ('lesson', models.JSONField(blank=True, default=dict, verbose_name='lesson')),
                ('seats', models.JSONField(blank=True, default=list, verbose_name='seats')),
                ('waiting', models.JSONField(blank=True, default=list, verbose_name='waiting for')),
                ('created_at', models.DateTimeField(verbose_name='created at')),
                ('expires_at', models.DateTimeField(blank=True, db_index=True, null=True, verbose_name='expires at')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='holds', to='games.match')),
            ],
            options={
                'verbose_name': 'match hold',
                'verbose_name_plural': 'match holds',
                'ordering': ['match', 'created_at', 'pk'],
                'constraints': [models.CheckConstraint(condition=models.Q(models.Q(('kind', 'lesson'), ('moment__isnull', False)), models.Q(models.Q(('kind', 'lesson'), _negated=True), ('moment__isnull', True)), _connector='OR'), name='a_lesson_hold_has_its_moment'), models.UniqueConstraint(condition=models.Q(('moment__isnull', True)), fields=('match', 'kind'), name='one_teacher_hold_of_each_kind'), models.UniqueConstraint(condition=models.Q(('moment__isnull', False)), fields=('match', 'moment'), name='one_hold_per_lesson_moment')],
            },
        ),
        migrations.RunPython(hold_paused_matches, migrations.RunPython.noop),
    ]
