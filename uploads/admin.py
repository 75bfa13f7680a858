"""Admin views of uploads and their items: what a file held and what became of each record."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from core.admin import ReadOnlyAdmin
from uploads.files import upload_file_read
from uploads.models import Upload, UploadItem


@admin.register(Upload)
class UploadAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "filename",
        "uploaded_by",
        "status",
        "total",
        "done",
        "failed",
        "duplicates",
        "created_at",
        "finished_at",
    )
    list_filter = ("status", "visibility", "created_at")
    search_fields = ("=id", "filename", "sha256", "uploaded_by__username")
    list_select_related = ("uploaded_by",)
    date_hierarchy = "created_at"


@admin.register(UploadItem)
class UploadItemAdmin(ReadOnlyAdmin):
    list_display = ("upload", "index", "label", "batch", "outcome", "game")
    list_filter = ("outcome",)
    search_fields = ("label", "=upload__id", "=game__id")
    exclude = ("text",)
    readonly_fields = ("record",)

    @admin.display(description="record")
    def record(self, item: UploadItem) -> str:
        """The record as uploaded: a line of JSON Lines is read from the upload's file."""
        if item.start is None or item.end is None:
            return item.text
        return upload_file_read(item.upload_id, item.start, item.end).decode("utf-8", "replace")

    def get_queryset(self, request: HttpRequest) -> QuerySet[UploadItem]:
        items = super().get_queryset(request).select_related("upload", "game")
        return items.defer("text")
