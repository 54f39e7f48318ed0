"""Match night's writes: sending the notices that are due (docs/match-night.md, "Notices").

One email per event per person: each notice's NoticeSent row is written in the same
transaction as the email goes out, under the row's unique constraint, so two senders running
at once (a worker's task and beat's) send it once, and an email that fails to go is tried
again on the next run.
"""

import datetime
import logging
import smtplib

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.match_night.selectors import Notice, notice_address, notice_language, notices_pending
from scoring.models import NoticeSent

log = logging.getLogger(__name__)


def notices_send(*, site_url: str | None = None, now: datetime.datetime | None = None) -> int:
    """Send every notice that is due (at `now`, by default now); returns how many went out."""
    base = (site_url or settings.SITE_URL).rstrip("/")
    sent = 0
    for notice in notices_pending(now=now):
        if _send_once(notice, base=base):
            sent += 1
    return sent


def _send_once(notice: Notice, *, base: str) -> bool:
    try:
        with transaction.atomic():
            NoticeSent.objects.create(user_id=notice.user.pk, event=notice.event)
            page = base + reverse("fixture-detail", args=[notice.fixture_id])
            settings_page = base + reverse("needs-you")
            with translation.override(notice_language(notice.user)):
                body = "\n\n".join(
                    [
                        notice.body,
                        page,
                        _("Everything that waits for you: %(url)s") % {"url": settings_page},
                        _("You can turn these emails off on that page."),
                    ]
                )
            send_mail(notice.subject, body, None, [notice_address(notice.user)])
    except IntegrityError:  # another sender wrote the row first: it sends this notice
        return False
    except (smtplib.SMTPException, OSError):  # the row went with it: the next run tries again
        log.warning("Could not send the notice %s to user %s.", notice.event, notice.user.pk)
        return False
    return True
