"""Public league pages: no login. Pages that show results are scoring's (scoring/pages.py)."""

from django.shortcuts import render

from config.page_cache import public_page

from . import selectors


@public_page
def league_detail(request, slug):
    league = selectors.league_get(slug=slug)
    return render(request, "leagues/league_detail.html", {"league": league})
