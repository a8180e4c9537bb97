"""A session's lessons for its teacher: moments per table, quiz results, who finished."""

from collections import Counter
from dataclasses import dataclass

from classroom.models import ClassSession
from lessons.actions import Mode, lesson_mode
from lessons.models import LessonMoment, Quiz, QuizAnswer, QuizQuestion
from lessons.texts import lesson_content, question_text, session_teacher


@dataclass
class QuestionResult:
    question: QuizQuestion
    text: str
    answers: int
    correct: int

    @property
    def share(self) -> int:
        """Return the percentage of right answers, rounded."""
        return round(100 * self.correct / self.answers) if self.answers else 0


@dataclass
class StudentProgress:
    nickname: str
    answered: int
    total: int
    correct: int
    finished: bool


def question_results(session: ClassSession) -> list[QuestionResult]:
    """Return every question answered in the session with its count of right answers
    (a removed student's answers left out)."""
    counts: dict[int, list[int]] = {}
    answers = QuizAnswer.objects.filter(session=session, participant__kicked=False)
    for question_id, correct in answers.values_list("question_id", "correct"):
        total = counts.setdefault(question_id, [0, 0])
        total[0] += 1
        total[1] += int(correct)
    questions = QuizQuestion.objects.filter(pk__in=counts).select_related("lesson")
    questions = questions.prefetch_related("texts").order_by("lesson__order", "number")
    return [
        QuestionResult(
            question=question,
            text=question_text(question, session.language).text,
            answers=counts[question.pk][0],
            correct=counts[question.pk][1],
        )
        for question in questions
    ]


def student_progress(session: ClassSession) -> list[StudentProgress]:
    """Return each student's quiz progress in the session, in joining order (a removed
    student counts nowhere)."""
    quizzes = {quiz.participant_id: quiz for quiz in Quiz.objects.filter(session=session)}
    answers: dict[int, list[int]] = {}
    for participant_id, right in QuizAnswer.objects.filter(session=session).values_list(
        "participant_id", "correct"
    ):
        total = answers.setdefault(participant_id, [0, 0])
        total[0] += 1
        total[1] += int(right)
    progress = []
    for participant in session.active_participants():
        quiz = quizzes.get(participant.pk)
        answered, correct = answers.get(participant.pk, [0, 0])
        progress.append(
            StudentProgress(
                nickname=participant.nickname,
                answered=answered,
                total=len(quiz.question_ids) if quiz else 0,
                correct=correct,
                finished=bool(quiz and quiz.is_finished),
            )
        )
    return progress


@dataclass
class TableMoments:
    table: int | None
    lessons: list[tuple[str, str, int]]  # (slug, title, times shown)


def moments_by_table(session: ClassSession) -> list[TableMoments]:
    """Return, per table, the lessons shown during play and how often (seats counted once each)."""
    moments = LessonMoment.objects.filter(session=session).select_related("lesson")
    counts: dict[int | None, Counter] = {}
    lessons = {}
    for moment in moments.order_by("created_at", "pk"):
        counts.setdefault(moment.table, Counter())[moment.lesson_id] += 1
        lessons[moment.lesson_id] = moment.lesson
    teacher = session_teacher(session)
    titles = {
        pk: lesson_content(lesson, session.language, teacher).title
        for pk, lesson in lessons.items()
    }
    tables = sorted(counts, key=lambda table: (table is None, table or 0))
    return [
        TableMoments(
            table=table,
            lessons=[
                (lessons[pk].slug, titles[pk], times) for pk, times in counts[table].most_common()
            ],
        )
        for table in tables
    ]


def dashboard_section(session: ClassSession) -> dict:
    """Return the lesson cards' mode and the students' quiz progress for the teacher's
    live dashboard (registered with live.dashboard.register_section)."""
    progress = student_progress(session)
    return {
        "lesson_mode": lesson_mode(session),
        "lesson_modes": Mode.choices,
        "quiz_progress": [student for student in progress if student.total],
        "quiz_finished": sum(1 for student in progress if student.finished),
        "quiz_students": len(progress),
    }
