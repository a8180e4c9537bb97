"""Teachers, their classes, live sessions, join codes and the student join flow."""
