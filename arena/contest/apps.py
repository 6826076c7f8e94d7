from __future__ import annotations

from django.apps import AppConfig


class ContestConfig(AppConfig):
    name = "arena.contest"
    label = "contest"
    verbose_name = "Contest"
