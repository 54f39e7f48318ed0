"""Who may act for a venue: staff of that venue, and league admins (superusers)."""

from django.core.exceptions import PermissionDenied

from .models import StaffMembership


def can_enter_results(*, user, venue_id: int) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return StaffMembership.objects.filter(user=user, venue_id=venue_id).exists()


def ensure_can_enter_results(*, user, venue_id: int) -> None:
    """Raise PermissionDenied unless `user` serves the venue (or is a league admin)."""
    if not can_enter_results(user=user, venue_id=venue_id):
        raise PermissionDenied("You can only enter results for fixtures at a venue you serve.")
