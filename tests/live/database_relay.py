"""A TCP relay on loopback between database connections and the test's PostgreSQL
server, which can lose the answer to a COMMIT: the connection drops after the database
stored the transaction and before the client heard so, as when the database fails over
or the network breaks at that moment. Real bytes to a real server: only the relay's
socket is closed, where a fault would close it."""

from __future__ import annotations

import contextlib
import socket
import threading

HOST = "127.0.0.1"
# PostgreSQL's simple-query message carrying "COMMIT": psycopg commits with it.
COMMIT = b"Q\x00\x00\x00\x0bCOMMIT\x00"


class DatabaseRelay:
    """Relay every connection made to ``port`` on to PostgreSQL on ``target``.

    ``lose_next_commit_answer()`` arms it: the next connection that sends a COMMIT has it
    delivered, then the server's answer is dropped and the connection closed both ways;
    with ``then_refuse``, the relay refuses every connection from then on, as a
    database that cannot be reached any more. ``cuts`` counts the connections so closed."""

    def __init__(self, target: int):
        self.target = target
        self.listener = socket.create_server((HOST, 0))
        self.port = self.listener.getsockname()[1]
        self.armed = threading.Event()
        self.refuse_after_cut = False
        self.cuts = 0
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self.accept, daemon=True, name="database-relay").start()

    def lose_next_commit_answer(self, then_refuse: bool = False) -> None:
        self.refuse_after_cut = then_refuse
        self.armed.set()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection((HOST, self.target))
            self.sockets += [client, server]
            cutting = threading.Event()  # this connection's COMMIT went on: drop its answer
            threading.Thread(target=self.up, args=(client, server, cutting), daemon=True).start()
            threading.Thread(target=self.down, args=(server, client, cutting), daemon=True).start()

    def up(self, client: socket.socket, server: socket.socket, cutting: threading.Event) -> None:
        """Client to server: every byte, noting an armed COMMIT."""
        with contextlib.suppress(OSError):
            while data := client.recv(65536):
                if COMMIT in data and self.armed.is_set():
                    self.armed.clear()
                    cutting.set()
                server.sendall(data)
        self.close(client, server)

    def down(self, server: socket.socket, client: socket.socket, cutting: threading.Event) -> None:
        """Server to client: every byte, until the answer of a COMMIT to lose."""
        with contextlib.suppress(OSError):
            while data := server.recv(65536):
                if cutting.is_set():  # the client waits for nothing else meanwhile
                    self.cuts += 1
                    if self.refuse_after_cut:  # before the client hears of the cut
                        self.listener.close()
                    break
                client.sendall(data)
        self.close(client, server)

    @staticmethod
    def close(*sockets: socket.socket) -> None:
        for each in sockets:
            with contextlib.suppress(OSError):
                each.shutdown(socket.SHUT_RDWR)
            each.close()

    def stop(self) -> None:
        self.listener.close()
        self.close(*self.sockets)
