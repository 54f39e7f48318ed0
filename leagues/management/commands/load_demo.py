"""Load the demo league used by `make run`; running it again changes nothing."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

DEMO_ADMIN = ("admin", "roundel-admin")


class Command(BaseCommand):
    help = "Load the demo data set (idempotent) and print the demo logins."

    @transaction.atomic
    def handle(self, *args, **options):
        user_model = get_user_model()
        username, password = DEMO_ADMIN
        if not user_model.objects.filter(username=username).exists():
            user_model.objects.create_superuser(username, "admin@example.com", password)
        self.stdout.write(f"Demo admin: {username} / {password}  (http://127.0.0.1:8000/admin/)")
