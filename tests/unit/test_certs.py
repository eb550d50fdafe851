"""CA certificates a cold start leaves to load later are loaded, into the same contexts, when asked."""

from __future__ import annotations

import asyncio
import ssl

from refbrowse.daemon.core.certs import CertLoads


def test_a_context_made_while_deferred_gets_its_certificates_once_loaded() -> None:
    expected = ssl.create_default_context().cert_store_stats()["x509_ca"]
    loads = CertLoads()
    with loads.deferred():
        verified = ssl.create_default_context()
        unverified = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        unverified.set_default_verify_paths()
    assert verified.cert_store_stats()["x509_ca"] == 0
    assert unverified.cert_store_stats()["x509_ca"] == 0
    asyncio.run(loads.loaded())
    assert verified.cert_store_stats()["x509_ca"] == expected
    assert unverified.cert_store_stats()["x509_ca"] == expected


def test_outside_the_deferred_window_contexts_load_their_certificates_at_once() -> None:
    load_default, default_paths = ssl.SSLContext.load_default_certs, ssl.SSLContext.set_default_verify_paths
    expected = ssl.create_default_context().cert_store_stats()["x509_ca"]
    with CertLoads().deferred():
        pass
    assert ssl.SSLContext.load_default_certs is load_default
    assert ssl.SSLContext.set_default_verify_paths is default_paths
    assert ssl.create_default_context().cert_store_stats()["x509_ca"] == expected
