"""Staff's one cup page action: the decider of a drawn tie, posted from the fixture's page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import DomainError, Forbidden, refusal_sentence
from leagues.models import CupTie
from scoring.cups.services import cup_tie_decider_record


@login_required
@require_POST
def tie_decider(request, pk: int):
    """Record who won a drawn tie's decider; back to the fixture's page with the outcome."""
    tie = get_object_or_404(CupTie.objects.select_related("fixture"), pk=pk)
    back = redirect("fixture-detail", tie.fixture_id) if tie.fixture_id else redirect("home")
    try:
        tie = cup_tie_decider_record(
            tie_id=tie.pk,
            side=request.POST.get("side", ""),
            note=request.POST.get("note", ""),
            by=request.user,
        )
    except Forbidden as refusal:
        raise PermissionDenied(refusal.detail) from None
    except DomainError as refusal:
        messages.error(request, refusal_sentence(refusal))
        return back
    messages.success(request, _("%(team)s go through to the next round.") % {"team": tie.winner})
    return back
