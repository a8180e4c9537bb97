"""Routes of live play: the student's table and the projector view."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("play/<str:code>/", views.play, name="play"),
    path("teacher/tables/<int:pk>/projector/", views.projector, name="projector"),
]
