"""Django settings, read from the environment.

With no environment at all the service runs on an embedded default: SQLite in
``var/db.sqlite3``, a local-memory cache, Celery over kombu's filesystem transport in
``var/celery/``, and DEBUG on. ``DATABASE_URL`` and ``REDIS_URL`` switch to the servers used
in production. docs/operations.md lists every variable.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from ttr_service.config import account_env, chat_env, env, languages, push_env, schema, stores
from ttr_service.config.files import checkout_secret_key, service_version
from ttr_service.config.observability import logging_settings, metrics_settings
from ttr_service.config.staff import with_staff_site

BASE_DIR = Path(__file__).resolve().parent.parent
# The service's own files: embedded SQLite and broker, secret key, beat schedule, static.
VAR_DIR = Path(env.get_str("VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)

SERVICE_VERSION = service_version(BASE_DIR)

DEBUG = env.get_bool("DEBUG", default=True)

_secret_key = env.get_str("SECRET_KEY")
if _secret_key is None and not DEBUG:
    raise ImproperlyConfigured(
        "Environment variable SECRET_KEY: must be set when DEBUG is off; the key kept in "
        "var/secret_key is for development checkouts only"
    )
SECRET_KEY = _secret_key or checkout_secret_key(VAR_DIR)

ALLOWED_HOSTS = env.get_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.get_list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "knox",
    "axes",
    "idempotency",
    "accounts",
    "games",
    "ratings",
    "notifications",
    "social",
    "privacy",
    "matchmaking",
    "chat",
    "web",
    "ops",
]

MIDDLEWARE = [
    "ttr_service.observability.requests.RequestContextMiddleware",  # X-Request-ID, /metrics
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # Accept-Language; Content-Language on all
    "ttr_service.http.limits.BodySizeLimitMiddleware",
    # Errors under /api/ answer problem+json even with DEBUG on.
    "ttr_service.http.problems.ApiProblemsMiddleware",
    # Serves the web client's static files when DEBUG is off (after `collectstatic`).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a lockout flagged during login into our problem body.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "ttr_service.urls"
WSGI_APPLICATION = "ttr_service.wsgi.application"
ASGI_APPLICATION = "ttr_service.asgi.application"

# The largest request body accepted (Django's default, set here so it is seen): larger ones
# get 413 REQUEST_TOO_LARGE from ttr_service.http.limits before any parser reads them.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# The API's paths carry no trailing slash; a redirect would drop a POST body.
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
INSTALLED_APPS, MIDDLEWARE, TEMPLATES = with_staff_site(INSTALLED_APPS, MIDDLEWARE, TEMPLATES)

DATABASES: dict[str, dict[str, Any]] = {"default": stores.database(VAR_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts and tokens (accounts/). Knox's own token table is replaced by accounts.AuthToken,
# so its migrations (which would create the unused knox_authtoken table) are switched off.
KNOX_TOKEN_MODEL = "accounts.AuthToken"
MIGRATION_MODULES = {"knox": None}
_token_ttl_days = env.get_int("TOKEN_TTL_DAYS", default=30, minimum=1)
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=_token_ttl_days),
    # A fixed prefix lets secret scanners recognise a leaked key.
    "TOKEN_PREFIX": "ttr_",
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

# Axes checks lockouts before the model backend runs and records every failure.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.get_int("LOGIN_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env.get_int("LOGIN_COOLOFF_MINUTES", default=15, minimum=1))
# One username from one address is locked out: failures from elsewhere cannot lock a player
# out of their own account, and the per-address login throttle caps guessing across names.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# E-mail verification, password reset and sign-in with Apple and Google (read in
# config/account_env.py). Django's reset secrets expire after PASSWORD_RESET_TIMEOUT seconds.
ACCOUNT_EMAIL = account_env.email_settings()
PASSWORD_RESET_TIMEOUT = 60 * env.get_int("PASSWORD_RESET_MINUTES", default=30, minimum=1)
SIGN_IN_PROVIDERS = account_env.provider_settings()
CHAT = chat_env.chat_settings()  # posting rates and notices (config/chat_env.py)

REDIS_URL = env.get_redis_url("REDIS_URL")
CACHES: dict[str, dict[str, Any]] = stores.caches(REDIS_URL, VAR_DIR)

# Celery reads every CELERY_* setting below (see ttr_service/celery.py).
CELERY_BROKER_URL, _transport, CELERY_BROKER_TRANSPORT_OPTIONS = stores.broker(REDIS_URL, VAR_DIR)
if _transport is not None:
    CELERY_BROKER_TRANSPORT = _transport
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing retries a broker blip briefly, then gives up: a request that queues work must
# not hang while the broker is down (the sweeps queue that work again; see tasking.py).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
# Delivery is at least once: a task is acknowledged only after it ran, and comes back if
# the worker process dies, so every task must be safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# With late acknowledgement a prefetched message waits unacknowledged behind a long task.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"
# Periodic sweeps (Celery beat). Each app adds its own entries; every task is idempotent,
# so a sweep that runs twice, or late, changes nothing twice.
DEADLINE_SWEEP_SECONDS = env.get_int("DEADLINE_SWEEP_SECONDS", default=30, minimum=1)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {}


def _every(seconds: float, task: str) -> None:
    """A beat entry: ``task`` every ``seconds``, under the task's own name."""
    CELERY_BEAT_SCHEDULE[task.replace(".tasks.", "-").replace("_", "-")] = {
        "task": task,
        "schedule": float(seconds),
    }


_every(DEADLINE_SWEEP_SECONDS, "games.tasks.sweep_deadlines")
_every(300.0, "ratings.tasks.record_missing_results")
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# Quick match (matchmaking/): how long a seek waits before it expires, how often the beat
# pairs what the seeks' own tasks left waiting, how fast a rating window widens, and how many
# waiting seeks one pairing run locks at most.
SEEK_EXPIRY_MINUTES = env.get_int("SEEK_EXPIRY_MINUTES", default=10, minimum=1)
MATCHMAKING_SWEEP_SECONDS = env.get_int("MATCHMAKING_SWEEP_SECONDS", default=2, minimum=1)
MATCHMAKING_WIDEN_POINTS = env.get_int("MATCHMAKING_WIDEN_POINTS", default=50, minimum=0)
MATCHMAKING_WIDEN_SECONDS = env.get_int("MATCHMAKING_WIDEN_SECONDS", default=30, minimum=1)
MATCHMAKING_BATCH = env.get_int("MATCHMAKING_BATCH", default=500, minimum=2)
_every(MATCHMAKING_SWEEP_SECONDS, "matchmaking.tasks.pair_seeks")

# How long before a deadline players are warned (seconds, comma-separated).
DEADLINE_WARNINGS_SECONDS = env.get_seconds_list("DEADLINE_WARNINGS", ["86400", "3600"])
# Days a player may stop their clocks each calendar year.
VACATION_DAYS_PER_YEAR = env.get_int("VACATION_DAYS_PER_YEAR", default=14)
# Pause between two moves of an AI seat, so people watching can follow the game.
AI_MOVE_DELAY_SECONDS = env.get_int("AI_MOVE_DELAY_MS", default=0) / 1000
# Think time of one decision, per level that takes one: the hard bot's look-ahead stops
# drawing samples once it is spent (docs/ai.md). bench/ai.py --budget measures what it buys.
AI_THINK_SECONDS = {"hard": env.get_int("AI_THINK_MS_HARD", default=1000, minimum=0) / 1000}
# How long a rendered game view stays cached (games/rendered.py); a newer one replaces it.
GAME_VIEW_CACHE_SECONDS = env.get_int("GAME_VIEW_CACHE_SECONDS", default=3600, minimum=1)
# Views each process also keeps in memory, the most recently used (a few KB each).
GAME_VIEW_LOCAL_ENTRIES = env.get_int("GAME_VIEW_LOCAL_ENTRIES", default=2000, minimum=0)
# The deadline sweep re-queues an AI turn whose game has not changed for this long (its
# message was lost with the broker, or its worker died).
AI_STUCK_SECONDS = env.get_int("AI_STUCK_SECONDS", default=60, minimum=1)
# How long a move's Idempotency-Key is remembered (its answer replayed); the deadline
# sweep forgets older keys, and a key sent again after that is a new request.
IDEMPOTENCY_KEY_HOURS = env.get_int("IDEMPOTENCY_KEY_HOURS", default=24, minimum=1)
# Unfinished games of AI seats only that one user may hold (each keeps a worker busy until
# it ends); 0 refuses them all.
MAX_BOT_ONLY_GAMES_PER_USER = env.get_int("MAX_BOT_ONLY_GAMES_PER_USER", default=3, minimum=0)

# Friends (accounts/relations.py): the friends one player may have, and the friend requests
# they may have sent and still waiting for an answer.
MAX_FRIENDS_PER_USER = env.get_int("MAX_FRIENDS_PER_USER", default=500, minimum=1)
MAX_PENDING_FRIEND_REQUESTS = env.get_int("MAX_PENDING_FRIEND_REQUESTS", default=50, minimum=1)

# Notifications (notifications/): delivery of the outbox over webhooks, email and push.
NOTIFICATIONS_MAX_ATTEMPTS = env.get_int("NOTIFICATIONS_MAX_ATTEMPTS", default=8, minimum=1)
NOTIFICATIONS_RETRY_BASE_SECONDS = env.get_int(
    "NOTIFICATIONS_RETRY_BASE_SECONDS", default=30, minimum=1
)
NOTIFICATIONS_RETRY_CAP_SECONDS = env.get_int(
    "NOTIFICATIONS_RETRY_CAP_SECONDS", default=6 * 3600, minimum=1
)
NOTIFICATIONS_LEASE_SECONDS = env.get_int("NOTIFICATIONS_LEASE_SECONDS", default=300, minimum=10)
NOTIFICATIONS_SWEEP_SECONDS = env.get_int("NOTIFICATIONS_SWEEP_SECONDS", default=30, minimum=1)
WEBHOOK_TIMEOUT_SECONDS = env.get_int("WEBHOOK_TIMEOUT_SECONDS", default=5, minimum=1)
# A webhook URL whose host is (or resolves to) a private, loopback or link-local address
# is refused, at registration and again at each delivery, unless this is on.
WEBHOOK_ALLOW_PRIVATE = env.get_bool("WEBHOOK_ALLOW_PRIVATE", default=DEBUG)
# Delivered and failed outbox rows older than this are deleted by the beat.
NOTIFICATIONS_RETENTION_DAYS = env.get_int("NOTIFICATIONS_RETENTION_DAYS", default=30, minimum=1)
_push_transport = env.get_str("PUSH_TRANSPORT") or "logging"
_push_native = push_env.native_platforms(_push_transport)
PUSH_TRANSPORT = (
    ",".join(_push_native)
    if _push_native
    else env.get_dotted_path(
        "PUSH_TRANSPORT", "logging", aliases=frozenset({"logging", "recording"})
    )
)
PUSH_TIMEOUT_SECONDS = env.get_int("PUSH_TIMEOUT_SECONDS", default=10, minimum=1)
_fcm = push_env.fcm_settings(chosen="fcm" in (_push_native or []))
FCM_CREDENTIALS_FILE: str | None = _fcm["FCM_CREDENTIALS_FILE"]
FCM_PROJECT_ID: str | None = _fcm["FCM_PROJECT_ID"]
_apns = push_env.apns_settings(chosen="apns" in (_push_native or []))
APNS_KEY_FILE: str | None = _apns["APNS_KEY_FILE"]
APNS_KEY_ID: str | None = _apns["APNS_KEY_ID"]
APNS_TEAM_ID: str | None = _apns["APNS_TEAM_ID"]
APNS_TOPIC: str | None = _apns["APNS_TOPIC"]
APNS_USE_SANDBOX: bool = _apns["APNS_USE_SANDBOX"]
EMAIL_BACKEND = env.get_dotted_path(
    "EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = env.get_str("EMAIL_HOST") or "localhost"
EMAIL_PORT = env.get_int("EMAIL_PORT", default=25, minimum=1)
EMAIL_HOST_USER = env.get_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env.get_str("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env.get_bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = 10  # seconds; an SMTP server that hangs must not hold a worker
DEFAULT_FROM_EMAIL = env.get_str("DEFAULT_FROM_EMAIL") or "ttr@localhost"
_every(NOTIFICATIONS_SWEEP_SECONDS, "notifications.tasks.sweep_outbox")
_every(3600.0, "notifications.tasks.prune_outbox")
# Deadline warnings (DEADLINE_WARNINGS), looked for as often as deadlines are swept.
_every(DEADLINE_SWEEP_SECONDS, "notifications.tasks.warn_deadlines")

# Account deletion and data export (privacy/). A deleted account is erased after this many
# hours (0: at once); signing in again meanwhile cancels the deletion.
ACCOUNT_DELETION_GRACE_HOURS = env.get_int("ACCOUNT_DELETION_GRACE_HOURS", default=0, minimum=0)
# How often the beat erases the accounts whose grace ended and expires old exports.
PRIVACY_SWEEP_SECONDS = env.get_int("PRIVACY_SWEEP_SECONDS", default=60, minimum=1)
# A data export may be downloaded (once) for this many hours after it is ready.
DATA_EXPORT_HOURS = env.get_int("DATA_EXPORT_HOURS", default=24, minimum=1)
# At most one data export asked for per this many minutes per account.
DATA_EXPORT_INTERVAL_MINUTES = env.get_int("DATA_EXPORT_INTERVAL_MINUTES", default=60, minimum=0)
_every(PRIVACY_SWEEP_SECONDS, "privacy.tasks.sweep")

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_VERSIONING_CLASS": "rest_framework.versioning.NamespaceVersioning",
    "DEFAULT_VERSION": "v1",
    "ALLOWED_VERSIONS": ["v1"],
    # Knox tokens (`Authorization: Token <key>`); an endpoint that does not open itself up
    # explicitly needs one.
    "DEFAULT_AUTHENTICATION_CLASSES": ["accounts.authentication.TokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Counters live in the default cache: Redis when REDIS_URL is set, else per process.
    "DEFAULT_THROTTLE_CLASSES": [
        "ttr_service.http.throttling.AnonRateThrottle",
        "ttr_service.http.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.get_rate("THROTTLE_ANON_RATE", "300/min"),
        "user": env.get_rate("THROTTLE_USER_RATE", "1200/min"),
        "login": env.get_rate("THROTTLE_LOGIN_RATE", "10/min"),
        "score": env.get_rate("THROTTLE_SCORE_RATE", "60/min"),
    },
    # Without a count DRF would key anonymous clients on the whole X-Forwarded-For header,
    # which a client can set to anything to escape the login throttle.
    "NUM_PROXIES": env.get_int("NUM_PROXIES", default=0),
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "ttr_service.http.problems.problem_exception_handler",
}

SPECTACULAR_SETTINGS: dict[str, Any] = schema.spectacular(SERVICE_VERSION)

LANGUAGE_CODE, LANGUAGES, LOCALE_PATHS = languages.settings()
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# WhiteNoise warns at every start while the folder `collectstatic` fills does not exist.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# The hardening below applies only with DEBUG off, but its variables are read either way so
# a bad value fails on a development machine too.
_ssl_redirect = env.get_bool("SECURE_SSL_REDIRECT", default=True)
_hsts_seconds = env.get_int("SECURE_HSTS_SECONDS", default=31_536_000)
_hsts_subdomains = env.get_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
_hsts_preload = env.get_bool("SECURE_HSTS_PRELOAD", default=False)
_trust_forwarded_proto = env.get_bool("TRUST_X_FORWARDED_PROTO", default=False)

if not DEBUG:
    SECURE_SSL_REDIRECT = _ssl_redirect
    # Load balancers probe over plain HTTP and do not follow redirects.
    SECURE_REDIRECT_EXEMPT = [r"^api/v1/health(/live)?$", r"^metrics$"]
    SECURE_HSTS_SECONDS = _hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _hsts_subdomains
    SECURE_HSTS_PRELOAD = _hsts_preload
    if _trust_forwarded_proto:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

# Operations (ops/): worker heartbeats and what the health check asks of them; the log
# format and the metrics (LOG_FORMAT, METRICS_*: config/observability.py).
LOGGING, METRICS = logging_settings(DEBUG), metrics_settings(VAR_DIR)
# How often each Celery worker records that it is alive (a thread in the worker process).
WORKER_HEARTBEAT_SECONDS = env.get_int("WORKER_HEARTBEAT_SECONDS", default=10, minimum=1)
# /api/v1/health answers 503 when no worker's heartbeat is younger than this...
HEALTH_WORKER_MAX_AGE_SECONDS = env.get_int("HEALTH_WORKER_MAX_AGE_SECONDS", default=60, minimum=1)
# ...or when the deadline sweep last ran longer ago than this: three sweeps and a margin.
HEALTH_BEAT_MAX_AGE_SECONDS = env.get_int(
    "HEALTH_BEAT_MAX_AGE_SECONDS", default=3 * DEADLINE_SWEEP_SECONDS + 30, minimum=1
)
# false: the workers and the beat are reported but only the database and the broker decide
# the answer (a probe meant for the web process alone).
HEALTH_REQUIRE_WORKERS = env.get_bool("HEALTH_REQUIRE_WORKERS", default=True)
if HEALTH_WORKER_MAX_AGE_SECONDS <= WORKER_HEARTBEAT_SECONDS:
    raise ImproperlyConfigured(
        "Environment variable HEALTH_WORKER_MAX_AGE_SECONDS: must be more than "
        f"WORKER_HEARTBEAT_SECONDS ({WORKER_HEARTBEAT_SECONDS}); got "
        f"{HEALTH_WORKER_MAX_AGE_SECONDS}"
    )
if HEALTH_BEAT_MAX_AGE_SECONDS <= DEADLINE_SWEEP_SECONDS:
    raise ImproperlyConfigured(
        "Environment variable HEALTH_BEAT_MAX_AGE_SECONDS: must be more than "
        f"DEADLINE_SWEEP_SECONDS ({DEADLINE_SWEEP_SECONDS}); got {HEALTH_BEAT_MAX_AGE_SECONDS}"
    )
# Event streams (ttr_service/streams/): the game's move log and each user's notices as
# Server-Sent Events.
# A comment line this often on an idle stream, so proxies keep it open.
STREAM_HEARTBEAT_SECONDS = env.get_int("STREAM_HEARTBEAT_SECONDS", default=15, minimum=1)
# Without Redis, each web process looks for new events in the database this often (ms);
# with Redis, pub/sub wakes the streams and the database is looked at once a heartbeat in
# case a message was lost, and at this rate while the subscription is down.
STREAM_POLL_SECONDS = env.get_int("STREAM_POLL_MS", default=500, minimum=10) / 1000
# A stream is closed after this long; the client reconnects (a new ticket, the last id).
STREAM_MAX_SECONDS = env.get_int("STREAM_MAX_SECONDS", default=3600, minimum=1)
# How long a stream ticket (POST /api/v1/stream-tickets) may be used to open a stream.
STREAM_TICKET_SECONDS = env.get_int("STREAM_TICKET_SECONDS", default=60, minimum=1)
# Threads of each web process that read streams' events from the database (each keeps one
# connection).
STREAM_DB_THREADS = env.get_int("STREAM_DB_THREADS", default=4, minimum=1)
# Under ASGI, the threads that run each web process's synchronous views, each keeping its
# own database connection (ttr_service/serving.py).
WEB_THREADS = env.get_int("WEB_THREADS", default=4, minimum=1)
# Streams take a stream ticket in the URL (browsers' EventSource sends no header) or the
# token in the Authorization header; no other endpoint reads a ticket.
STREAM_AUTHENTICATION_CLASSES = [
    "accounts.stream_tickets.StreamTicketAuthentication",
    "accounts.authentication.TokenAuthentication",
]
