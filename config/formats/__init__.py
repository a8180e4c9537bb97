"""The project's date and time formats (Django's FORMAT_MODULE_PATH), where Django's own
do not fit a sentence."""
