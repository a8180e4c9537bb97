"""The demo data command: idempotent, prints the login."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from classroom.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME
from classroom.models import SchoolClass


@pytest.mark.django_db
def test_load_demo_is_idempotent_and_prints_the_login():
    for _ in range(2):
        out = StringIO()
        call_command("load_demo", stdout=out)
        assert DEMO_USERNAME in out.getvalue() and DEMO_PASSWORD in out.getvalue()
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert user.check_password(DEMO_PASSWORD)
    school_class = SchoolClass.objects.get()
    assert school_class.teacher == user
    assert len(school_class.pseudonyms()) == 5
