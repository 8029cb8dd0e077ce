"""The fixture that runs a crypto_rng test once per AES implementation this CPU has."""
import pytest

import crypto_rng


@pytest.fixture(params=crypto_rng._C._aes_implementations())
def aes_impl(request):
    """Switches to each AES implementation (portable, aesni, vaes) for the test."""
    before = crypto_rng._C._aes_implementation()
    crypto_rng._C._set_aes_implementation(request.param)
    try:
        yield request.param
    finally:
        crypto_rng._C._set_aes_implementation(before)
