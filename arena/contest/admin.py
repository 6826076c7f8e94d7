"""The organiser's admin site (/admin/): every row, for what the contest's own pages do not cover."""

from __future__ import annotations

from django.contrib import admin

from arena.contest.models import Contestant, ContestState, Invitation, Job, Submission


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "author", "uploaded", "language", "size", "status")
    list_filter = ("status", "language")
    search_fields = ("name", "author__username", "sha256")
    # A submission is kept as it was uploaded: nothing of it is edited here.
    readonly_fields = ("author", "uploaded", "filename", "name", "kind", "language", "sha256", "size", "report")


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "submission", "state", "attempts", "holder", "created", "finished")
    list_filter = ("kind", "state")


@admin.register(Contestant)
class ContestantAdmin(admin.ModelAdmin):
    list_display = ("user", "entry", "disqualified", "joined")


admin.site.register(ContestState)
admin.site.register(Invitation)
