"""A card link names the card attributes its game declares, as data (``attributes``),
instead of one column per attribute of one game."""

from django.db import migrations, models
from django.db.models import Q


def columns_to_attributes(apps, schema_editor):
    LessonLink = apps.get_model("lessons", "LessonLink")
    for link in LessonLink.objects.using(schema_editor.connection.alias).all():
        attributes = {"purpose": link.purpose, "sign": link.sign}
        link.attributes = {key: value for key, value in sorted(attributes.items()) if value}
        link.save(update_fields=["attributes"])


def attributes_to_columns(apps, schema_editor):
    LessonLink = apps.get_model("lessons", "LessonLink")
    for link in LessonLink.objects.using(schema_editor.connection.alias).all():
        link.purpose = link.attributes.get("purpose", "")
        link.sign = link.attributes.get("sign", "")
        link.save(update_fields=["purpose", "sign"])


class Migration(migrations.Migration):
    dependencies = [("lessons", "0004_debrief_export")]

    operations = [
        migrations.RemoveConstraint(model_name="lessonlink", name="lessons_unique_link"),
        migrations.RemoveConstraint(model_name="lessonlink", name="lessons_link_card_or_event"),
        migrations.AddField(
            model_name="lessonlink",
            name="attributes",
            field=models.JSONField(blank=True, default=dict, verbose_name="card attributes"),
        ),
        migrations.RunPython(columns_to_attributes, attributes_to_columns),
        migrations.AlterModelOptions(
            name="lessonlink",
            options={
                "ordering": ["game", "event", "kind", "qualifier", "pk"],
                "verbose_name": "lesson link",
                "verbose_name_plural": "lesson links",
            },
        ),
        migrations.RemoveField(model_name="lessonlink", name="purpose"),
        migrations.RemoveField(model_name="lessonlink", name="sign"),
        migrations.AddConstraint(
            model_name="lessonlink",
            constraint=models.UniqueConstraint(
                fields=("game", "kind", "attributes", "event", "qualifier"),
                name="lessons_unique_link",
            ),
        ),
        migrations.AddConstraint(
            model_name="lessonlink",
            constraint=models.CheckConstraint(
                condition=(Q(event="") & ~Q(kind="") & ~Q(lesson=None) & Q(card_field=""))
                | (~Q(event="") & Q(kind="") & (Q(lesson=None) ^ Q(card_field=""))),
                name="lessons_link_card_or_event",
            ),
        ),
    ]
