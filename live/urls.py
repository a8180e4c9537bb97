"""Routes of live play: the student's table, the projector views (a table, the join
screen) and the live dashboard."""

from django.urls import path

from live import views

app_name = "live"

urlpatterns = [
    path("play/<str:code>/", views.play, name="play"),
    path("teacher/tables/<int:pk>/projector/", views.projector, name="projector"),
    path("teacher/sessions/<int:pk>/live/", views.session_live, name="session_live"),
    path("teacher/sessions/<int:pk>/screen/", views.join_screen, name="join_screen"),
]
