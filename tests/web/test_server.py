"""``director serve`` on uvicorn (issue 28): HTTPS on the room's network with a
certificate authority of the laptop's own (``--tls``), the pages and the live
streams on that one TLS port, its root certificate offered to the tablets; and
the limits the served stack keeps (a body over 2 MB)."""

from __future__ import annotations

import http.client
import json
import os
import ssl
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cryptography import x509
from flask import Flask
from flask.testing import FlaskClient

from director.lan import ca_certificate, local_certificates
from tests.browser.conftest import Server, start_server, stop_server
from tests.conftest import TOKEN


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[tuple[Server, int, Path]]:
    running = start_server(tmp_path, TLS="1", DIRECTOR_TOKEN=TOKEN)
    yield running, int(running.url.rsplit(":", 1)[1]), tmp_path / "instance" / "tls" / "ca.crt"
    stop_server(running)


def https(port: int, ca: Path, method: str = "GET", path: str = "/", body: dict | None = None,
          host: str = "127.0.0.1") -> http.client.HTTPSConnection:
    connection = http.client.HTTPSConnection(
        host, port, timeout=10, context=ssl.create_default_context(cafile=str(ca)))
    connection.request(method, path, body=None if body is None else json.dumps(body),
                       headers={"Authorization": f"Bearer {TOKEN}",
                                "Content-Type": "application/json"})
    return connection


def test_serve_with_tls_answers_a_page_and_a_stream_over_https_verified_against_its_own_ca(
        tls_server: tuple[Server, int, Path]) -> None:
    running, port, ca = tls_server
    assert f"https://127.0.0.1:{port}/director/" in running.log.read_text()
    assert f"https://127.0.0.1:{port}/ca.crt" in running.log.read_text()
    made = https(port, ca, "POST", "/api/tournaments", {"name": "Secure", "levels": [
        {"game": "PO", "duration_seconds": 600, "small_blind": 25, "big_blind": 50}]})
    tournament_id = json.loads(made.getresponse().read())["id"]
    for host in ("127.0.0.1", "localhost"):       # both names are in the certificate
        page = https(port, ca, path=f"/clock/{tournament_id}", host=host).getresponse()
        assert page.status == 200 and b"Secure" in page.read()
        assert page.getheader("Strict-Transport-Security") is None   # HSTS off by default
    stream = https(port, ca, path=f"/clock/{tournament_id}/events").getresponse()
    assert stream.status == 200 and stream.getheader("Content-Type") == "text/event-stream"
    first = b""
    while b'"name":"Secure"' not in first:    # the clock's state, its first event
        chunk = stream.read1(4096)
        assert chunk, first
        first += chunk
    assert first.startswith(b"retry: 2000")
    root = https(port, ca, path="/ca.crt").getresponse()
    assert root.status == 200 and root.read() == ca.read_bytes()
    with pytest.raises(ssl.SSLCertVerificationError):   # without the root: not trusted
        http.client.HTTPSConnection("127.0.0.1", port, timeout=10,
                                    context=ssl.create_default_context()).request("GET", "/")


def test_the_certificate_authority_is_made_once_and_the_server_certificate_again_for_a_new_address(
        tmp_path: Path) -> None:
    first = local_certificates(tmp_path / "tls")
    ca = first.ca.read_bytes()
    server = first.cert.read_bytes()
    assert stat.S_IMODE(os.stat(first.key).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "tls" / "ca.key").st_mode) == 0o600
    again = local_certificates(tmp_path / "tls")
    assert again.ca.read_bytes() == ca and again.cert.read_bytes() == server
    moved = local_certificates(tmp_path / "tls", host="10.9.8.7")   # another network
    assert moved.ca.read_bytes() == ca and moved.cert.read_bytes() != server
    certificate = x509.load_pem_x509_certificate(moved.cert.read_bytes())
    names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "10.9.8.7" in {str(address) for address in names.get_values_for_type(x509.IPAddress)}
    assert "localhost" in names.get_values_for_type(x509.DNSName)
    root = x509.load_pem_x509_certificate(ca)
    assert certificate.issuer == root.subject
    assert root.extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def test_the_dealer_tablets_page_offers_the_root_certificate_with_a_qr_code_once_there_is_one(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    tournament_id = make_tournament()
    page = client.get(f"/director/{tournament_id}/dealers", headers=auth)
    assert page.status_code == 200 and b"/ca.crt" not in page.data
    local_certificates(Path(app.instance_path) / "tls")
    fingerprint = ca_certificate(app.instance_path)[1]  # type: ignore[index]
    html = client.get(f"/director/{tournament_id}/dealers", headers=auth).get_data(as_text=True)
    section = html.split('class="pairing-card pairing-ca"', 1)[1].split("</section>", 1)[0]
    assert "/ca.crt" in section and "<svg" in section and fingerprint in section


def test_a_body_over_2_mb_is_refused_413_by_the_served_stack(tmp_path: Path) -> None:
    running = start_server(tmp_path, DIRECTOR_TOKEN=TOKEN)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", int(running.url.rsplit(":", 1)[1]),
                                                timeout=10)
        connection.request("POST", "/api/tournaments", body=b"[" * (3 * 1024 * 1024),
                           headers={"Authorization": f"Bearer {TOKEN}",
                                    "Content-Type": "application/json"})
        assert connection.getresponse().status == 413
    finally:
        stop_server(running)
