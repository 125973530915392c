from django.urls import path

from . import views

urlpatterns = [path("", views.shell, name="web-shell")]
