from django.urls import path

from . import views

urlpatterns = [
    path("", views.shell, name="web-shell"),
    path("web/i18n/<str:lang>.json", views.catalogue, name="web-catalogue"),
]
