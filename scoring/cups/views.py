"""Staff's one cup page action: the decider of a drawn tie, posted from the fixture's page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import Conflict, Invalid
from config.page_errors import refusal_as_message
from leagues.models import CupTie
from scoring.cups.services import cup_tie_decider_record


@login_required
@require_POST
def tie_decider(request, pk: int):
    """Record who won a drawn tie's decider; back to the fixture's page with the outcome."""
    tie = get_object_or_404(CupTie.objects.select_related("fixture"), pk=pk)
    back = redirect("fixture-detail", tie.fixture_id) if tie.fixture_id else redirect("home")
    # Only refusals of what was sent or of the tie's state come back as a message; someone
    # who may not record a decider gets the 403 page (config.page_errors).
    with refusal_as_message(request, kinds=(Invalid, Conflict)) as refused:
        tie = cup_tie_decider_record(
            tie_id=tie.pk,
            side=request.POST.get("side", ""),
            note=request.POST.get("note", ""),
            by=request.user,
        )
    if refused:
        return back
    messages.success(request, _("%(team)s go through to the next round.") % {"team": tie.winner})
    return back
