"""Choosing the language a person reads the site in (docs/languages.md).

Django's LocaleMiddleware reads the language cookie, then the browser's Accept-Language. A
logged-in user's choice is also kept on their profile, so it follows them to another phone:
logging in sets the cookie from the profile, and so no page pays a query to read it.

Every answer that passes the middleware varies by Accept-Language and by Cookie (the language
cookie), so that no cache keeps one reader's language for another."""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpResponseRedirect
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from config.errors import Invalid

from . import profile_services
from .models import Profile

_CHOSEN = "_roundel_language_chosen"


def language_cookie_set(request, response, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def language_choices(request) -> dict:
    """The switcher's languages, each named in itself ("Suomi" on a Russian page too):
    settings.LANGUAGES as written, where Django's get_available_languages would translate
    the names into the page's language ("englanti")."""
    return {"language_choices": settings.LANGUAGES}


@receiver(user_logged_in, dispatch_uid="roundel-profile-language")
def profile_language_on_login(sender, request, user, **kwargs) -> None:
    """The page after logging in, and every one after it, in the user's own language."""
    if request is None:
        return
    language = Profile.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    if language:
        translation.activate(language)
        request.LANGUAGE_CODE = language
        setattr(request, _CHOSEN, language)


class ProfileLanguageCookieMiddleware:
    """Writes the cookie for a language chosen during this request (at login, from the profile),
    and says on every answer that it depends on the reader's language: Vary: Accept-Language
    (LocaleMiddleware's own) and Cookie, which a page that reads no session would not say."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        language = getattr(request, _CHOSEN, None)
        if language:
            language_cookie_set(request, response, language)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response


@require_POST
def language_choose(request):
    """The switcher's form: the cookie for everyone, the profile too for a logged-in user; back
    to the page the switcher was on."""
    language = request.POST.get("language", "")
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    try:
        profile_services.profile_language_set(user=request.user, language=language)
    except Invalid:
        return HttpResponseRedirect(next_url)  # an unknown language: the page as it was
    translation.activate(language)
    response = HttpResponseRedirect(next_url)
    language_cookie_set(request, response, language)
    return response
