"""Routes under /api/v1/auth/."""

from django.urls import path, register_converter

from accounts import email_views, me_views, password_views, provider_views, views
from accounts.models import Provider


class ProviderConverter:
    """A provider's name in a path: `apple` or `google`."""

    regex = "|".join(Provider.values)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ProviderConverter, "provider")

urlpatterns = [
    path("register", views.RegisterView.as_view(), name="auth-register"),
    path("login", views.LoginView.as_view(), name="auth-login"),
    path("logout", views.LogoutView.as_view(), name="auth-logout"),
    path("me", me_views.MeView.as_view(), name="auth-me"),
    path("tokens", views.TokensView.as_view(), name="auth-tokens"),
    path("tokens/<int:token_id>", views.TokenDetailView.as_view(), name="auth-token"),
    path("email", email_views.EmailView.as_view(), name="auth-email"),
    path("email/verify", email_views.EmailVerifyView.as_view(), name="auth-email-verify"),
    path("email/resend", email_views.EmailResendView.as_view(), name="auth-email-resend"),
    path("password", password_views.PasswordView.as_view(), name="auth-password"),
    path("password/reset", password_views.PasswordResetView.as_view(), name="auth-password-reset"),
    path(
        "password/reset/confirm",
        password_views.PasswordResetConfirmView.as_view(),
        name="auth-password-reset-confirm",
    ),
    path(
        "providers/<provider:provider>",
        provider_views.ProviderSignInView.as_view(),
        name="auth-provider-sign-in",
    ),
    path("identities", provider_views.IdentitiesView.as_view(), name="auth-identities"),
    path(
        "identities/<int:identity_id>",
        provider_views.IdentityDetailView.as_view(),
        name="auth-identity",
    ),
]
