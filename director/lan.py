"""This laptop on the room's network: the address that tablets and phones reach it at,
and the certificates of ``director serve --tls`` (a certificate authority of its own,
made on first start: HTTPS on the room's Wi-Fi without the internet).

Used by ``director serve`` (the addresses it prints) and by the dealer pairing page
(the QR codes), so it sits below both.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path


def lan_address() -> str | None:
    """The machine's address on the local network, if it has one (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


# --------------------------------------------------------------------------- HTTPS on the LAN

CA_DAYS = 3650          # the root the tablets trust once
SERVER_DAYS = 397       # the longest a browser accepts for a server certificate


@dataclass(frozen=True)
class Certificates:
    """The files of ``director serve --tls``: the local certificate authority's root
    (``ca``, public: the tablets install it) and this laptop's certificate and key."""

    ca: Path
    cert: Path
    key: Path


def lan_names(host: str = "") -> list[str]:
    """The names and addresses a tablet may reach this laptop at: its LAN address,
    its host name (and ``.local``), ``localhost`` and the loopback addresses, and
    ``host`` when it names one address."""
    names = ["localhost", "127.0.0.1", "::1", socket.gethostname()]
    if "." not in names[-1]:
        names.append(names[-1] + ".local")
    address = lan_address()
    if address:
        names.append(address)
    if host and host not in ("0.0.0.0", "::"):
        names.append(host)
    return list(dict.fromkeys(name for name in names if name))


def local_certificates(folder: Path, host: str = "", now: datetime | None = None) -> Certificates:
    """The certificate authority in ``folder`` (made on first start, its key mode
    0600), and a server certificate it signed for ``lan_names(host)``: made again
    when a name is missing (the laptop joined another network) or it ends within 30
    days.  No internet is needed, and the tablets trust every later server
    certificate once they trust the root."""
    from cryptography import x509  # noqa: PLC0415  (only for --tls)
    from cryptography.hazmat.primitives import hashes, serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric import ec  # noqa: PLC0415
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID  # noqa: PLC0415

    now = now or datetime.now(UTC)
    folder.mkdir(parents=True, exist_ok=True)
    files = Certificates(folder / "ca.crt", folder / "server.crt", folder / "server.key")
    ca_key_path = folder / "ca.key"

    def write_key(path: Path, key: ec.EllipticCurvePrivateKey) -> None:
        data = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)

    if files.ca.exists() and ca_key_path.exists():
        ca_cert = x509.load_pem_x509_certificate(files.ca.read_bytes())
        loaded = serialization.load_pem_private_key(ca_key_path.read_bytes(), None)
        assert isinstance(loaded, ec.EllipticCurvePrivateKey)
        ca_key = loaded
    else:
        ca_key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                             f"Tournament director on {socket.gethostname()}"),
                          x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Tournament director")])
        ca_cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - timedelta(days=1))
                   .not_valid_after(now + timedelta(days=CA_DAYS))
                   .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                   .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True,
                                                crl_sign=True, content_commitment=False,
                                                key_encipherment=False, data_encipherment=False,
                                                key_agreement=False, encipher_only=False,
                                                decipher_only=False), critical=True)
                   .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                                  critical=False)
                   .sign(ca_key, hashes.SHA256()))
        write_key(ca_key_path, ca_key)
        files.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
        files.cert.unlink(missing_ok=True)

    names = lan_names(host)
    if files.cert.exists() and files.key.exists():
        current = x509.load_pem_x509_certificate(files.cert.read_bytes())
        san = current.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        held = {str(v) for v in san.get_values_for_type(x509.IPAddress)} \
            | set(san.get_values_for_type(x509.DNSName))
        fresh = current.not_valid_after_utc - now > timedelta(days=30)
        if fresh and set(names) <= held and current.issuer == ca_cert.subject:
            return files

    key = ec.generate_private_key(ec.SECP256R1())
    alternatives: list[x509.GeneralName] = []
    for one in names:
        try:
            alternatives.append(x509.IPAddress(ipaddress.ip_address(one)))
        except ValueError:
            alternatives.append(x509.DNSName(one))
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[-1])]))
            .issuer_name(ca_cert.subject).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - timedelta(days=1))
            .not_valid_after(now + timedelta(days=SERVER_DAYS))
            .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    write_key(files.key, key)
    files.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM)
                           + ca_cert.public_bytes(serialization.Encoding.PEM))
    return files


def ca_certificate(instance_path: str | Path) -> tuple[Path, str] | None:
    """The root certificate of ``director serve --tls`` in this instance, if one was
    made, and its SHA-256 fingerprint (for the director to compare on a tablet)."""
    path = Path(instance_path) / "tls" / "ca.crt"
    if not path.is_file():
        return None
    from cryptography import x509  # noqa: PLC0415  (only when there is one)
    from cryptography.hazmat.primitives import hashes  # noqa: PLC0415

    digest = x509.load_pem_x509_certificate(path.read_bytes()).fingerprint(hashes.SHA256())
    pairs = [f"{byte:02X}" for byte in digest]     # in groups of four: it wraps on a phone
    return path, " ".join(":".join(pairs[i:i + 4]) for i in range(0, len(pairs), 4))
