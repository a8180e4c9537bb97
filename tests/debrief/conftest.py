"""Fixtures of the debrief tests: two teachers and a recorded session of teacher A."""

import shutil

import pytest
from django.contrib.auth.models import User
from django.test import Client

from debrief.models import DebriefExport
from tests.debrief.recorded import record_session

PASSWORD = "a-Long-teacher-passw0rd"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Hash test passwords cheaply."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def teacher_a(django_user_model):
    return django_user_model.objects.create_user(username="teacher-a", password=PASSWORD)


@pytest.fixture
def teacher_b(django_user_model):
    return django_user_model.objects.create_user(username="teacher-b", password=PASSWORD)


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def client_a(teacher_a):
    return logged_in(teacher_a)


@pytest.fixture
def client_b(teacher_b):
    return logged_in(teacher_b)


@pytest.fixture
def recorded(teacher_a):
    """A finished session: 10 students at 3 tables (one with bots), games played to the end."""
    return record_session(teacher_a, students=10, table_size=4)


@pytest.fixture
def clean_exports():
    """Remove the files of the exports a test made (a flushed row sends no signal)."""
    yield
    for export in DebriefExport.objects.all():
        shutil.rmtree(export.folder(), ignore_errors=True)
