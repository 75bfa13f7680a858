"""The one settings module of Raspis, configured only through the environment.

With nothing set the service runs from a checkout: SQLite in ``db.sqlite3``, Celery tasks run
eagerly in the web process, DEBUG on, and a development secret. ``DATABASE_URL`` selects a real
database and ``CELERY_BROKER_URL`` real workers; with either set and DEBUG off,
``DJANGO_SECRET_KEY`` is required. Every variable is listed in ``.env.example``.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import (
    env_bool,
    env_cache_url,
    env_database,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_secret_key,
    env_str,
)
from replay import MAX_DEALS, MAX_PLAYS
from stats.beat import BEAT_SCHEDULE as STATS_BEAT_SCHEDULE
from uploads.beat import beat_schedule as uploads_beat_schedule

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -------------------------------------------------------------------------------------

_SERVICES_SET = bool(env_str("DATABASE_URL") or env_str("CELERY_BROKER_URL"))

# DEBUG defaults on only for the zero-configuration checkout; naming real services means a
# deployment unless DJANGO_DEBUG says otherwise.
DEBUG = env_bool("DJANGO_DEBUG", default=not _SERVICES_SET)
SECRET_KEY = env_secret_key(debug=DEBUG)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Behind a TLS-terminating proxy: DJANGO_HTTPS turns on what HTTPS needs, each also set on
# its own. Trust the proxy's X-Forwarded-Proto (only behind a proxy that sets it), redirect
# plain HTTP, keep cookies off unencrypted connections, and tell browsers to come back only
# over HTTPS (HSTS). Off by default so compose and runserver work on http://.
_HTTPS = env_bool("DJANGO_HTTPS", default=False)
if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=_HTTPS):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=_HTTPS)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", default=_HTTPS)
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_SECURE_HSTS_SECONDS", 365 * 24 * 3600 if _HTTPS else 0, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_HTTPS)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "games",
    "verification",
    "uploads",
    "stats",
    "web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A database or broker that is down: 503 with Retry-After, not 500 (core/outages.py).
    "core.outages.OutageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The pages' language: the cookie set_language leaves, else the browser's; the API's
    # is English.
    "web.middleware.PagesLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
]

# Content-Security-Policy (django-csp): everything from the site itself, no inline script
# and no inline style but the few blocks listed by hash (tests/service/test_csp.py finds
# every inline block of the pages and the API docs and checks it is listed). Images may be
# data: URIs, which Swagger UI's and the admin's stylesheets use for their icons.
CSP_STYLE_HASHES = [
    # drf_spectacular/swagger_ui.html: the page's box-sizing and background
    "'sha256-MMpT0iDxyjALd9PdfepImGX3DBfJPXZ4IlDWdPAgtn0='",
]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", *CSP_STYLE_HASHES],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # The project's own overrides of the admin's templates (its index's dashboard).
        "DIRS": [BASE_DIR / "config" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Data -------------------------------------------------------------------------------------

DATABASES = {
    "default": env_database(
        "DATABASE_URL",
        sqlite_path=BASE_DIR / "db.sqlite3",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Throttle and sign-in counters must be shared by all web processes: Redis from CACHE_URL,
# else REDIS_URL, else the broker's when it is Redis (its keys prefixed, beside the queues;
# nothing clears the cache). Local memory, one count per process, only with none of them.
_CACHE_URL = env_cache_url()
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _CACHE_URL,
            "KEY_PREFIX": "raspis",
        }
        if _CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# The site's accounts (web/accounts.py): where signing in and out leads.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "account"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The pages speak English and Russian (locale/ru); a reader's browser chooses, the language
# form (``set_language``) switches and its cookie remembers.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The charts' stylesheet, which the site's pages and the admin share (core/charts.py).
STATICFILES_DIRS = [BASE_DIR / "config" / "static"]

# --- API --------------------------------------------------------------------------------------

RASPIS_MAX_UPLOAD_BYTES = env_int("RASPIS_MAX_UPLOAD_BYTES", 50 * 1024 * 1024, minimum=1)
# Throttles, per account or, without one, per address (core.throttles.WriteThrottle).
RASPIS_UPLOAD_THROTTLE = env_rate("RASPIS_UPLOAD_THROTTLE", "60/hour")
RASPIS_VERIFY_THROTTLE = env_rate("RASPIS_VERIFY_THROTTLE", "60/minute")
RASPIS_WRITE_THROTTLE = env_rate("RASPIS_WRITE_THROTTLE", "120/hour")
# Failed sign-ins per account and per address before both are refused (core.logins).
RASPIS_LOGIN_THROTTLE = env_rate("RASPIS_LOGIN_THROTTLE", "10/hour")
# A record up to this size is verified inside the request; larger uploads go to a worker.
RASPIS_SYNC_RECORD_MAX_BYTES = env_int("RASPIS_SYNC_RECORD_MAX_BYTES", 256 * 1024, minimum=0)
# Django refuses bodies past DATA_UPLOAD_MAX_MEMORY_SIZE with a bare 400 before any view runs;
# a little above the upload limit, the API's own check answers first, with a 413 and a finding.
DATA_UPLOAD_MAX_MEMORY_SIZE = RASPIS_MAX_UPLOAD_BYTES + 1024 * 1024
# Files above this are spooled to a temporary file while the request is read.
FILE_UPLOAD_MAX_MEMORY_SIZE = min(RASPIS_MAX_UPLOAD_BYTES, 10 * 1024 * 1024)
# Records per Celery task when an upload is verified; each batch is stored in one transaction.
# Each batch ends waiting for the database and starts with a few queries, so larger batches
# pay them less often; a batch's records and reports are in a worker's memory at its peak.
RASPIS_UPLOAD_BATCH_SIZE = env_int("RASPIS_UPLOAD_BATCH_SIZE", 400, minimum=1)
# An unfinished upload none of whose batches moved for this long is queued again by the
# sweep, which celery beat runs every RASPIS_UPLOAD_SWEEP_SECONDS (uploads/beat.py). Longer
# than a batch takes, or the sweep queues batches still running (harmless, but wasted).
RASPIS_UPLOAD_STALL_SECONDS = env_int("RASPIS_UPLOAD_STALL_SECONDS", 120, minimum=1)
RASPIS_UPLOAD_SWEEP_SECONDS = env_int("RASPIS_UPLOAD_SWEEP_SECONDS", 60, minimum=1)
# The hard time limit of an upload task (a batch or a split); its soft limit is 30 s less.
RASPIS_UPLOAD_TASK_TIME_LIMIT = env_int("RASPIS_UPLOAD_TASK_TIME_LIMIT", 300, minimum=31)
# The most one record or file may cost (docs/format.md, "Limits"): the largest legal game's
# record is about 250 KB, its deals and plays are what the rules allow (replay).
RASPIS_MAX_RECORD_BYTES = env_int("RASPIS_MAX_RECORD_BYTES", 1024 * 1024, minimum=1)
RASPIS_MAX_RECORD_DEALS = env_int("RASPIS_MAX_RECORD_DEALS", MAX_DEALS, minimum=1)
RASPIS_MAX_RECORD_PLAYS = env_int("RASPIS_MAX_RECORD_PLAYS", MAX_PLAYS, minimum=1)
RASPIS_MAX_UPLOAD_RECORDS = env_int("RASPIS_MAX_UPLOAD_RECORDS", 100_000, minimum=1)
# Bytes a zip may unpack to, counted as they inflate: no more than an unpacked upload.
RASPIS_MAX_UNPACKED_BYTES = env_int("RASPIS_MAX_UNPACKED_BYTES", RASPIS_MAX_UPLOAD_BYTES, minimum=1)
# Items per page of an upload's detail (``?page=``); an upload can hold 100,000 records.
RASPIS_UPLOAD_ITEMS_PAGE_SIZE = env_int("RASPIS_UPLOAD_ITEMS_PAGE_SIZE", 100, minimum=1)
# Leaderboard gates (docs/stats.md): listed after enough games, provisional until the rating
# settles, and only with recent play. Chosen so that a weekly club's players are ranked
# within a season rather than after a year or two.
RASPIS_LEADERBOARD_MIN_GAMES = env_int("RASPIS_LEADERBOARD_MIN_GAMES", 5, minimum=0)
RASPIS_LEADERBOARD_MAX_SIGMA = env_float("RASPIS_LEADERBOARD_MAX_SIGMA", 6.0, minimum=0.0)
RASPIS_LEADERBOARD_ACTIVE_DAYS = env_int("RASPIS_LEADERBOARD_ACTIVE_DAYS", 365, minimum=1)
# Routes /api/bench/row/{id}/, the baseline of bench/stats.py (always routed with DEBUG).
RASPIS_BENCH = env_bool("RASPIS_BENCH", default=False)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Reading is public, writing needs an account; views that differ say so themselves.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "core.openapi.AutoSchema",
    # DRF's JSON renderer and parser, safe for lone surrogates and deep nesting.
    "DEFAULT_RENDERER_CLASSES": [
        "core.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "core.renderers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "core.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # Views that write or verify set a ``throttle_scope``; reading is never throttled.
    "DEFAULT_THROTTLE_CLASSES": ["core.throttles.WriteThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "upload": RASPIS_UPLOAD_THROTTLE,
        "verify": RASPIS_VERIFY_THROTTLE,
        "write": RASPIS_WRITE_THROTTLE,
    },
    # Every 4xx answers {"findings": [...]} in the shape of docs/format.md.
    "EXCEPTION_HANDLER": "core.exceptions.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Raspis API",
    "DESCRIPTION": "Upload records of Расписной покер games and read their verification reports.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Requests get their own components, which state what DRF checks only on the way in: a
    # non-blank string's minLength, a file as binary (else a URL), core.openapi's patterns.
    "COMPONENT_SPLIT_REQUEST": True,
    # The games' enums of the same field name (a report's preset, a finding's code) are named
    # by their game (the trick-taking game's as before there were others), and the poker's
    # hand categories once, whichever field holds them (games.apis.reports).
    "ENUM_NAME_OVERRIDES": {
        "CodeEnum": "games.apis.findings.TRICK_CODES",
        "PresetEnum": "replay.tricks.rulesets.PRESETS",
        "RummyPresetEnum": "replay.rummy.rulesets.PRESETS",
        "PokerPresetEnum": "replay.poker.rulesets.PRESETS",
        "PokerCategoryEnum": "replay.poker.hands.CATEGORY_NAMES",
        "RummyCodeEnum": "games.apis.reports.RUMMY_CODES",
        "PokerCodeEnum": "games.apis.reports.POKER_CODES",
    },
}

# --- Celery -----------------------------------------------------------------------------------

_BROKER_URL = env_str("CELERY_BROKER_URL")

# No broker: tasks run inside the caller, so a checkout needs no Redis and no worker.
CELERY_TASK_ALWAYS_EAGER = not _BROKER_URL
# Several deployments (or a benchmark) can share one broker with a queue each.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = _BROKER_URL or "memory://"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", _BROKER_URL) or None
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker or beat whose broker went away keeps reconnecting, however long it takes.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Sending a task when the broker is down gives up within a second or two: the request that
# sends it has committed its work, and the sweeps send it again (core/outages.py).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# JSON only: a pickled message from anyone who reaches the broker would run code.
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
# A task is acknowledged after it finishes, so a worker killed mid-replay leaves it queued;
# tasks must therefore be safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 25 * 60, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 30 * 60, minimum=1)
if CELERY_TASK_SOFT_TIME_LIMIT >= CELERY_TASK_TIME_LIMIT:
    # The soft limit raises inside the task so it can record the failure before the kill.
    raise ImproperlyConfigured("CELERY_TASK_SOFT_TIME_LIMIT must be below CELERY_TASK_TIME_LIMIT")
# Redis re-delivers a task whose worker died without acknowledging it after this long. Twice
# an upload task's time limit, so that a batch is redone minutes after its worker died, not
# an hour; a task that runs longer (a full statistics recompute) may then run twice, which
# every task tolerates. The socket timeouts make a broker that does not answer an error
# within seconds rather than a request that hangs.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int(
        "CELERY_VISIBILITY_TIMEOUT", 2 * RASPIS_UPLOAD_TASK_TIME_LIMIT, minimum=1
    ),
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
}
CELERY_TIMEZONE = TIME_ZONE
# Periodic jobs: stats/beat.py, uploads/beat.py.
CELERY_BEAT_SCHEDULE = {
    **STATS_BEAT_SCHEDULE,
    **uploads_beat_schedule(RASPIS_UPLOAD_SWEEP_SECONDS),
}

# --- Logging ----------------------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    # Django's own console handler would print each of its messages a second time.
    "loggers": {"django": {"handlers": [], "propagate": True}},
}
