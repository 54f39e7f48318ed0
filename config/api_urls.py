"""The REST API's routes (owned by the API helper)."""

urlpatterns = []
