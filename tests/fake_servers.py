"""Fake servers on free localhost ports for the scheduler-address tests (``test_cli_limits``,
``test_scheduler_probe``): each connection is served in a thread of its own."""

from __future__ import annotations

import socket
import threading


class Server:
    """A localhost port whose every connection is handed to ``serve(conn, server)`` in a thread of its own."""

    def __init__(self, serve):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.serve, self.conns, self.stop = serve, [], threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)
            threading.Thread(target=self._one, args=(c,), daemon=True).start()

    def _one(self, c):
        try:
            self.serve(c, self)
        except OSError:
            pass

    def close(self):
        self.stop.set()
        for c in self.conns:
            c.close()
        self.sock.close()


def silent(c, server):
    """Accept, then say nothing until the server closes."""
    server.stop.wait(30)


def sends(data: bytes, close: bool = False):
    """Send ``data``, then hang up (``close``) or say nothing more until the server closes."""
    def serve(c, server):
        c.sendall(data)
        if close:
            c.close()
        else:
            server.stop.wait(30)
    return serve
