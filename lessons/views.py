"""The lesson library (open to everyone), a teacher's own wording, the quiz and its results."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from classroom.actions import ActionRefused
from classroom.broadcast import dashboard_changed
from classroom.catalogue import game_name
from classroom.identity import participant_id_from
from classroom.models import ClassSession, Participant, Seat
from classroom.typing import AuthenticatedHttpRequest
from classroom.views.common import student_language
from lessons import library, results
from lessons.actions import (
    Mode,
    do_answer,
    do_save_override,
    do_set_lesson_mode,
    draw_quiz,
    lesson_mode,
    next_question,
)
from lessons.forms import OverrideForm
from lessons.labels import link_label
from lessons.models import Lesson, LessonOverride, Quiz, QuizAnswer, QuizQuestion
from lessons.texts import lesson_content, question_text, supported_language
from live.write import dismiss_lesson


def viewer_participant(request: HttpRequest) -> Participant | None:
    """Return the student this device holds a seat for, or None."""
    participant_id = participant_id_from(request.COOKIES)
    if participant_id is None:
        return None
    return (
        Participant.objects.select_related("session__school_class__teacher")
        .filter(pk=participant_id, kicked=False)
        .first()
    )


def _latest_seat(participant: Participant) -> Seat | None:
    return participant.seats.select_related("table__match").order_by("-pk").first()


def participant_table(participant: Participant) -> int | None:
    """Return the number of the table where the student sat, or None."""
    seat = _latest_seat(participant)
    return seat.table.number if seat is not None else None


def quiz_ready(participant: Participant) -> bool:
    """Tell whether the student's quiz may open: their match is over, or the session ended."""
    if participant.session.state == ClassSession.State.FINISHED:
        return True
    if Quiz.objects.filter(session=participant.session, participant=participant).exists():
        return True
    seat = _latest_seat(participant)
    return seat is not None and seat.table.match.finished_at is not None


def ended_offer(participant: Participant) -> dict:
    """What a student's "session ended" page offers (``classroom.views.common.
    register_ended_offer``): the lesson library, and the quiz to a student who played at
    a table (or drew their quiz already): a session the teacher ended mid-game opens it,
    as the end of the game does."""
    offer = {"library_url": reverse("lessons:index")}
    played = participant.seats.exists() or Quiz.objects.filter(participant=participant).exists()
    if not participant.kicked and played and quiz_ready(participant):
        offer["quiz_url"] = reverse("lessons:quiz")
    return offer


def viewer_teacher(request: HttpRequest) -> User | None:
    """Return the teacher whose wording the viewer sees: themselves, or their student's teacher."""
    if request.user.is_authenticated:
        return request.user
    participant = viewer_participant(request)
    return participant.session.school_class.teacher if participant else None


def index(request: HttpRequest) -> HttpResponse:
    """List every lesson by game; with ?q=, the lessons whose texts match."""
    language = supported_language()
    teacher = viewer_teacher(request)
    query = request.GET.get("q", "").strip()[:200]
    context: dict[str, Any] = {"query": query, "language": language}
    if query:
        context["found"] = library.search(query, language, teacher)
    else:
        context["games"] = library.by_game(language, teacher)
        context["unlinked"] = library.unlinked(language, teacher)
    return render(request, "lessons/index.html", context)


def by_article(request: HttpRequest) -> HttpResponse:
    """List every GDPR article cited, with the lessons that cite it."""
    language = supported_language()
    groups = library.by_article(language, viewer_teacher(request))
    return render(request, "lessons/by_article.html", {"groups": groups})


def detail(request: HttpRequest, slug: str) -> HttpResponse:
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
    opened_by: dict[str, list[str]] = {}
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
def adapt(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
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


def _teacher_session_or_404(request: HttpRequest, pk: int) -> ClassSession:
    """Return the session if the logged-in user is its teacher; 404 for anyone else."""
    if not request.user.is_authenticated:
        raise Http404
    return get_object_or_404(
        ClassSession.objects.select_related("school_class"),
        pk=pk,
        school_class__teacher=request.user,
    )


def session_results(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a session's lessons to its teacher: the lesson mode, moments per table, quiz results."""
    session = _teacher_session_or_404(request, pk)
    progress = results.student_progress(session)
    context = {
        "session": session,
        "questions": results.question_results(session),
        "progress": progress,
        "finished": sum(1 for student in progress if student.finished),
        "tables": results.moments_by_table(session),
        "mode": lesson_mode(session),
        "modes": Mode.choices,
    }
    return render(request, "lessons/results.html", context)


@require_http_methods(["POST"])
def session_mode(request: HttpRequest, pk: int) -> HttpResponseRedirect:
    """Let the session's teacher choose how lesson cards show during play (``mode``), or
    end a table's lesson pause (``dismiss``: the table's id); back to ``next`` if local."""
    session = _teacher_session_or_404(request, pk)
    dismiss = request.POST.get("dismiss", "")
    if dismiss.isdigit():
        table = get_object_or_404(session.tables, pk=int(dismiss))
        dismiss_lesson(table.match_id, None, None, everyone=True)
        messages.success(request, _("The table goes on."))
    elif not session.is_open:
        messages.error(
            request, _("The session has ended: this setting can no longer change anything.")
        )
    else:
        try:
            do_set_lesson_mode(session, request.POST.get("mode", ""))
        except ActionRefused as refusal:
            messages.error(request, refusal.message)
        else:
            if lesson_mode(session) != Mode.PAUSE:
                _end_lesson_pauses(session)
            messages.success(request, _("Lesson cards setting saved."))
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("lessons:session_results", pk=session.pk)


def _end_lesson_pauses(session: ClassSession) -> None:
    """Let every table of the session go on: its lessons no longer pause play."""
    for match_id in session.tables.values_list("match_id", flat=True):
        if match_id is not None:
            dismiss_lesson(match_id, None, None, everyone=True)


def _question_context(question: QuizQuestion, language: str) -> dict:
    text = question_text(question, language)
    return {
        "question": question,
        "text": text.text,
        "choices": list(enumerate(text.choices)),
        "answer": text.choices[question.answer],
        "explanation": text.explanation,
    }


@require_http_methods(["GET", "POST"])
def quiz(request: HttpRequest) -> HttpResponse:
    """Give the student their end-of-game quiz, one question at a time, explained after each."""
    participant = viewer_participant(request)
    if participant is None:
        raise Http404
    session = participant.session
    language = student_language(request, session)
    if not quiz_ready(participant):
        return render(request, "lessons/quiz.html", {"waiting": True})
    the_quiz = draw_quiz(session, participant, participant_table(participant))
    if request.method == "POST":
        question = get_object_or_404(QuizQuestion, pk=request.POST.get("question") or 0)
        try:
            do_answer(the_quiz, question, int(request.POST.get("choice", "")))
        except (ActionRefused, ValueError):
            messages.error(request, _("Please choose one of the answers."))
            return redirect("lessons:quiz")
        dashboard_changed(session.pk, reason="quiz")  # the teacher sees who finished
        return redirect(f"{reverse('lessons:quiz')}?answered={question.pk}")
    teacher = session.school_class.teacher
    context = {"quiz": the_quiz, "total": len(the_quiz.question_ids), "teacher": teacher}
    answered_id = request.GET.get("answered", "")
    if answered_id.isdigit() and int(answered_id) in the_quiz.question_ids:
        answer = QuizAnswer.objects.filter(
            participant=participant, question_id=int(answered_id)
        ).first()
        if answer is not None:
            context["last"] = _question_context(answer.question, language)
            context["last_answer"] = answer
    current = next_question(the_quiz)
    if current is not None:
        context["current"] = _question_context(current, language)
        context["number"] = the_quiz.question_ids.index(current.pk) + 1
    else:
        answers = QuizAnswer.objects.filter(
            participant=participant, question_id__in=the_quiz.question_ids
        )
        context["score"] = sum(1 for answer in answers if answer.correct)
        context["lessons"] = [
            lesson_content(q.lesson, language, teacher) for q in the_quiz.questions()
        ]
    return render(request, "lessons/quiz.html", context)
