"""The client's address: one definition for the login lockout (django-axes) and the API throttles.

X-Forwarded-For is whatever the client sent, followed by one entry per proxy it passed: each
proxy appends the address it was connected from. Only the entries our own proxies wrote can be
trusted, so behind TRUSTED_PROXY_COUNT proxies the client is the Nth entry from the right (the
one the outermost proxy wrote); with no proxy the header is the client's word alone and is
ignored. Trusting more of it lets a guesser pick a fresh address for every request, or name a
victim's address and spend the victim's allowance.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import ScopedRateThrottle


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR without a trusted proxy; else the address the outermost trusted proxy saw."""
    connecting = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies == 0 or not forwarded:
        return connecting
    entries = [entry.strip() for entry in forwarded.split(",")]
    # Fewer entries than proxies: the request came in past the outer ones, and every entry it
    # has was written by a proxy of ours; the left-most is the nearest to the client.
    written_by_the_outermost = entries[-min(proxies, len(entries))]
    try:
        return str(ipaddress.ip_address(written_by_the_outermost))
    except ValueError:
        # A proxy of ours wrote something else than an address (a misconfiguration): the
        # connection's address keeps the lockout's records valid, at the cost of counting
        # everyone behind that proxy together.
        return connecting


class ClientAddressScopedRateThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, counting anonymous requests per client_address()."""

    def get_ident(self, request) -> str:
        return client_address(request._request)
