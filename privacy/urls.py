"""Routes under /api/v1/account/: deleting the account, exporting its data."""

from django.urls import path

from privacy import views

urlpatterns = [
    path("account/deletion", views.AccountDeletionView.as_view(), name="account-deletion"),
    path("account/exports", views.ExportListView.as_view(), name="account-exports"),
    path(
        "account/exports/<int:export_id>",
        views.ExportDetailView.as_view(),
        name="account-export",
    ),
    path(
        "account/exports/<int:export_id>/download",
        views.ExportDownloadView.as_view(),
        name="account-export-download",
    ),
]
