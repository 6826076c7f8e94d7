"""Django's settings, made from the contest folder (``ARENA_CONTEST``) and the database's address
(``ARENA_DATABASE``: a postgresql:// URL, or empty for SQLite inside the folder).

``arena serve`` sets both for the web processes and the runner; nothing here is edited by hand.
"""

from __future__ import annotations

import os
from pathlib import Path

from arena.contest.site import database_settings, secret_key

CONTEST = Path(os.environ.get("ARENA_CONTEST", ".")).absolute()
SECRET_KEY = secret_key(CONTEST)
DEBUG = False
ALLOWED_HOSTS = [host for host in os.environ.get("ARENA_HOSTS", "*").split(",") if host]
DATABASES = {"default": database_settings(CONTEST, os.environ.get("ARENA_DATABASE", ""))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "arena.contest",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "arena.contest.security.ContentSecurityPolicy",
]
ROOT_URLCONF = "arena.contest.urls"
WSGI_APPLICATION = "arena.contest.wsgi.application"
TEMPLATES = [
    {   # the contest's pages: Jinja2, autoescaped, as the arena's report and replay pages
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "arena.contest.site.jinja_environment"},
    },
    {   # Django's own admin site keeps Django's template language
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": [
            "django.template.context_processors.request",
            "django.contrib.auth.context_processors.auth",
            "django.contrib.messages.context_processors.messages",
        ]},
    },
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_TZ = True
STATIC_URL = "/static/"
WHITENOISE_USE_FINDERS = True  # the package's static files, with no collectstatic step
# Uploads go through memory, never a temporary file elsewhere; the view refuses what is over the contest's limit.
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 2**20
FILE_UPLOAD_MAX_MEMORY_SIZE = 64 * 2**20
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Behind a reverse proxy (README, "Running a contest"): ARENA_PROXY=1 takes a client's address from the
# proxy's X-Forwarded-For (the login limits count by it; else every client would be the proxy's one address).
# With TLS at the proxy, ARENA_HTTPS=1 implies it, marks the cookies secure and trusts its X-Forwarded-Proto.
BEHIND_PROXY = os.environ.get("ARENA_PROXY") == "1" or os.environ.get("ARENA_HTTPS") == "1"
if os.environ.get("ARENA_HTTPS") == "1":
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    CSRF_TRUSTED_ORIGINS = [origin for origin in os.environ.get("ARENA_ORIGINS", "").split(",") if origin]
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
