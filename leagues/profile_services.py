"""A user's own settings (leagues.models.Profile): the language they read the site in, and
whether notices reach them by email. Nobody changes another user's settings."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden, Invalid

from .models import Profile
from .permissions import AnyUser


def language_supported(language: str) -> bool:
    return language in {code for code, _name in settings.LANGUAGES}


def profile_language_set(*, user: AnyUser, language: str) -> Profile | None:
    """Keep the language a user chose; for a visitor not logged in, only check it (their choice
    lives in the cookie alone)."""
    if not language_supported(language):
        raise Invalid(errors={"language": _("Choose one of the site's languages.")})
    if not user.is_authenticated:
        return None
    with transaction.atomic():
        profile, _created = Profile.objects.select_for_update().get_or_create(user_id=user.pk)
        if profile.language != language:
            profile.language = language
            profile.save(update_fields=["language"])
    return profile


@transaction.atomic
def profile_email_notices_set(*, user: AnyUser, email_notices: bool) -> Profile:
    """Turn a user's notices by email on or off (their own settings: no one else's)."""
    if not user.is_authenticated:
        raise Forbidden(_("Log in to change your notices."))
    profile, _created = Profile.objects.select_for_update().get_or_create(user_id=user.pk)
    if profile.email_notices != email_notices:
        profile.email_notices = email_notices
        profile.save(update_fields=["email_notices"])
    return profile
