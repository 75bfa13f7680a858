"""The upload pages: send a file of records (``/uploads/new/``), then follow it while the
workers verify it and see what became of each record (``/uploads/<id>/``).

The file goes through the API's own path: ``uploads.services.upload_receiving`` stores it
as it is handed over, ``upload_queue`` splits it and queues its batches for the workers. The
page polls a fragment of itself (``/uploads/<id>/status/``) rendered on the server, so the
progress and the counts are written in the reader's language with no JavaScript catalogue.
An upload is its uploader's and staff's (``uploads.selectors.upload_get``); anyone else gets
a 404, as the API answers.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from core.throttles import page_wait
from games.models import Visibility
from importers import SUFFIXES as IMPORTS
from uploads.models import Upload, UploadItem
from uploads.selectors import upload_get, upload_list, upload_summary
from uploads.services import upload_queue, upload_receiving
from uploads.tasks import WORKERS
from verification.models import Finding
from web.findings import finding_text, where_text
from web.reports import unsaved_findings

SUFFIXES = (".json", ".jsonl", ".zip")
#: Records of an upload whose findings its page lists; the rest are a page of the API away.
REJECTED_SHOWN = 50
#: The reader's latest uploads listed under the form.
RECENT = 10
#: How often the page asks for the upload's progress while the workers verify it, in ms.
POLL_MS = 1000


class UploadForm(forms.Form):
    """A file of records, or of games another program saved (``importers``), and who may see
    its games; ``options()`` are what the receiver stores the file with."""

    source = forms.ChoiceField(
        label=gettext_lazy("What the file holds"),
        choices=[
            ("", gettext_lazy("Raspis records (.json, .jsonl, .zip)")),
            ("ohw", gettext_lazy("OhHellWeb saved games (.ohw, .json)")),
            ("openspiel", gettext_lazy("An OpenSpiel oh_hell game (.txt)")),
            ("sheet", gettext_lazy("A typed score sheet (.csv, .xlsx)")),
        ],
        required=False,
        initial="",
    )
    file = forms.FileField(
        label=gettext_lazy("File of records"),
        help_text=gettext_lazy(
            ".json (one record or an array), .jsonl (a record a line) or .zip of them."
        ),
        widget=forms.ClearableFileInput(
            attrs={
                "accept": ",".join(sorted({*SUFFIXES, *(s for f in IMPORTS.values() for s in f)}))
            }
        ),
    )
    visibility = forms.ChoiceField(
        label=gettext_lazy("Who sees the games"),
        choices=[
            (Visibility.PUBLIC, gettext_lazy("everyone (they count in the statistics)")),
            (Visibility.PRIVATE, gettext_lazy("only you and the reviewers")),
        ],
        initial=Visibility.PUBLIC,
    )

    def clean_file(self) -> Any:
        file = self.cleaned_data["file"]
        source = self.cleaned_data.get("source") or ""
        suffixes = IMPORTS[source] if source else SUFFIXES
        if not str(file.name).lower().endswith(suffixes):
            if not source:
                raise forms.ValidationError(_("The file must be .json, .jsonl or .zip."))
            raise forms.ValidationError(
                _("A file of this kind must end in %(suffixes)s.")
                % {"suffixes": ", ".join(suffixes)}
            )
        limit = settings.RASPIS_MAX_UPLOAD_BYTES
        if file.size > limit:
            raise forms.ValidationError(
                _("The file is larger than %(limit)s MB.") % {"limit": f"{limit / 1024 / 1024:g}"}
            )
        return file

    def options(self) -> dict[str, Any]:
        """What the receiver stores the file with (``UploadReceiver.finish``)."""
        return {
            "visibility": self.cleaned_data["visibility"],
            "source_format": self.cleaned_data.get("source") or "",
        }


@login_required
@require_http_methods(["GET", "POST"])
def upload_new(request: HttpRequest) -> HttpResponse:
    """The form; a valid file is stored, queued for the workers, and its page follows."""
    if request.method == "GET":
        return _form_page(request, UploadForm())
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _form_page(request, form, status=400)
    wait = page_wait(request, "upload")
    if wait is not None:
        form.add_error(
            None, _("Too many uploads: try again in %(seconds)s seconds.") % {"seconds": wait}
        )
        response = _form_page(request, form, status=429)
        response["Retry-After"] = str(wait)
        return response
    file = form.cleaned_data["file"]
    assert isinstance(request.user, User)  # login_required
    with upload_receiving(uploaded_by=request.user) as receiver:
        for chunk in file.chunks():
            receiver.take(chunk)
        receiver.finish(filename=file.name, **form.options())
    upload = upload_queue(receiver, workers=WORKERS)
    return redirect("upload-page", upload_id=upload.pk)


def _form_page(request: HttpRequest, form: UploadForm, *, status: int = 200) -> HttpResponse:
    """The form, and the reader's latest uploads to go back to."""
    recent = upload_list(user=request.user).filter(uploaded_by_id=request.user.pk)[:RECENT]
    context = {"form": form, "recent": recent}
    return render(request, "web/upload_new.html", context, status=status)


def _upload_or_404(request: HttpRequest, upload_id: int) -> Upload:
    upload = upload_get(user=request.user, upload_id=upload_id)
    if upload is None:
        raise Http404(_("No such upload."))
    return upload


def _findings(item: UploadItem) -> list[Finding]:
    return unsaved_findings({"findings": item.findings})


def _status_context(upload: Upload) -> dict[str, Any]:
    summary = upload_summary(upload=upload, rejected=REJECTED_SHOWN)
    rejected = [
        (
            item,
            [
                (where_text(f) if f.deal else "", finding_text(f, []))
                for f in unsaved_findings({"findings": item.findings})
            ],
        )
        for item in summary.rejected
    ]
    return {
        "upload": upload,
        "summary": summary,
        "rejected": rejected,
        "finished": upload.status in ("done", "failed"),
        "poll_ms": POLL_MS,
    }


@login_required
@require_GET
def upload_page(request: HttpRequest, upload_id: int) -> HttpResponse:
    upload = _upload_or_404(request, upload_id)
    return render(request, "web/upload.html", _status_context(upload))


@login_required
@require_GET
def upload_status(request: HttpRequest, upload_id: int) -> HttpResponse:
    """The part of the upload's page that changes while the workers verify it."""
    upload = _upload_or_404(request, upload_id)
    response = render(request, "web/_upload_status.html", _status_context(upload))
    response["Cache-Control"] = "no-store"
    return response
