"""Import channels.testing's WebsocketCommunicator even when daphne is not installed.

channels/testing/__init__.py imports ChannelsLiveServerTestCase, which needs daphne;
these tests run on uvicorn and never use that class. When daphne is missing, a stub
``daphne.testing`` module stands in for that one import; once daphne is installed
(add it to the dev extra), the real one is used and this stub is never made.
"""

import importlib.util
import sys
import types

if importlib.util.find_spec("daphne") is None and "daphne.testing" not in sys.modules:
    daphne = types.ModuleType("daphne")
    daphne_testing = types.ModuleType("daphne.testing")

    class DaphneProcess:
        """Stand-in: channels' live-server test case is not used here."""

        def __init__(self, *args, **kwargs):
            raise RuntimeError("daphne is not installed")

    daphne_testing.DaphneProcess = DaphneProcess
    daphne.testing = daphne_testing
    sys.modules["daphne"] = daphne
    sys.modules["daphne.testing"] = daphne_testing

from channels.testing import WebsocketCommunicator

__all__ = ["WebsocketCommunicator"]
