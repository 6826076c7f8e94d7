"""The site's addresses."""

from __future__ import annotations

from django.contrib import admin
from django.urls import path

from arena.contest import views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("register/", views.register, name="register"),
    path("invite/<str:token>/", views.register, name="invite"),
    path("submissions/", views.upload, name="upload"),
    path("submissions/<int:number>/", views.submission, name="submission"),
    path("submissions/<int:number>/entry/", views.choose_entry, name="entry"),
    path("submissions/<int:number>/games/<int:case>/", views.check_game, name="check-game"),
    path("token/", views.token, name="token"),
    path("ladder/", views.ladder, name="ladder"),
    path("ladder/data/", views.ladder_data, name="ladder-data"),
    path("ladder/games/<int:number>/", views.ladder_game, name="ladder-game"),
    path("challenges/", views.challenges, name="challenges"),
    path("challenges/<int:number>/", views.challenge, name="challenge"),
    path("challenges/<int:number>/data/", views.challenge_data, name="challenge-data"),
    path("challenges/<int:number>/games/<int:game>/", views.challenge_game, name="challenge-game"),
    path("results/", views.results, name="results"),
    path("results/game/", views.final_game, name="final-game"),
    path("organiser/", views.organiser, name="organiser"),
    path("organiser/<str:action>/", views.organiser_action, name="organiser-action"),
    path("api/submissions/", views.api_submit, name="api-submit"),
    path("api/submissions/<int:number>/", views.api_submission, name="api-submission"),
    path("health/", views.health, name="health"),
    # (the admin site's own login form is this one, with its rate limit)
    path("admin/login/", views.login_view),
    path("admin/", admin.site.urls),
]
