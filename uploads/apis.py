"""Uploading files of records and following their progress: ``/api/uploads/``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.core.paginator import Page
from django.http import HttpRequest
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.exceptions import PayloadTooLarge
from core.openapi import FINDINGS, FindingSerializer, page_of, page_parameters, typed
from core.pagination import Pages
from core.requests import MULTIPART_OVERHEAD, account, size_check
from games.models import Visibility
from importers import FORMATS
from importers import SUFFIXES as IMPORT_SUFFIXES
from uploads.files import PART_SIZE
from uploads.models import ItemOutcome, Upload, UploadItem
from uploads.selectors import upload_get, upload_items, upload_list
from uploads.services import UploadReceiver, upload_queue, upload_receiving
from uploads.tasks import WORKERS

SUFFIXES = (".json", ".jsonl", ".zip")


class UploadSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    filename = serializers.CharField()
    size = serializers.IntegerField()
    visibility = serializers.CharField()
    status = serializers.CharField()
    total = serializers.IntegerField()
    done = serializers.IntegerField()
    failed = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_url(self, upload: Upload) -> str:
        return reverse("upload-detail", args=[upload.pk])


class UploadItemSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]
    outcome = serializers.CharField()
    game = serializers.IntegerField(source="game_id", allow_null=True)
    game_url = serializers.SerializerMethodField()
    verdict = serializers.CharField(
        allow_null=True, help_text="the stored game's verdict now; null without a game"
    )
    findings = typed(
        FindingSerializer(many=True),
        serializers.JSONField,
        help_text="a rejected or failed record's: why",
    )

    def get_game_url(self, item: UploadItem) -> str | None:
        return None if item.game_id is None else reverse("game-detail", args=[item.game_id])


class UploadsApi(APIView):
    """``GET`` lists the user's uploads; ``POST`` stores a file of records for the workers.

    Two operations share the URL, so this view holds both; each has its own serializers.
    """

    permission_classes = (IsAuthenticated,)
    parser_classes = (MultiPartParser,)
    throttle_scope = "upload"

    @extend_schema_serializer(component_name="UploadCreate")
    class InputSerializer(serializers.Serializer[Any]):
        file = serializers.FileField(allow_empty_file=True)
        visibility = serializers.ChoiceField(choices=Visibility.choices, default="public")

        def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
            # ``from`` is a Python keyword, so the field cannot be declared by name.
            fields = super().get_fields()
            fields["from"] = serializers.ChoiceField(
                choices=sorted(FORMATS),
                required=False,
                allow_blank=True,
                default="",
                help_text=(
                    "The format to convert the file from before its records are verified:"
                    " `ohw` (OhHellWeb saved games, .ohw or .json), `openspiel` (OpenSpiel"
                    " oh_hell states or playthroughs, .txt), `sheet` (a typed score sheet,"
                    " .csv or .xlsx). Left out: a file of raspis/1 records (.json, .jsonl, "
                    ".zip). Each game of a converted file is an item; a file that gives none is"
                    " one rejected item with its `import.*` finding (docs/importers.md)."
                ),
            )
            return fields

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            source = attrs.get("from", "")
            suffixes = IMPORT_SUFFIXES[source] if source else SUFFIXES
            if not str(attrs["file"].name).lower().endswith(suffixes):
                raise serializers.ValidationError(
                    {"file": f"the file must be {' or '.join(suffixes)}"}
                )
            return attrs

    def setup(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        """Keep Django's request: its upload handlers are set on it (``_streamed_to``)."""
        super().setup(request, *args, **kwargs)
        self.http_request = request

    @extend_schema(
        parameters=page_parameters(Pages),
        responses={200: page_of(UploadSerializer, "Upload"), 400: FINDINGS, 404: FINDINGS},
        summary="List your uploads",
        operation_id="uploads_list",
    )
    def get(self, request: Request) -> Response:
        paginator = Pages()
        page = paginator.paginate_queryset(upload_list(user=request.user), request, view=self)
        return paginator.get_paginated_response(UploadSerializer(page, many=True).data)

    @extend_schema(
        request={"multipart/form-data": InputSerializer},
        responses={202: UploadSerializer, 400: FINDINGS, 401: FINDINGS, 413: FINDINGS},
        summary="Upload a .json, .jsonl or .zip file of records, or a file to convert (`from`)",
    )
    def post(self, request: Request) -> Response:
        size_check(request, overhead=MULTIPART_OVERHEAD)
        with upload_receiving(uploaded_by=account(request)) as receiver:
            streamed = _streamed_to(receiver, self.http_request)
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            file = serializer.validated_data["file"]
            limit = settings.RASPIS_MAX_UPLOAD_BYTES
            if file.size > limit:
                raise PayloadTooLarge(limit, file.size)
            if not streamed:
                receiver.take(file.read())
            receiver.finish(
                filename=file.name,
                visibility=serializer.validated_data["visibility"],
                source_format=serializer.validated_data["from"],
            )
        upload = upload_queue(receiver, workers=WORKERS)
        return Response(UploadSerializer(upload).data, status=status.HTTP_202_ACCEPTED)


def _streamed_to(receiver: UploadReceiver, request: HttpRequest) -> bool:
    """Have the field ``file`` of ``request`` go to ``receiver`` as it is read; False when
    the body has been read already (a session's CSRF check reads the form), where Django
    refuses new upload handlers."""
    try:
        request.upload_handlers = [_ToReceiver(receiver)]
    except AttributeError:
        return False
    return True


class _ToReceiver(FileUploadHandler):
    """Hands the first file of the field ``file`` to an ``UploadReceiver`` a part at a time;
    other files are not kept. What the form gets in its place tells only the file's name
    and size, which is all that is checked of it."""

    chunk_size = PART_SIZE

    def __init__(self, receiver: UploadReceiver) -> None:
        super().__init__()
        self.receiver = receiver
        self.taking = self.taken = False

    def new_file(self, field_name: str, *args: Any, **kwargs: Any) -> None:
        super().new_file(field_name, *args, **kwargs)
        self.taking = field_name == "file" and not self.taken

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        if self.taking:
            self.receiver.take(raw_data)

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if not self.taking:
            return None
        self.taking, self.taken = False, True
        return UploadedFile(name=self.file_name, content_type=self.content_type, size=file_size)


class UploadItemsPagination(Pages):
    """Pages of an upload's items, ``RASPIS_UPLOAD_ITEMS_PAGE_SIZE`` each."""

    def get_page_size(self, request: Request) -> int:
        size: int = settings.RASPIS_UPLOAD_ITEMS_PAGE_SIZE
        return size


class UploadDetailApi(APIView):
    """An upload's status, counts and, per record, the game it became or its findings.

    The records come a page at a time, since an upload can hold 100,000 of them.
    """

    permission_classes = (IsAuthenticated,)

    @extend_schema_serializer(component_name="UploadDetailOutput")
    class OutputSerializer(UploadSerializer):
        """The upload with the page of its items that ``context["pages"]``, the paginator,
        selected."""

        items_count = serializers.SerializerMethodField(help_text="items matching the filter")
        items_next = serializers.SerializerMethodField(help_text="the next page's URL")
        items_previous = serializers.SerializerMethodField(help_text="the previous page's URL")
        items = serializers.SerializerMethodField(help_text="one page, in index order")

        def _pages(self) -> UploadItemsPagination:
            pages: UploadItemsPagination = self.context["pages"]
            return pages

        def _page(self) -> Page[UploadItem]:
            page = self._pages().page
            assert page is not None, "the view paginates the items before serializing"
            return page

        def get_items_count(self, upload: Upload) -> int:
            return self._page().paginator.count

        def get_items_next(self, upload: Upload) -> str | None:
            return self._pages().get_next_link()

        def get_items_previous(self, upload: Upload) -> str | None:
            return self._pages().get_previous_link()

        @extend_schema_field(UploadItemSerializer(many=True))
        def get_items(self, upload: Upload) -> list[dict[str, Any]]:
            return list(UploadItemSerializer(self._page(), many=True).data)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "outcome",
                str,
                many=True,
                explode=False,
                enum=ItemOutcome.values,
                description="only items with these outcomes, comma-separated: rejected,failed",
            ),
            *page_parameters(UploadItemsPagination),
        ],
        responses={200: OutputSerializer, 400: FINDINGS, 404: FINDINGS},
        summary="Follow an upload",
    )
    def get(self, request: Request, upload_id: int) -> Response:
        upload = upload_get(user=request.user, upload_id=upload_id)
        if upload is None:
            raise NotFound(f"no upload {upload_id}")
        items = upload_items(upload=upload, filters=request.query_params)
        pages = UploadItemsPagination()
        pages.paginate_queryset(items, request, view=self)
        return Response(self.OutputSerializer(upload, context={"pages": pages}).data)
