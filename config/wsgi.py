import os

from django.core.wsgi import get_wsgi_application

from config.heap import startup_heap_freeze

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
startup_heap_freeze()
