"""The content security policy of every page, and the address a request came from.

The site's own pages run no inline script and load nothing from elsewhere.  A game's replay page
(the arena's report pages, self-contained with their script inline) is served with a policy of its
own (``REPLAY_POLICY``): it runs in a sandbox of its own origin, so that even a script that got into
it could neither read the site's cookies nor act on the site.
"""

from __future__ import annotations

from django.conf import settings

SITE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
REPLAY_POLICY = ("sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; "
                 "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; "
                 "frame-ancestors 'none'")


class ContentSecurityPolicy:
    """Adds SITE_POLICY to every response that has no policy of its own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", SITE_POLICY)
        return response


def client_address(request) -> str:
    """Where ``request`` came from, for the login limits: the connection's peer; or, when the settings
    trust a reverse proxy in front (``ARENA_PROXY=1``, implied by ``ARENA_HTTPS=1``), the last address
    of X-Forwarded-For, the one that proxy wrote.  Without a trusted proxy the header is the client's
    own text and is ignored: rotating it must not buy a guesser more tries."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "").rsplit(",", 1)[-1].strip()
        if forwarded:
            return forwarded[:64]
    return request.META.get("REMOTE_ADDR", "")
