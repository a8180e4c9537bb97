"""Views of the classroom app, one module per audience and concern."""
