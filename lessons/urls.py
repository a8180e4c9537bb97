"""Routes of the lesson library, under /lessons/."""

from django.urls import path

from lessons import views

app_name = "lessons"

urlpatterns = [
    path("", views.index, name="index"),
    path("articles/", views.by_article, name="by_article"),
    path("quiz/", views.quiz, name="quiz"),
    path("sessions/<int:pk>/results/", views.session_results, name="session_results"),
    path("sessions/<int:pk>/mode/", views.session_mode, name="session_mode"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/adapt/", views.adapt, name="adapt"),
]

# Debrief reports (issue 6): export, progress, files, replay, deleting a session's data.
from lessons.reports import views as debrief  # noqa: E402

urlpatterns += [
    path("sessions/<int:pk>/debrief/", debrief.debrief_session, name="debrief_session"),
    path("sessions/<int:pk>/replay/<int:table>/", debrief.debrief_replay, name="debrief_replay"),
    path(
        "sessions/<int:pk>/delete-data/",
        debrief.delete_session_data,
        name="delete_session_data",
    ),
    path("debriefs/<int:pk>/", debrief.debrief_status, name="debrief_status"),
    path("debriefs/<int:pk>/progress/", debrief.debrief_progress, name="debrief_progress"),
    path("debriefs/<int:pk>/files/<str:fmt>/", debrief.debrief_file, name="debrief_file"),
]
