"""Conquian: a drawn tie is settled by a deciding single played on the night."""

from django.utils.translation import gettext_lazy as _

from .base import DrawnTieRule

RULE = DrawnTieRule(
    rule=_(
        "A drawn tie is settled by a deciding single between the two teams' first "
        "players, played on the night to the season's target."
    ),
    decider=_("a deciding single"),
)
