"""The lesson library (open to everyone), a teacher's own wording, and quiz results."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from classroom.identity import participant_id_from
from classroom.models import ClassSession, Participant
from lessons import library, results
from lessons.actions import do_save_override
from lessons.forms import OverrideForm
from lessons.labels import game_name, link_label
from lessons.models import Lesson, LessonOverride
from lessons.texts import lesson_content, question_text, supported_language


def viewer_teacher(request):
    """Return the teacher whose wording the viewer sees: themselves, or their student's teacher."""
    if request.user.is_authenticated:
        return request.user
    participant_id = participant_id_from(request.COOKIES)
    if participant_id is None:
        return None
    participant = (
        Participant.objects.select_related("session__school_class__teacher")
        .filter(pk=participant_id, kicked=False)
        .first()
    )
    return participant.session.school_class.teacher if participant else None


def index(request):
    """List every lesson by game; with ?q=, the lessons whose texts match."""
    language = supported_language()
    teacher = viewer_teacher(request)
    query = request.GET.get("q", "").strip()[:200]
    context = {"query": query, "language": language}
    if query:
        context["found"] = library.search(query, language, teacher)
    else:
        context["games"] = library.by_game(language, teacher)
    return render(request, "lessons/index.html", context)


def by_article(request):
    """List every GDPR article cited, with the lessons that cite it."""
    language = supported_language()
    groups = library.by_article(language, viewer_teacher(request))
    return render(request, "lessons/by_article.html", {"groups": groups})


def detail(request, slug):
    """Show a whole lesson: texts, articles, real case, discussion question and quiz."""
    language = supported_language()
    lesson = get_object_or_404(Lesson.objects.prefetch_related("texts"), slug=slug)
    teacher = viewer_teacher(request)
    content = lesson_content(lesson, language, teacher)
    questions = []
    for question in lesson.questions.prefetch_related("texts").order_by("number"):
        text = question_text(question, language)
        questions.append(
            {
                "text": text.text,
                "choices": text.choices,
                "answer": text.choices[question.answer],
                "explanation": text.explanation,
            }
        )
    opened_by = {}
    for link in lesson.links.order_by("game", "event", "pk"):
        labels = opened_by.setdefault(game_name(link.game, language), [])
        label = link_label(link, language)
        if label not in labels:
            labels.append(label)
    context = {
        "lesson": lesson,
        "content": content,
        "questions": questions,
        "opened_by": sorted(opened_by.items()),
        "can_adapt": request.user.is_authenticated,
    }
    return render(request, "lessons/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def adapt(request, slug):
    """Let a teacher reword a lesson, in the current language, for their own classes."""
    language = supported_language()
    lesson = get_object_or_404(Lesson.objects.prefetch_related("texts"), slug=slug)
    shipped = lesson_content(lesson, language)
    override = LessonOverride.objects.filter(
        teacher=request.user, lesson=lesson, language=language
    ).first()
    if request.method == "POST":
        form = OverrideForm(request.POST)
        if form.is_valid():
            do_save_override(request.user, lesson, language, **form.cleaned_data)
            messages.success(request, _("Your wording is saved. Only your classes see it."))
            return redirect(lesson)
    else:
        initial = {}
        if override is not None:
            initial = {f: getattr(override, f) for f in ("title", "short", "body", "discussion")}
        form = OverrideForm(initial=initial)
    context = {"lesson": lesson, "shipped": shipped, "form": form, "override": override}
    return render(request, "lessons/adapt.html", context)


def session_results(request, pk):
    """Show a session's quiz results to its teacher: right answers per question, who finished."""
    if not request.user.is_authenticated:
        raise Http404
    session = get_object_or_404(
        ClassSession.objects.select_related("school_class"),
        pk=pk,
        school_class__teacher=request.user,
    )
    progress = results.student_progress(session)
    context = {
        "session": session,
        "questions": results.question_results(session),
        "progress": progress,
        "finished": sum(1 for student in progress if student.finished),
    }
    return render(request, "lessons/results.html", context)
