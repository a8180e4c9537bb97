"""Routes of the debrief: a session's exports, their progress and files, the replays,
deleting a session's data, and the privacy page.

Included at the root (config.urls), so that every path is the one it had before the
debrief left the lessons app: teachers' bookmarks, and the replay links inside the HTML
reports already exported, go on working.
"""

from django.urls import path

from debrief import views

app_name = "debrief"

urlpatterns = [
    path("lessons/sessions/<int:pk>/debrief/", views.debrief_session, name="session"),
    path("lessons/sessions/<int:pk>/replay/<int:table>/", views.debrief_replay, name="replay"),
    path(
        "lessons/sessions/<int:pk>/delete-data/",
        views.delete_session_data,
        name="delete_session_data",
    ),
    path("lessons/debriefs/<int:pk>/", views.debrief_status, name="status"),
    path("lessons/debriefs/<int:pk>/progress/", views.debrief_progress, name="progress"),
    path("lessons/debriefs/<int:pk>/files/<str:fmt>/", views.debrief_file, name="file"),
    path("privacy/", views.privacy, name="privacy"),
]
