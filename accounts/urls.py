"""Routes under /api/v1/auth/."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("register", views.RegisterView.as_view(), name="auth-register"),
    path("login", views.LoginView.as_view(), name="auth-login"),
    path("logout", views.LogoutView.as_view(), name="auth-logout"),
    path("me", views.MeView.as_view(), name="auth-me"),
    path("tokens", views.TokensView.as_view(), name="auth-tokens"),
    path("tokens/<int:token_id>", views.TokenDetailView.as_view(), name="auth-token"),
]
