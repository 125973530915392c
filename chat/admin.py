"""The moderators' queue in Django's admin (/admin/): the open reports, and two actions on
them, "hide the message" and "suspend the sender's chat"."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ChatReport, ChatSuspension, Message
from .moderation import messages_hide, senders_suspend

# The admin's classes take their model as a type parameter for the type checker only.
if TYPE_CHECKING:
    ReportAdminBase = admin.ModelAdmin[ChatReport]
    MessageAdminBase = admin.ModelAdmin[Message]
    SuspensionAdminBase = admin.ModelAdmin[ChatSuspension]
else:
    ReportAdminBase = MessageAdminBase = SuspensionAdminBase = admin.ModelAdmin


class OpenFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: object) -> list[tuple[str, str]]:
        return [("open", str(_("Open"))), ("resolved", str(_("Resolved")))]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[ChatReport]
    ) -> QuerySet[ChatReport]:
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(ReportAdminBase):
    list_display = ["id", "created_at", "reason", "reporter", "sender", "said", "hidden"]
    list_filter = [OpenFilter, "reason"]
    list_select_related = ["reporter", "message__sender"]
    ordering = ["resolved_at", "-id"]
    readonly_fields = ["message", "reporter", "reason", "note", "created_at"]
    actions = ["hide_message", "suspend_sender"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatReport]:
        return super().get_queryset(request).select_related("message__sender", "reporter")

    @admin.display(description=_("sender"))
    def sender(self, report: ChatReport) -> str:
        return report.message.sender.get_username()

    @admin.display(description=_("message"))
    def said(self, report: ChatReport) -> str:
        return report.message.text or report.message.quick

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, report: ChatReport) -> bool:
        return report.message.hidden

    @admin.action(description=_("Hide the message"))
    def hide_message(self, request: HttpRequest, reports: QuerySet[ChatReport]) -> None:
        count = messages_hide(r.message for r in reports)
        text = ngettext("%(count)d message hidden.", "%(count)d messages hidden.", count)
        self.message_user(request, text % {"count": count}, messages.SUCCESS)

    @admin.action(description=_("Suspend the sender's chat"))
    def suspend_sender(self, request: HttpRequest, reports: QuerySet[ChatReport]) -> None:
        count = senders_suspend((r.message for r in reports), None, "reported")
        text = ngettext("%(count)d player suspended.", "%(count)d players suspended.", count)
        self.message_user(request, text % {"count": count}, messages.SUCCESS)


@admin.register(Message)
class MessageAdmin(MessageAdminBase):
    list_display = ["id", "game", "room", "sender", "text", "quick", "created_at", "hidden"]
    list_filter = ["room", "hidden"]
    list_select_related = ["sender"]
    raw_id_fields = ["game", "sender"]


@admin.register(ChatSuspension)
class ChatSuspensionAdmin(SuspensionAdminBase):
    list_display = ["user", "until", "reason", "created_at"]
    raw_id_fields = ["user"]
