"""This laptop on the room's network: the address that tablets and phones reach it at.

Used by ``director serve`` (the addresses it prints) and by the dealer pairing page
(the QR codes), so it sits below both.
"""

from __future__ import annotations

import socket


def lan_address() -> str | None:
    """The machine's address on the local network, if it has one (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address
