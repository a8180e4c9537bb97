"""Routes: home, teacher accounts, classes and sessions, and the student join flow."""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from classroom.views import accounts, classes, controls, decks, home, join, sessions

classroom_patterns = [
    path("teacher/", home.dashboard, name="dashboard"),
    path("teacher/classes/new/", classes.class_create, name="class_create"),
    path("teacher/classes/<int:pk>/", classes.class_detail, name="class_detail"),
    path("teacher/classes/<int:pk>/edit/", classes.class_edit, name="class_edit"),
    path("teacher/classes/<int:pk>/archive/", classes.class_archive, name="class_archive"),
    path("teacher/classes/<int:pk>/unarchive/", classes.class_unarchive, name="class_unarchive"),
    path("teacher/classes/<int:pk>/delete/", classes.class_delete, name="class_delete"),
    path("teacher/classes/<int:pk>/sessions/new/", sessions.session_create, name="session_create"),
    path("teacher/sessions/<int:pk>/", sessions.session_detail, name="session_detail"),
    path("teacher/sessions/<int:pk>/lock/", sessions.session_lock, name="session_lock"),
    path("teacher/sessions/<int:pk>/unlock/", sessions.session_unlock, name="session_unlock"),
    path("teacher/sessions/<int:pk>/start/", sessions.session_start, name="session_start"),
    path("teacher/sessions/<int:pk>/pause/", sessions.session_pause, name="session_pause"),
    path("teacher/sessions/<int:pk>/resume/", sessions.session_resume, name="session_resume"),
    path("teacher/sessions/<int:pk>/end/", sessions.session_end, name="session_end"),
    path("teacher/sessions/<int:pk>/kick/", sessions.session_kick, name="session_kick"),
    path("teacher/sessions/<int:pk>/tables/pause/", controls.table_pause, name="table_pause"),
    path("teacher/sessions/<int:pk>/tables/resume/", controls.table_resume, name="table_resume"),
    path("teacher/sessions/<int:pk>/seats/bot/", controls.seat_to_bot, name="seat_to_bot"),
    path(
        "teacher/sessions/<int:pk>/seats/student/", controls.seat_to_student, name="seat_to_student"
    ),
    path("teacher/sessions/<int:pk>/moves/approve/", controls.move_approve, name="move_approve"),
    path("teacher/sessions/<int:pk>/moves/refuse/", controls.move_refuse, name="move_refuse"),
    path("teacher/sessions/<int:pk>/joins/approve/", controls.join_approve, name="join_approve"),
    path("teacher/sessions/<int:pk>/joins/refuse/", controls.join_refuse, name="join_refuse"),
    path("teacher/sessions/<int:pk>/rename/", controls.participant_rename, name="rename"),
    path("teacher/sessions/<int:pk>/join-rules/", controls.join_rules, name="join_rules"),
    path("teacher/decks/", decks.deck_list, name="deck_list"),
    path("teacher/decks/new/<slug:game>/", decks.deck_create, name="deck_create"),
    path("teacher/decks/check/<slug:game>/", decks.deck_check, name="deck_check"),
    path("teacher/decks/<int:pk>/", decks.deck_edit, name="deck_edit"),
    path("teacher/decks/<int:pk>/delete/", decks.deck_delete, name="deck_delete"),
    path("join/", join.join, name="join"),
    path("join/wait/<int:pk>/", join.join_wait, name="join_wait"),
    path("join/move/<int:pk>/", join.seat_move, name="seat_move"),
    path("join/<str:code>/", join.join, name="join_code"),
    path("lobby/<str:code>/", join.lobby, name="lobby"),
]

auth_patterns = [
    path("signup/", accounts.signup, name="signup"),
    path("login/", accounts.LogInView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/", accounts.AccountView.as_view(), name="account"),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("account/data/", accounts.account_download, name="account_download"),
    path("account/delete/", accounts.account_delete, name="account_delete"),
    # The "My account" page's first address (a password change page), for bookmarks.
    path(
        "password/change/",
        RedirectView.as_view(pattern_name="account", permanent=True),
        name="password_change",
    ),
]

urlpatterns = [
    path("", home.home, name="home"),
    *auth_patterns,
    path("", include((classroom_patterns, "classroom"))),
]
