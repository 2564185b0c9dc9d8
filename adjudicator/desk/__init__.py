"""The referee's desk: a web page and a JSON API on the same engine (``adjudicator serve``).

Everything here is imported only by the ``serve`` command (and ``diff --archive``), so that
``adjudicator judge`` does not pay for the web stack.
"""

# A judging worker is replaced after judging this many logs (desk/pool.py says why; so
# are ``adjudicator batch``'s local workers, batch/run.py): clingo's terms grow with every
# new log, and a successor costs about a second of one core to start (under load, a
# worker's every minute or so; the batch's are forked from its warmed process instead).
RECYCLE = 2000

# Requests a minute each client may send that make the desk work (POSTs and PDFs; 0: no
# limit), desk/ratelimit.py; a table's referee sends far fewer, the live check debounced.
PER_MINUTE = 120
# PDF requests waiting or printing at once (desk/printer.py); one more is answered 503.
PDF_QUEUE = 4
