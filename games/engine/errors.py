"""The one exception a game raises for a refused action."""


class IllegalAction(Exception):
    """An action that the state does not accept; the state is unchanged.

    ``code`` is a stable machine id, ``message`` an English template with
    ``%(name)s`` placeholders (marked with ``gettext_noop``), ``params`` its values.
    The UI shows ``gettext(exc.message) % exc.params`` in the player's language.
    """

    def __init__(self, code: str, message: str, params: dict | None = None) -> None:
        self.code = code
        self.message = message
        self.params = dict(params or {})
        super().__init__(message % self.params if self.params else message)
