"""Every season so far had one table: it becomes that season's one division, holding its
entries and league fixtures (docs/seasons.md: a season without divisions set up has one)."""

from django.db import migrations

DEFAULT_DIVISION_NAME = "Division 1"


def one_division_per_season(apps, schema_editor):
    Season = apps.get_model("leagues", "Season")
    Division = apps.get_model("leagues", "Division")
    for season in Season.objects.all():
        division = Division.objects.create(season=season, name=DEFAULT_DIVISION_NAME, level=1)
        season.entries.update(division=division)
        season.fixtures.filter(stage="league").update(division=division)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0002_seasons_and_match_night")]

    operations = [migrations.RunPython(one_division_per_season, migrations.RunPython.noop)]
