"""Ratings pages: public, no login; they show the last computed state, never compute."""

from django.http import Http404
from django.shortcuts import render

from leagues.models import Game
from scoring.ratings import selectors as rating_selectors
from scoring.ratings.replay import MODEL_NAME


def ratings_index(request):
    tables = [(label, rating_selectors.ratings_table(game=game)) for game, label in Game.choices]
    return render(
        request,
        "scoring/ratings/index.html",
        {
            "tables": tables,
            "model_name": MODEL_NAME,
            "min_games": rating_selectors.MIN_GAMES_LISTED,
        },
    )


def ratings_table(request, game: str):
    if game not in Game.values:
        raise Http404("No such game")
    return render(
        request,
        "scoring/ratings/table.html",
        {"table": rating_selectors.ratings_table(game=game), "label": Game(game).label},
    )
