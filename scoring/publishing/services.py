"""Writes of publishing: the secret address of a venue's TV screen."""

import secrets

from django.db import transaction

from leagues.models import Venue
from scoring.models import VenueScreen


@transaction.atomic
def venue_screen_issue(*, venue_id: int) -> VenueScreen:
    """Give the venue's TV screen a new secret token (the first, or one replacing a leaked
    one: the old address stops working at once). Raises Venue.DoesNotExist."""
    venue = Venue.objects.select_for_update().get(pk=venue_id)
    screen, _ = VenueScreen.objects.get_or_create(
        venue=venue, defaults={"token": secrets.token_urlsafe(24)}
    )
    screen.token = secrets.token_urlsafe(24)
    screen.save(update_fields=["token"])
    return screen
