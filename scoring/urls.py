"""Staff result entry routes."""

urlpatterns = []
