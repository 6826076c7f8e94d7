"""``arena certificates``: the files of a TLS cluster, made by one command.

A certificate authority of the organiser's own signs one certificate that
every machine of the cluster (scheduler, workers, the machine running
``arena run``) presents: Dask's TLS is mutual, so only a machine holding a
certificate the authority signed can connect, and what travels between them
(bots, boards, records) is encrypted.
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import os
import shlex
from pathlib import Path

from arena.commands import positive_int
from arena.errors import ArenaError

FILES = {"ca": "ca.pem", "ca_key": "ca-key.pem", "cert": "node.pem", "key": "node-key.pem"}


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "certificates",
        help="make the TLS files of a cluster (a certificate authority and the machines' certificate)",
        description="Make the files of a TLS cluster in DIR: ca.pem (the authority's certificate), node.pem and "
        "node-key.pem (the certificate and key every machine presents), and ca-key.pem (the authority's key: "
        "keep it on this machine only, it makes more certificates). Copy ca.pem, node.pem and node-key.pem to "
        "every machine of the cluster; only machines holding them can connect.",
    )
    parser.add_argument("folder", metavar="DIR", help="where to write the files (made if needed; existing "
                        "files are not overwritten)")
    parser.add_argument("--hosts", nargs="*", default=[], metavar="HOST",
                        help="the machines' names or addresses, written into the certificate (Dask does not "
                        "check them; tools that do will)")
    parser.add_argument("--days", type=positive_int, default=365, help="how long the files are valid (default 365)")
    parser.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ImportError:
        raise ArenaError("making certificates needs the 'cryptography' package: pip install 'arena-tournaments[cluster]'") from None
    folder = Path(args.folder)
    paths = {name: folder / file for name, file in FILES.items()}
    if existing := [str(path) for path in paths.values() if path.exists()]:
        raise ArenaError(f"{', '.join(existing)} exist already: choose another folder, or remove them")
    folder.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)
    until = now + datetime.timedelta(days=args.days)

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("arena cluster authority")).issuer_name(name("arena cluster authority"))
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now).not_valid_after(until)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                       content_commitment=False, key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    alternative = [_san(host, x509, ipaddress) for host in ["localhost", "127.0.0.1", *args.hosts]]
    cert = (x509.CertificateBuilder().subject_name(name("arena cluster machine")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now).not_valid_after(until)
            .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem, private = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8
    _write(paths["ca"], ca.public_bytes(pem), 0o644)
    _write(paths["cert"], cert.public_bytes(pem), 0o644)
    _write(paths["ca_key"], ca_key.private_bytes(pem, private, serialization.NoEncryption()), 0o600)
    _write(paths["key"], key.private_bytes(pem, private, serialization.NoEncryption()), 0o600)
    tls = " ".join(f"--{option} {shlex.quote(str(paths[name]))}"
                   for option, name in (("tls-ca-file", "ca"), ("tls-cert", "cert"), ("tls-key", "key")))
    print(f"made {', '.join(str(p) for p in paths.values())} (valid until {until:%Y-%m-%d}).\n"
          f"Copy ca.pem, node.pem and node-key.pem to every machine (keep ca-key.pem here), then:\n"
          f"  dask scheduler --protocol tls --port 8786 --dashboard-address 127.0.0.1:8787 {tls}\n"
          f"  arena worker tls://SCHEDULER:8786 {tls}\n"
          f"  arena run ... --cluster tls://SCHEDULER:8786 {tls}")
    return 0


def _san(host: str, x509, ipaddress):
    try:
        return x509.IPAddress(ipaddress.ip_address(host))
    except ValueError:
        return x509.DNSName(host)


def _write(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
