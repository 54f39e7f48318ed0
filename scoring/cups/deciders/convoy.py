"""Convoy: a drawn tie is settled by one more game played on the night."""

from django.utils.translation import gettext_lazy as _

from .base import DrawnTieRule

RULE = DrawnTieRule(
    rule=_("A drawn tie is settled by one more game, played on the night."),
    decider=_("one more game"),
)
