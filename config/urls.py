from django.contrib import admin
from django.contrib.auth import urls as auth_urls
from django.urls import URLPattern, URLResolver, include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.accounts import StaffFirstLoginView, needs_mail
from config.health import health


def _account_url(url: URLPattern | URLResolver) -> URLPattern | URLResolver:
    """Django's account pages (login, logout, password change and reset) as the site serves
    them: the reset pages only where mail can go out (config.accounts.needs_mail), and a login
    that takes staff to their fixtures."""
    if not isinstance(url, URLPattern) or not url.name:
        return url
    if url.name.startswith("password_reset"):
        return path(str(url.pattern), needs_mail(url.callback), name=url.name)
    if url.name == "login":
        return path(str(url.pattern), StaffFirstLoginView.as_view(), name=url.name)
    return url


account_urls = [_account_url(url) for url in auth_urls.urlpatterns]

urlpatterns = [
    path("health/", health, name="health"),
    # The scripts' strings in the reader's language (the djangojs catalogues): a page that
    # needs them loads this before its own script and calls gettext()/ngettext()/interpolate().
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("accounts/", include(account_urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("config.api_urls")),
    path("staff/", include("scoring.results.urls")),
    path("staff/cups/", include("scoring.cups.urls")),
    path("tables/", include("games.live.urls")),
    path("", include("scoring.publishing.urls")),
    path("", include("scoring.match_night.urls")),
    path("", include("leagues.urls")),
    path("", include("scoring.publishing.page_urls")),
]

# Django's error pages, in JSON under /api/ (config/api_errors.py).
handler400 = "config.api_errors.bad_request"
handler403 = "config.api_errors.permission_denied"
handler404 = "config.api_errors.page_not_found"
handler500 = "config.api_errors.server_error"
