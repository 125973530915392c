"""DRF's own messages that the API answers with (and one of Django's), listed so that
``makemessages`` puts them in ttr_service's catalogue (``ttr_service/locale``, in
``LOCALE_PATHS``, whose entries win over those of the installed apps).

DRF's catalogues for Greek and Russian are nearly complete, but its Vietnamese one holds
about twenty of its messages, and Django's Greek and Vietnamese ones lack the plural
message of a password that is too short: without these, a field error would come back in
English in an answer whose ``Content-Language`` says ``vi``. Nothing imports this module;
the words are DRF's and Django's, character for character (their placeholders are filled
by them).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, ngettext_lazy

FIELD_ERRORS = (
    gettext_noop("This field is required."),
    gettext_noop("This field may not be null."),
    gettext_noop("This field may not be blank."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("This value does not match the required pattern."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Must be a valid UUID."),
    gettext_noop("A valid integer is required."),
    gettext_noop("A valid number is required."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("String value too large."),
    gettext_noop('"{input}" is not a valid choice.'),
    gettext_noop('Expected a list of items but got type "{input_type}".'),
    gettext_noop('Expected a dictionary of items but got type "{input_type}".'),
    gettext_noop("This list may not be empty."),
    gettext_noop("This selection may not be empty."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("Invalid data. Expected a dictionary, but got {datatype}."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Time has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Expected a datetime but got a date."),
    gettext_noop("Value must be valid JSON."),
)

REFUSALS = (
    gettext_noop("A server error occurred."),
    gettext_noop("Invalid input."),
    gettext_noop("Malformed request."),
    gettext_noop("Incorrect authentication credentials."),
    gettext_noop("Authentication credentials were not provided."),
    gettext_noop("You do not have permission to perform this action."),
    gettext_noop("Not found."),
    gettext_noop('Method "{method}" not allowed.'),
    gettext_noop("Could not satisfy the request Accept header."),
    gettext_noop('Unsupported media type "{media_type}" in request.'),
    gettext_noop("Request was throttled."),
    gettext_noop("Invalid page."),
    gettext_noop("Invalid cursor"),
    gettext_noop("User inactive or deleted."),
)

# DRF translates each of the two, fills in {wait}, then picks one by English's rule (1 or
# not 1); the translations avoid the plural forms of other languages.
THROTTLE_WAIT = (
    gettext_noop("Expected available in {wait} second."),
    gettext_noop("Expected available in {wait} seconds."),
)

# Django's MinimumLengthValidator (a row PASSWORD_TOO_SHORT).
PASSWORD_TOO_SHORT = ngettext_lazy(
    "This password is too short. It must contain at least %d character.",
    "This password is too short. It must contain at least %d characters.",
    8,
)
