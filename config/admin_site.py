"""The admin site: Django's, with object ids in admin addresses read as ASCII whole numbers.

Django's admin reads the id in /admin/<app>/<model>/<id>/… with the primary key field's
to_python(), which takes any Unicode digits ("٣" opens object 3) and lets "abc" or "1.5"
reach views that do not expect them (simple-history's history view answers 500). Every
ModelAdmin registered on this site gets WholeNumberIdsAdminMixin, so a model with an integer
key has ids of ASCII digits within the database's range, and anything else is "no such
object": 404 for a history view, Django's usual redirect with a message for the others.
"""

import re

from django.contrib.admin import AdminSite, ModelAdmin
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.utils import unquote
from django.db import connection, models
from django.http import Http404
from django.utils.translation import gettext as _

ASCII_DIGITS = re.compile(r"[0-9]+")


def is_usable_id(model, object_id: str) -> bool:
    """Whether object_id can name a row of model: for an integer key, ASCII digits in range."""
    key = model._meta.pk
    if not isinstance(key, models.IntegerField | models.AutoField):
        return True
    text = unquote(str(object_id))
    if not ASCII_DIGITS.fullmatch(text):
        return False
    low, high = connection.ops.integer_field_range(key.get_internal_type())
    return (low is None or int(text) >= low) and (high is None or int(text) <= high)


class WholeNumberIdsAdminMixin:
    def get_object(self, request, object_id, from_field=None):
        if from_field is None and not is_usable_id(self.model, object_id):
            return None
        return super().get_object(request, object_id, from_field)

    def history_view(self, request, object_id, extra_context=None):
        if not is_usable_id(self.model, object_id):
            raise Http404(
                _("No %(thing)s with that id.") % {"thing": self.model._meta.verbose_name}
            )
        return super().history_view(request, object_id, extra_context)


class RoundelAdminSite(AdminSite):
    def register(self, model_or_iterable, admin_class=None, **options):
        admin_class = admin_class or ModelAdmin
        if not issubclass(admin_class, WholeNumberIdsAdminMixin):
            admin_class = type(
                admin_class.__name__,
                (WholeNumberIdsAdminMixin, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)


class RoundelAdminConfig(AdminConfig):
    """Listed in INSTALLED_APPS instead of django.contrib.admin, to make the site above the
    default one (the one @admin.register and admin.site use)."""

    default_site = "config.admin_site.RoundelAdminSite"
