from django.contrib import admin
from django.contrib.auth import urls as auth_urls
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.accounts import StaffFirstLoginView, needs_mail
from config.health import health

# Django's account pages (login, logout, password change and reset); the reset pages only
# where mail can go out (config.accounts.needs_mail); staff land on their fixtures after login.
account_urls = [
    path(str(url.pattern), needs_mail(url.callback), name=url.name)
    if url.name.startswith("password_reset")
    else path(str(url.pattern), StaffFirstLoginView.as_view(), name=url.name)
    if url.name == "login"
    else url
    for url in auth_urls.urlpatterns
]

urlpatterns = [
    path("health/", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include(account_urls)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("config.api_urls")),
    path("staff/", include("scoring.results.urls")),
    path("tables/", include("games.live.urls")),
    path("", include("scoring.publishing.urls")),
    path("", include("leagues.urls")),
    path("", include("scoring.publishing.page_urls")),
]

# Django's error pages, in JSON under /api/ (config/api_errors.py).
handler400 = "config.api_errors.bad_request"
handler403 = "config.api_errors.permission_denied"
handler404 = "config.api_errors.page_not_found"
handler500 = "config.api_errors.server_error"
