"""The referee's desk: a web page and a JSON API on the same engine (``adjudicator serve``).

Everything here is imported only by the ``serve`` command (and ``diff --archive``), so that
``adjudicator judge`` does not pay for the web stack.
"""
