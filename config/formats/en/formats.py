"""English dates and times that read one way only, wherever the reader is: the month by
its name and a 24-hour clock ("7 Dec 2026, 04:52"), never "12/07/2026 4:52 AM" (7
December in the US, 12 July in Europe: the platform serves European schools). The short
formats are the same, so that a page or the admin using either says the same.
A sentence that ends with a time then ends with one full stop (no "a.m.")."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
