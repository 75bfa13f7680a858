"""API routes for uploads of many records, mounted under ``/api/``."""

from django.urls import URLPattern, URLResolver, path

from uploads.apis import UploadDetailApi, UploadsApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("uploads/", UploadsApi.as_view(), name="uploads"),
    path("uploads/<int:upload_id>/", UploadDetailApi.as_view(), name="upload-detail"),
]
