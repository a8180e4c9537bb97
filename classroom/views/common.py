"""What the teacher views share: the querysets that scope everything to its owner."""

from django.shortcuts import get_object_or_404

from classroom.models import ClassSession, SchoolClass


def teacher_classes(request):
    """Return the classes of the logged-in teacher, and no one else's."""
    return SchoolClass.objects.filter(teacher=request.user)


def teacher_sessions(request):
    """Return the sessions of the logged-in teacher's classes."""
    return ClassSession.objects.filter(school_class__teacher=request.user).select_related(
        "school_class"
    )


def get_class_or_404(request, pk: int) -> SchoolClass:
    """Return the teacher's class, or 404 for any class of another teacher."""
    return get_object_or_404(teacher_classes(request), pk=pk)


def get_session_or_404(request, pk: int) -> ClassSession:
    """Return the teacher's session, or 404 for any session of another teacher."""
    return get_object_or_404(teacher_sessions(request), pk=pk)
