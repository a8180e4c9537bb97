"""The files of a debrief export: their names and what each is served as.

Apart from ``debrief.render``, which writes them: the web server serves the files and
needs only these names, not the report's drawing and PDF stack (matplotlib alone is
about 40 MB in each process that imports it).
"""

FILES = {
    "html": "debrief.html",
    "pdf": "debrief.pdf",
    "csv": "debrief.csv",
    "json": "debrief.json",
}
CONTENT_TYPES = {
    "html": "text/html; charset=utf-8",
    "pdf": "application/pdf",
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
}
