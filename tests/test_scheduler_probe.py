"""The check of a tls://, ws:// or wss:// scheduler address before Dask gets it (issue 33): one line per fault.

Fake servers on localhost ports, each in a thread: a silent port, plain
bytes on a tls:// address, a TLS server that then sends other bytes, an
HTTP server that answers 200 to the WebSocket request; and real Dask
schedulers (in this process) on ws://, tls:// and wss://, which pass. The
certificate is a throwaway self-signed one made here (``cryptography`` if
installed, else ``openssl``).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import shutil
import ssl
import subprocess
import threading
import time

import pytest

from bower.sim import distributed as dist
from tests.cli_run import one_error
from tests.conftest import collect_left_sockets
from tests.fake_servers import Server, sends, silent

IS_DASK = "(is it a Dask scheduler's port?)"


# ---------------------------------------------------------------- a throwaway certificate

def _cert_cryptography(cert, key) -> bool:
    try:
        import datetime

        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        return False
    k = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    c = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(k.public_key())
         .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
         .not_valid_after(now + datetime.timedelta(days=1))
         .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
         .sign(k, hashes.SHA256()))
    cert.write_bytes(c.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption()))
    return True


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    """(certificate file, key file): self-signed, for localhost, a day long."""
    folder = tmp_path_factory.mktemp("cert")
    cert, key = folder / "cert.pem", folder / "key.pem"
    if not _cert_cryptography(cert, key):
        if shutil.which("openssl") is None:
            pytest.skip("neither the cryptography package nor openssl is here to make a certificate")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                       check=True, capture_output=True, timeout=60)
    return str(cert), str(key)


# ---------------------------------------------------------------- fake servers (the TLS and WebSocket ones; the port
# itself: tests/fake_servers.py)

def tls_then(cert, serve):
    """Do the server's side of a TLS handshake, then ``serve`` the TLS socket."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(*cert)

    def tls_serve(c, server):
        c.settimeout(10)
        t = ctx.wrap_socket(c, server_side=True)
        server.conns.append(t)
        serve(t, server)
    return tls_serve


def read_head(c) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = c.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def http_answer(answer: bytes):
    def serve(c, server):
        read_head(c)
        c.sendall(answer)
        server.stop.wait(30)
    return serve


def _frame(payload: bytes, opcode: int = 2) -> bytes:
    n = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([n]) if n < 126 else bytes([126]) + n.to_bytes(2, "big"))
    return head + payload


def websocket(messages: list[bytes]):
    """Answer the WebSocket request as RFC 6455 asks, then send ``messages`` (binary, one frame each)."""
    def serve(c, server):
        head = read_head(c).decode("latin-1")
        key = next(line.split(":", 1)[1].strip() for line in head.split("\r\n")
                   if line.lower().startswith("sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1(key.encode() + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        c.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + b"".join(_frame(m) for m in messages))
        server.stop.wait(30)
    return serve


@pytest.fixture
def server():
    made = []

    def make(serve):
        made.append(Server(serve))
        return made[-1]
    yield make
    for s in made:
        s.close()


def probe(address: str, timeout: float = 1.0) -> str | None:
    """The line ``_probe`` ends with at ``address`` (None when it passes), checked to come within the timeout."""
    scheme, host, port = dist.parse_address(address)
    t0 = time.monotonic()
    try:
        dist._probe(address, scheme, host, port, timeout)
        line = None
    except dist.SchedulerError as e:
        line = str(e)
    assert time.monotonic() - t0 < timeout + 3
    return line


# ---------------------------------------------------------------- tls://

def test_a_silent_tls_port(server):
    s = server(silent)
    address = f"tls://127.0.0.1:{s.port}"
    # a fifth of a second (as for the silent ws:// port): the port never answers, so a longer wait changes only the
    # test's length (the tests that wait for an answer after a real handshake keep 1 s, room for a busy machine)
    assert probe(address, 0.2) == (f"the server at {address} accepted the connection but did not complete a TLS "
                                   f"handshake within 0.2 s {IS_DASK}")


@pytest.mark.parametrize("answer", [b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", b"\x00" * 64,
                                    b"\x08\x00\x00\x00\x00\x00\x00\x00pickle-protocol"])
def test_plain_bytes_on_a_tls_address(server, answer):
    s = server(sends(answer))
    address = f"tls://127.0.0.1:{s.port}"
    assert probe(address, 5) == f"the server at {address} answered with something other than TLS {IS_DASK}"


def test_a_tls_port_that_hangs_up(server):
    s = server(lambda c, _: c.close())
    address = f"tls://127.0.0.1:{s.port}"
    assert probe(address, 5) == f"the server at {address} closed the connection during the TLS handshake {IS_DASK}"


def test_tls_then_other_bytes(server, cert):
    s = server(tls_then(cert, sends(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")))
    address = f"tls://127.0.0.1:{s.port}"
    assert probe(address, 5) == (f"the server at {address} answered with something other than a Dask scheduler's "
                                 f"handshake {IS_DASK}")


def test_tls_then_silence(server, cert):
    s = server(tls_then(cert, silent))
    address = f"tls://localhost:{s.port}"  # a name: sent as SNI, and the self-signed certificate is not checked
    assert probe(address) == (f"the server at {address} completed a TLS handshake but did not answer within 1 s "
                              f"{IS_DASK}")


# ---------------------------------------------------------------- ws:// and wss://

def test_a_silent_ws_port(server):
    s = server(silent)
    address = f"ws://127.0.0.1:{s.port}"
    assert probe(address, 0.2) == (f"the server at {address} accepted the connection but did not answer a WebSocket "
                                   f"request within 0.2 s {IS_DASK}")


def test_http_200_instead_of_101(server):
    s = server(http_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
    address = f"ws://127.0.0.1:{s.port}"
    assert probe(address, 5) == (f"the server at {address} answered a WebSocket request with HTTP 200 OK, not "
                                 f"101 Switching Protocols {IS_DASK}")


def test_not_http_on_a_ws_address(server):
    s = server(sends(b"\x08\x00\x00\x00\x00\x00\x00\x00pickle-protocol\r\n\r\n"))  # a tcp scheduler's words
    address = f"ws://127.0.0.1:{s.port}"
    assert probe(address, 5) == (f"the server at {address} answered a WebSocket request with something other "
                                 f"than HTTP {IS_DASK}")


def test_a_wss_address_on_a_ws_port(server):
    def http_server(c, server):  # a TLS hello is no HTTP request: an HTTP server answers 400 to its first bytes
        c.recv(4096)
        c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        server.stop.wait(30)
    s = server(http_server)
    address = f"wss://127.0.0.1:{s.port}"
    assert probe(address, 5) == f"the server at {address} answered with something other than TLS {IS_DASK}"


def test_wss_http_200(server, cert):
    s = server(tls_then(cert, http_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")))
    address = f"wss://127.0.0.1:{s.port}"
    assert probe(address, 5) == (f"the server at {address} answered a WebSocket request with HTTP 200 OK, not "
                                 f"101 Switching Protocols {IS_DASK}")


def test_a_websocket_that_is_not_dask(server):
    s = server(websocket([b"hello there"]))
    address = f"ws://127.0.0.1:{s.port}"
    assert probe(address, 5) == (f"the server at {address} answered with something other than a Dask scheduler's "
                                 f"handshake {IS_DASK}")


def test_a_websocket_that_stays_silent(server, cert):
    s = server(tls_then(cert, websocket([])))
    address = f"wss://127.0.0.1:{s.port}"
    assert probe(address) == (f"the server at {address} accepted the WebSocket but did not answer within 1 s "
                              f"{IS_DASK}")


def test_dask_framing_over_a_websocket(server):
    """A count of frames (8 bytes), then the frames: the way Dask's ws comm sends its handshake."""
    frames = [b"\x80\x00", b"\x81\xafpickle-protocol\x05" + b"x" * 200]
    s = server(websocket([len(frames).to_bytes(8, "little"), *frames]))
    assert probe(f"ws://127.0.0.1:{s.port}", 5) is None


# ---------------------------------------------------------------- the command line

def test_the_command_line_says_one_line(capsys, server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOWER_SCHEDULER_TIMEOUT", "0.2")  # a silent port: a longer wait changes only the test's length
    s = server(silent)
    address = f"tls://127.0.0.1:{s.port}"
    t0 = time.monotonic()
    line = one_error(capsys, "simulate", "--hands", "100", "--scheduler", address)
    assert time.monotonic() - t0 < 15
    assert line == (f"bower: error: the server at {address} accepted the connection but did not complete a TLS "
                    f"handshake within 0.2 s {IS_DASK}")
    s2 = server(http_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
    address = f"ws://127.0.0.1:{s2.port}"
    monkeypatch.setenv("BOWER_SCHEDULER_TIMEOUT", "5")  # an answer: room for a busy machine
    assert one_error(capsys, "simulate", "--hands", "100", "--scheduler", address) == (
        f"bower: error: the server at {address} answered a WebSocket request with HTTP 200 OK, not "
        f"101 Switching Protocols {IS_DASK}")
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- real Dask schedulers

@pytest.fixture
def scheduler():
    """Start a ``distributed.Scheduler`` in this process (on a loop in a thread); its address."""
    distributed = pytest.importorskip("distributed")
    stops = []

    def start(protocol: str, security=None) -> str:  # PROTOCOL://127.0.0.1:PORT
        ready, box = threading.Event(), {}

        async def main():
            box["stop"] = asyncio.Event()
            # its HTTP server (on even without a dashboard) on a free port: on Dask's default, 8787, it meets any
            # other scheduler of the suite running at the time, and Dask's warning of the port taken is an error here
            async with distributed.Scheduler(protocol=protocol, host="127.0.0.1", port=0, dashboard=False,
                                             dashboard_address="127.0.0.1:0", security=security) as s:
                box["address"] = f"{protocol}://127.0.0.1:{s.address.rsplit(':', 1)[1]}"  # ws: it listens on all
                ready.set()
                await box["stop"].wait()

        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
        thread.start()
        assert ready.wait(30), "the scheduler did not start"
        stops.append((loop, box, thread))
        return box["address"]

    quiet = dist._Quiet()
    yield start
    for loop, box, thread in stops:
        loop.call_soon_threadsafe(box["stop"].set)
        thread.join(30)
    collect_left_sockets()  # a client's socket the scheduler dropped, else collected inside the next test
    quiet.restore()


def test_a_dask_scheduler_on_ws(scheduler):
    import distributed

    address = scheduler("ws")
    assert probe(address, 10) is None
    with distributed.Client(address, timeout=10) as client:  # and Dask itself connects after the check
        assert client.scheduler_info()["address"].startswith("ws://")


@pytest.mark.parametrize("protocol", ["tls", "wss"])
def test_a_dask_scheduler_on_tls(scheduler, cert, protocol):
    import dask
    from distributed.security import Security

    c, k = cert
    security = Security(tls_ca_file=c, tls_scheduler_cert=c, tls_scheduler_key=k, require_encryption=True)
    address = scheduler(protocol, security)
    # it asks for the client's certificate: without Dask's settings for one, this client is refused; the server's
    # alert can lose the race with its closing the socket (a busy machine), and the line then says it hung up
    line = probe(address, 10)
    refused = line is not None and line.startswith(f"the TLS server at {address} refused this client (")
    assert refused or line == (f"the server at {address} closed the connection without a word (is it a Dask "
                               "scheduler's port?)"), line
    assert not refused or line.endswith("Dask's client certificate is set by distributed.comm.tls.client.cert, .key "
                                        "and distributed.comm.tls.ca-file")
    with dask.config.set({"distributed.comm.tls.ca-file": c, "distributed.comm.tls.client.cert": c,
                          "distributed.comm.tls.client.key": k}):
        assert probe(address, 10) is None
