"""One judging process of the desk's pool (desk/pool.py): ``python -m adjudicator.desk.worker
FD PARENT LANE``.

It speaks over the socket ``FD`` it inherits: a frame is 8 bytes of length, then a pickle.
It warms up (the grammar, the rules, one judgement on each path), says ``ready``, then
answers each ``(fn, args)`` with ``("ok", result)`` or ``("err", exception)``.  It ends when
the socket closes, and with the server however the server ends: the kernel kills it when
its parent dies (Linux's parent-death signal), and a watch on its parent's id ends it
where there is no such signal.  Ctrl-C in a terminal reaches the whole process group; the
server ends its workers itself, so they ignore it.
"""

from __future__ import annotations

import os
import pickle
import signal
import socket
import struct
import sys
import threading
import time
from typing import Any

HEAD = struct.Struct(">Q")


def send(sock: socket.socket, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    sock.sendall(HEAD.pack(len(data)) + data)


def _exactly(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> Any:
    """The next message, or None when the server closed the socket (or is gone)."""
    head = _exactly(sock, HEAD.size)
    if head is None:
        return None
    body = _exactly(sock, HEAD.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _end_with(parent: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        try:  # PR_SET_PDEATHSIG: SIGKILL this process when the thread that made it ends
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the server died before the signal was asked for
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def yield_cpu() -> None:
    """The lowest CPU priority there is for an unprivileged process, nice 19 (the server's
    own is not lowered): the kernel honours it across cores, so the long lane's judging
    takes next to no CPU the short lane's workers want, yet is never starved outright (the
    idle scheduling class would starve it, and even its end once killed, on a busy
    machine)."""
    os.setpriority(os.PRIO_PROCESS, 0, 19)


def warm(houses: dict[str, Any] | None = None) -> None:
    # Each worker compiles the grammar and loads the rules once, before the first request,
    # for the single path and the batch engine both; it knows the operator's house rules.
    from adjudicator.desk import service

    service.use_houses(houses or {})
    log = "規則: tw16\n紀錄:\n1 東 打 三萬\n"
    service.judge(log)
    service.judge_many([log, log + "2 南 摸\n"])


def main(argv: list[str]) -> None:
    fd, parent, lane = int(argv[0]), int(argv[1]), argv[2]
    _end_with(parent)
    if lane == "long":  # before it warms: a replacement's warm-up yields the CPU too
        yield_cpu()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sock = socket.socket(fileno=fd)
    warm(receive(sock))  # the house rules the server offers come first
    send(sock, ("ready", os.getpid()))
    while (message := receive(sock)) is not None:
        fn, args = message
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except Exception as err:  # the job's own failure, raised for its request
            answer = ("err", err)
        try:
            send(sock, answer)
        except (pickle.PicklingError, TypeError, AttributeError) as err:
            send(sock, ("err", RuntimeError(f"{type(err).__name__}: {err}")))


if __name__ == "__main__":
    main(sys.argv[1:])
