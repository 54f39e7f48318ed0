"""Public league pages: no login. Pages that show results are scoring's (scoring/pages.py)."""

from django.http import Http404
from django.shortcuts import render

from config.page_cache import public_page

from . import selectors
from .models import League


@public_page
def league_detail(request, slug):
    try:
        league = selectors.league_get(slug=slug)
    except League.DoesNotExist:
        raise Http404("Not found")
    return render(request, "leagues/league_detail.html", {"league": league})
