"""Reference AES for the crypto_rng tests: the `cryptography` package (OpenSSL), a test-only
dependency, with torchcsprng's counter layout."""
import numpy as np
import pytest

pytest.importorskip("cryptography")
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes  # noqa: E402

BLOCK = 16


def pad(data):
    return data + b"\0" * (-len(data) % BLOCK)


def ref_ecb_encrypt(key, data):
    enc = Cipher(algorithms.AES(bytes(key)), modes.ECB()).encryptor()
    return enc.update(pad(bytes(data))) + enc.finalize()


def ref_ecb_decrypt(key, data):
    dec = Cipher(algorithms.AES(bytes(key)), modes.ECB()).decryptor()
    return dec.update(bytes(data)) + dec.finalize()


def counter_blocks(first, count):
    """torchcsprng's CTR counter blocks: the index as a little-endian uint64, then 8 zero bytes."""
    blocks = np.zeros((count, 2), dtype="<u8")
    blocks[:, 0] = np.arange(first, first + count, dtype="<u8")
    return blocks.tobytes()


def ref_keystream(key, nblocks, first=0):
    return ref_ecb_encrypt(key, counter_blocks(first, nblocks))


def ref_ctr(key, data):
    data = pad(bytes(data))
    stream = np.frombuffer(ref_keystream(key, len(data) // BLOCK), np.uint8)
    return (np.frombuffer(data, np.uint8) ^ stream).tobytes()
