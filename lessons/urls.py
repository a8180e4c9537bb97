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
