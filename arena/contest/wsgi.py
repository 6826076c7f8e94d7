"""The WSGI application gunicorn serves (``arena serve`` starts it)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.contest.settings")
application = get_wsgi_application()
