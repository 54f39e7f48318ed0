"""Addresses of the Django admin's pages, for the admin tests."""

from django.urls import reverse


def change_url(obj):
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
