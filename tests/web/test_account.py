"""The account settings page: the e-mail address verified with the code sent to it, the
password changed and used, the linked identities, and the sections shown only where the
server has their operations."""

from __future__ import annotations

import gzip
import json

import pytest
from django.contrib.auth import get_user_model

from accounts.models import AuthToken, ProviderIdentity
from accounts.services import token_issue

from .pages import (
    PASSWORD,
    PHONE,
    TIMEOUT_MS,
    fits_the_width,
    make_user,
    open_as,
    unlabelled_controls,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("_fast_passwords")]

NEW_PASSWORD = "another-Long-passphrase-77"


def test_an_email_is_set_and_verified_with_the_code_sent_to_it(
    browser, web_server, mail, artifacts
):
    ada = make_user("ada")
    page = open_as(browser, web_server.url, ada, "#/")
    page.click("#nav-account")
    page.wait_for_selector(".account[data-ready]", timeout=TIMEOUT_MS)
    assert "No e-mail address" in page.inner_text("#email-status")
    assert unlabelled_controls(page) == []

    page.fill("#new-email", "ada@example.org")
    page.click("#save-email")
    page.wait_for_selector("#email-pending", timeout=TIMEOUT_MS)
    code = mail.last_to("ada@example.org").code()

    # A second code so soon is refused by the throttle, which says so by the button.
    page.click("#resend-email")
    page.wait_for_selector("#email-code-problem:not([hidden])", timeout=TIMEOUT_MS)
    assert page.get_attribute("#email-code-problem", "data-code") == "EMAIL_THROTTLED"
    assert page.inner_text("#email-code-problem").strip()
    assert page.is_enabled("#resend-email") and page.is_enabled("#verify-email")

    # A wrong code is refused with the tries left; the right one verifies the address.
    page.fill("#email-code", f"{(int(code) + 1) % 10**6:06d}")
    page.click("#verify-email")
    page.wait_for_selector("#email-code-problem[data-code=EMAIL_CODE_INVALID]", timeout=TIMEOUT_MS)
    assert "tries left" in page.inner_text("#email-code-problem")
    page.fill("#email-code", code)
    page.keyboard.press("Enter")
    page.wait_for_selector("#email-status .badge.verified", timeout=TIMEOUT_MS)
    assert "ada@example.org" in page.inner_text("#email-status")
    assert page.locator("#email-pending").count() == 0
    page.screenshot(path=str(artifacts / "desktop-account.png"))
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"


def test_the_password_is_changed_and_the_new_one_signs_in(browser, web_server):
    ada = make_user("ada")
    token_issue(ada, name="phone")
    page = open_as(browser, web_server.url, ada, "#/account")
    page.wait_for_selector("#password-form", timeout=TIMEOUT_MS)

    page.fill("#current-password", "not-the-password-1")
    page.fill("#new-password", NEW_PASSWORD)
    page.click("#change-password")
    page.wait_for_selector(
        "#password-problem[data-code=CURRENT_PASSWORD_WRONG]", timeout=TIMEOUT_MS
    )
    assert page.is_enabled("#change-password")

    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", NEW_PASSWORD)
    page.check("#revoke-others")
    page.click("#change-password")
    page.wait_for_selector("#password-done:has-text('Password changed')", timeout=TIMEOUT_MS)
    assert "1 other sign-in signed out" in page.inner_text("#password-done")
    assert page.locator("#password-problem").is_hidden()
    # The page's own token still works; the phone's does not.
    assert list(AuthToken.objects.filter(user=ada).values_list("name", flat=True)) == ["e2e"]

    page.click("#logout")
    page.wait_for_selector("#login", timeout=TIMEOUT_MS)
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", PASSWORD)
    page.click("#login")
    page.wait_for_selector("#error:not([hidden])", timeout=TIMEOUT_MS)
    assert page.get_attribute("#error", "data-code") == "INVALID_CREDENTIALS"
    page.fill("input[name=password]", NEW_PASSWORD)
    page.click("#login")
    page.wait_for_selector("#create-game", timeout=TIMEOUT_MS)


def test_a_linked_identity_is_listed_and_unlinked(browser, web_server):
    ada = make_user("ada")
    ProviderIdentity.objects.create(
        user=ada, provider="google", subject="g-1", email="ada@gmail.example", email_verified=True
    )
    page = open_as(browser, web_server.url, ada, "#/account")
    page.wait_for_selector("#identities li[data-provider=google]", timeout=TIMEOUT_MS)
    assert "ada@gmail.example" in page.inner_text("#identities")
    page.click("#identities button[aria-label='Unlink Google']")
    page.wait_for_selector("#identities li.muted", timeout=TIMEOUT_MS)
    assert not ProviderIdentity.objects.filter(user=ada).exists()


def test_an_account_without_a_password_is_told_how_to_set_one(browser, web_server):
    ada = make_user("ada")
    ada.set_unusable_password()
    ada.save()
    page = open_as(browser, web_server.url, ada, "#/account")
    page.wait_for_selector("#password-section p.muted", timeout=TIMEOUT_MS)
    assert page.locator("#password-form").count() == 0


def test_the_account_page_fits_a_phone(browser, web_server, artifacts):
    ada = make_user("ada")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = open_as(browser, web_server.url, ada, "#/account", context=context)
    page.wait_for_selector(".account[data-ready]", timeout=TIMEOUT_MS)
    assert page.locator("#export-section").is_visible()
    assert page.locator("#delete-section").count() == 1
    assert page.is_visible("#nav-account") and page.is_visible("#nav-friends")
    assert page.is_visible("#logout")
    assert fits_the_width(page)
    assert unlabelled_controls(page) == []
    page.screenshot(path=str(artifacts / "phone-account.png"), full_page=True)


def test_deleting_the_account_asks_for_the_name_and_signs_out(browser, web_server):
    ada = make_user("ada")
    page = open_as(browser, web_server.url, ada, "#/account")
    page.wait_for_selector("#delete-section", timeout=TIMEOUT_MS)
    page.fill("#delete-password", PASSWORD)
    page.fill("#delete-confirm", "ad")
    assert not page.is_enabled("#delete-account")
    page.fill("#delete-confirm", "ada")
    page.click("#delete-account")
    page.wait_for_selector("#notice", timeout=TIMEOUT_MS)
    assert "deleted" in page.inner_text("#notice")
    assert page.evaluate("() => localStorage.getItem('ttr.token')") is None
    assert page.is_visible("#login")


def test_an_export_is_asked_for_downloaded_once_and_then_shown_downloaded(
    browser, web_server, tmp_path
):
    ada = make_user("ada")
    page = open_as(browser, web_server.url, ada, "#/account")
    page.wait_for_selector("#export-section:not([hidden])", timeout=TIMEOUT_MS)
    page.click("#request-export")
    # The worker's build runs inline here, so the export is ready at the next read.
    page.wait_for_selector("#exports li[data-status=ready] a.download", timeout=TIMEOUT_MS)
    with page.expect_download(timeout=TIMEOUT_MS) as caught:
        page.click("#exports li[data-status=ready] a.download")
    saved = tmp_path / "export"
    caught.value.save_as(saved)
    archive = json.loads(
        gzip.decompress(body) if (body := saved.read_bytes())[:2] == b"\x1f\x8b" else body
    )
    assert archive["profile"]["username"] == "ada"
    page.wait_for_selector("#exports li[data-status=downloaded]", timeout=TIMEOUT_MS)
    assert page.locator("#exports a.download").count() == 0
    assert get_user_model().objects.filter(username="ada").exists()
