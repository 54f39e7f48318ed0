"""Roundel settings: everything that differs between machines comes from the environment.

DEBUG            "1" for development; off by default, so production is the safe default
SECRET_KEY       required when DEBUG is off
DATABASE_URL     default: SQLite under var/ (the embedded default)
CELERY_BROKER_URL  default: Celery's filesystem broker under var/; redis://127.0.0.1:6379/0 in production
CELERY_RESULT_BACKEND  default: files under var/
ALLOWED_HOSTS    comma-separated; default localhost,127.0.0.1
CALENDAR_UID_DOMAIN  the domain in calendar event UIDs; default roundel (keep it once published)
SITE_URL  the site's address for links in emailed notices; default http://127.0.0.1:8000
TV_REFRESH_SECONDS   how often a pub's TV screen refreshes; default 15
RESULTS_CONFIRM_SWEEP_SECONDS  how often beat confirms players' results whose window passed; default 60
CACHE_URL        redis://… for a shared cache; default: in-process memory. An unreachable or
                 silent Redis only costs speed (config/cache.py). Production needs one: the
                 throttles count in it (`check --deploy` fails without it, config/checks.py).
API_TOKEN_TTL_HOURS  how long an API token lives; default 168 (7 days)
LOGIN_FAILURE_LIMIT / LOGIN_LOCKOUT_MINUTES  lockout after failed logins; default 5 / 60
TRUSTED_PROXY_COUNT  proxies in front of the site that append to X-Forwarded-For; default 0,
                 when X-Forwarded-For and X-Forwarded-Proto are ignored
API_TOKEN_RATE   token requests per address; default 10/minute
TABLE_CREATE_RATE / TABLE_MOVE_RATE  live tables started / moves made per user, through the API
                 and the pages together; default 30/hour / 120/minute
GAMES_OPEN_TABLES_PER_USER  casual tables waiting for players one user may have; default 3
PAGE_CACHE_SECONDS  how long an anonymous visitor's public page is kept at most (any league
                 write renews it at once); default 30, only with a Redis CACHE_URL
LIVE_PUSH_URL    redis://… whose pub/sub carries table changes to the pages' event streams;
                 default CACHE_URL when that is Redis, else the streams watch the database
EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL,
EMAIL_TIMEOUT, DEFAULT_FROM_EMAIL  outgoing mail (SMTP); without EMAIL_HOST, mail goes to the
                 console under DEBUG and nowhere in production, where password reset is hidden
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("ROUNDEL_VAR_DIR", BASE_DIR / "var"))


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY in the environment (or DEBUG=1 for development)."
        )
    SECRET_KEY = "development-only-key-never-used-when-debug-is-off-4f9c2a7e1b"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "config.admin_site.RoundelAdminConfig",  # django.contrib.admin, ids checked
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "axes",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "simple_history",
    "leagues",
    "scoring",
    "games",
    "config.apps.SiteConfig",  # `check --deploy` checks (config/checks.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.api_errors.ApiBodyLimitMiddleware",  # 413 before anything reads the body
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A table page's fetch that finds nothing new: 304 before the session is read.
    "games.live.polls.UnchangedTablePollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language cookie, then the browser's Accept-Language (leagues/languages.py sets the
    # cookie from a user's profile when they log in).
    "django.middleware.locale.LocaleMiddleware",
    "leagues.languages.ProfileLanguageCookieMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A page's refusal that escapes its view as the 404, 403 or 400 page (config.page_errors).
    "config.page_errors.PageErrorMiddleware",
    "config.accounts.PrivatePagesMiddleware",
    "config.page_cache.PublicPageCacheMiddleware",  # after CSRF, sessions and messages
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, so that it turns a locked-out login (flagged by the backend) into the 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.accounts.mail_context",
                "leagues.languages.language_choices",  # the switcher's languages, each in itself
                "config.page_cache.csrf_placeholder",  # a kept public page: the token's place
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'roundel.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server, the worker and beat share the file: WAL lets readers run beside a
    # writer, and IMMEDIATE transactions take the write lock up front, which is SQLite's
    # stand-in for select_for_update.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Login lockout (django-axes, docs/operations.md): the lockout check runs before the password
# check on every login (site, admin, API token); see config/accounts.py.
AUTHENTICATION_BACKENDS = [
    "config.accounts.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Proxies in front of the site, each appending to X-Forwarded-For (docs/operations.md): the
# client's address for the lockout and the throttles (config/client_address.py), and whether
# X-Forwarded-Proto is believed. 0: the header is the client's word and is ignored.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "60")))
# A username is locked at the address the failures came from: guessing from one address stops,
# and the real user at their own address is not locked out by someone else's guessing.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.accounts.lockout_response"
# The address is config.client_address's, the one the API throttles count by too.
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_address"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule for new passwords: Django tells validators when a password changed, and this
    # one revokes the user's API tokens then.
    {"NAME": "config.accounts.RevokeTokensOnPasswordChange"},
]

# The site's three languages (docs/languages.md). British English is the default and the
# variant any "en-*" browser gets, so dates read 2 December 2026 everywhere English is read.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("ru", "Русский"), ("fi", "Suomi")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A year, so that the choice outlives the session; a logged-in user's is also on their profile.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
if DEBUG:
    STATIC_ROOT.mkdir(
        parents=True, exist_ok=True
    )  # whitenoise looks here even when it uses finders
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Tests and `make run` serve straight from the finders; production serves collectstatic's output.
WHITENOISE_USE_FINDERS = DEBUG
# Files browsers ask for at the site's root (/favicon.ico), served by whitenoise as they are.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"

# Calendar feeds: the domain part of every event's UID. Keep it once feeds are published, or
# subscribed calendars will see every fixture as new.
CALENDAR_UID_DOMAIN = os.environ.get("CALENDAR_UID_DOMAIN", "roundel")
# The site's address as people reach it: the links in emailed notices (docs/match-night.md).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# The pub's TV screen asks for fresh data this often (seconds), and calls it stale after
# three missed refreshes.
TV_REFRESH_SECONDS = int(os.environ.get("TV_REFRESH_SECONDS", "15"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "roundel",
    }
}


def redis_cache(url: str) -> dict:
    """A Redis that is down or silent is a cache miss (and a warning), never an error page."""
    return {
        "BACKEND": "config.cache.ForgivingRedisCache",
        "LOCATION": url,
        "OPTIONS": {
            "socket_connect_timeout": float(os.environ.get("CACHE_CONNECT_TIMEOUT", "0.3")),
            "socket_timeout": float(os.environ.get("CACHE_TIMEOUT", "0.3")),
        },
    }


if os.environ.get("CACHE_URL", "").startswith(("redis://", "rediss://")):
    CACHES["default"] = redis_cache(os.environ["CACHE_URL"])

# Sessions are read from the shared cache where there is one (written through to the database,
# so a cache that is emptied logs nobody out): a phone at a live table asks several times a
# turn, and this spares each request its session query.
if CACHES["default"]["BACKEND"] == "config.cache.ForgivingRedisCache":
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Public pages for anonymous visitors, kept this long at most (config/page_cache.py); only in a
# cache that the web processes and the worker share, so that every write reaches the pages.
PAGE_CACHE_SECONDS = (
    int(os.environ.get("PAGE_CACHE_SECONDS", "30"))
    if CACHES["default"]["BACKEND"] == "config.cache.ForgivingRedisCache"
    else 0
)

# Pushed table changes (games/live/push.py, docs/live-tables.md "Pushed moves"): Redis pub/sub
# at LIVE_PUSH_URL, by default the shared cache's Redis; without one, each web process watches
# its streams' tables in the database.
LIVE_PUSH_URL = os.environ.get("LIVE_PUSH_URL", "")
if not LIVE_PUSH_URL and os.environ.get("CACHE_URL", "").startswith(("redis://", "rediss://")):
    LIVE_PUSH_URL = os.environ["CACHE_URL"]

# Mail (docs/operations.md). Password reset is offered only where mail can go out: with an
# SMTP server, or under DEBUG where the console shows the message.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", not EMAIL_USE_SSL)
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Roundel <roundel@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
PASSWORD_RESET_BY_MAIL = EMAIL_BACKEND != "django.core.mail.backends.dummy.EmailBackend"

# Security: production is HTTPS behind a proxy that sets X-Forwarded-Proto. Without a
# trusted proxy anyone could send the header and pass plain HTTP off as HTTPS.
if TRUSTED_PROXY_COUNT > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp; docs/operations.md): everything from the site itself.
# Scripts and styles are files under static/; the rare inline one carries the request's
# nonce (<script nonce="{{ request.csp_nonce }}">), as Swagger UI's page does.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.AutoSchema",
    # JSON only in production; DRF's browsable pages (HTML forms for every endpoint) in
    # development. The docs are at /api/docs/ either way.
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    # JSON first (nesting bounded: config/api_parsers.py), then forms, as DRF's defaults.
    "DEFAULT_PARSER_CLASSES": [
        "config.api_parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Token first, so that an anonymous write is told how to authenticate (401, not 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # Per client address (config.client_address); the token endpoint also has the login
    # lockout behind it.
    "DEFAULT_THROTTLE_RATES": {
        "auth-token": os.environ.get("API_TOKEN_RATE", "10/minute"),
        # Per user, the API and the pages' forms counted together (games/live/throttles.py).
        "table-create": os.environ.get("TABLE_CREATE_RATE", "30/hour"),
        "table-move": os.environ.get("TABLE_MOVE_RATE", "120/minute"),
    },
    # DRF's own throttle classes (an anonymous request under a per-user rate) read
    # X-Forwarded-For the same way config.client_address does, from the same count.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# API tokens (django-rest-knox): stored as a hash, expire, revoked by logout or a password change.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=int(os.environ.get("API_TOKEN_TTL_HOURS", "168"))),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Roundel API",
    "DESCRIPTION": "Pub leagues for Convoy, Корова 006 and Conquian: tables, fixtures, results.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files come from the sidecar package, served by the site itself: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two "winner" fields with different choices: a fixture's (home/away/draw) and a Convoy
    # game's on the sheet (home/away/stalemate).
    "ENUM_NAME_OVERRIDES": {
        "FixtureWinnerEnum": "scoring.models.ResultVersion.Winner",
        "ConvoyGameWinnerEnum": "scoring.kinds.convoy.WINNERS",
    },
}

# Celery: the database is the truth; the broker only wakes things up.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "")
if not CELERY_RESULT_BACKEND:
    _results_dir = VAR_DIR / "celery" / "results"
    _results_dir.mkdir(parents=True, exist_ok=True)
    CELERY_RESULT_BACKEND = f"file://{_results_dir.as_posix()}"


def filesystem_broker_options(folder: Path) -> dict[str, object]:
    """The filesystem broker's transport options with its folders under `folder`, made if
    missing (config.test_settings gives the test run folders of its own)."""
    for name in ("queue", "processed", "control"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": (folder / "queue").as_posix(),
        "data_folder_out": (folder / "queue").as_posix(),
        "processed_folder": (folder / "processed").as_posix(),
        "store_processed": False,
        # Look for new messages every 0.2 s (the default 1 s would delay bots and expiries).
        "polling_interval": 0.2,
        "control_folder": (folder / "control").as_posix(),
    }


if CELERY_BROKER_URL == "filesystem://":
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(VAR_DIR / "celery")
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker's timer thread sleeps up to this long between looks at its ETA tasks (the turn
# clocks); Celery's default of 1 s would make an expiry up to a second late.
CELERY_WORKER_TIMER_PRECISION = 0.05
CELERY_BEAT_SCHEDULE_FILENAME = (VAR_DIR / "celerybeat-schedule").as_posix()
# Celery's Django fixup closes the database connection around every task unless this is set,
# so each task connected anew: most of the time a burst of expiry tasks took (measured,
# docs/performance.md). With it, a worker thread's connection serves 500 tasks; between tasks
# config/celery.py closes it as Django does between requests (older than CONN_MAX_AGE, broken).
CELERY_DB_REUSE_MAX = 1000

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        "axes.apps": {"level": "WARNING"},  # not its version banner on every command
    },
}

# Live tables: a practice bot thinks this many seconds (uniform between the two) before it
# moves; beat sweeps for overdue turns whose expiry task was lost every GAMES_SWEEP_SECONDS.
GAMES_BOT_THINK_SECONDS = (
    float(os.environ.get("GAMES_BOT_THINK_MIN", "0.8")),
    float(os.environ.get("GAMES_BOT_THINK_MAX", "1.6")),
)
GAMES_SWEEP_SECONDS = float(os.environ.get("GAMES_SWEEP_SECONDS", "2"))
# A table page polls this often only while its event stream is down (games/live/push.py).
GAMES_FALLBACK_POLL_SECONDS = float(os.environ.get("GAMES_FALLBACK_POLL_SECONDS", "5"))
# How many casual tables waiting for players one user may have open at once.
GAMES_OPEN_TABLES_PER_USER = int(os.environ.get("GAMES_OPEN_TABLES_PER_USER", "3"))
# How often beat confirms the players' results whose confirmation window passed without a
# dispute (scoring.results.tasks): a result counts at most this long after its window.
RESULTS_CONFIRM_SWEEP_SECONDS = float(os.environ.get("RESULTS_CONFIRM_SWEEP_SECONDS", "60"))
# Beat runs several jobs, each said below: sweeps that find their work in the database, so that
# nothing waits on a task lost to a worker crash or a broker restart.
CELERY_BEAT_SCHEDULE = {
    # The safety net behind the rating recomputation each saved result queues (scoring.ratings.tasks).
    "ratings-refresh": {"task": "scoring.ratings_refresh", "schedule": 300.0},
    # The safety net behind the notices each proposal and result queues (scoring.match_night).
    "match-night-notices": {"task": "scoring.match_night_notices_send", "schedule": 60.0},
    # Match night: a player's result counts once its window passes without a dispute.
    "results-confirm-overdue": {
        "task": "scoring.results_confirm_overdue",
        "schedule": RESULTS_CONFIRM_SWEEP_SECONDS,
        "options": {"expires": RESULTS_CONFIRM_SWEEP_SECONDS},
    },
    # Live tables: expire overdue turns whose expiry task was lost.
    "sweep-overdue-turns": {
        "task": "games.sweep_overdue_turns",
        "schedule": GAMES_SWEEP_SECONDS,
        "options": {"expires": GAMES_SWEEP_SECONDS},
    },
}
