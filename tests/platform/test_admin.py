"""Django admin for staff: every registered model's list and add pages open."""

import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db

REGISTERED = sorted(
    (model._meta.app_label, model._meta.model_name) for model in admin.site._registry
)


def test_the_platform_models_are_in_the_admin():
    labels = {app for app, _ in REGISTERED}
    assert {"classroom", "games", "lessons", "debrief"} <= labels
    assert ("debrief", "debriefexport") in REGISTERED
    assert ("games", "match") in REGISTERED


@pytest.mark.parametrize(("app_label", "model_name"), REGISTERED)
def test_staff_open_the_changelist(admin_client, app_label, model_name):
    response = admin_client.get(reverse(f"admin:{app_label}_{model_name}_changelist"))

    assert response.status_code == 200


def test_a_teacher_without_staff_rights_is_sent_to_the_admin_login(client, django_user_model):
    teacher = django_user_model.objects.create_user("teacher-x", password="pw-for-tests-123")
    client.force_login(teacher)

    response = client.get(reverse("admin:games_match_changelist"))

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]
