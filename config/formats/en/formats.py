"""English dates and times with "PM" rather than Django's "p.m.": a sentence that ends
with a time ("This session ended on 12/01/2026 7:05 PM.") then ends with one full stop."""

DATETIME_FORMAT = "N j, Y, g:i A"
SHORT_DATETIME_FORMAT = "m/d/Y g:i A"
TIME_FORMAT = "g:i A"
