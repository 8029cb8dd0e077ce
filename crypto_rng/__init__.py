"""tensorzoo crypto_rng: CSPRNG generators and AES-128 encrypt/decrypt (torchcsprng 0.2's API).

    import core, crypto_rng
    g = crypto_rng.create_random_device_generator()     # keys from the OS's CSPRNG
    x = core.empty(1000).uniform_(generator=g)
    g = crypto_rng.create_mt19937_generator(42)          # reproducible
    crypto_rng.encrypt(data, out, key, "aes128", "ctr")  # byte-wise, any dtype

Generators: each sampling call (random_, uniform_, normal_, exponential_, cauchy_,
log_normal_, geometric_, bernoulli_, randint, rand, randn, ...) draws a fresh AES-128 key from
the generator's engine and fills the tensor from AES-128-CTR blocks of that key, counter k
giving element k's bits (torchcsprng's layout), in parallel with the same result as serially.
randperm and multinomial draw from the engine directly.

encrypt / decrypt: cipher "aes128", mode "ecb" or "ctr"; the CTR counter block is the block
index as a little-endian uint64 followed by 8 zero bytes (no nonce).

AES runs on VAES + AVX-512, AES-NI or a constant-time portable implementation, the best the
CPU has; set CRYPTO_RNG_AES=portable|aesni|vaes or CRYPTO_RNG_FORCE_PORTABLE=1 before the
first use to choose (crypto_rng._C._aes_implementation() tells which runs).
"""
import core  # noqa: F401 - loads core._C first: our generators extend its engine class

from crypto_rng._C import (  # noqa: E402
    create_mt19937_generator,
    create_random_device_generator,
    decrypt,
    encrypt,
    supports_cuda,
)

__version__ = "0.2.1"
git_version = "unknown"  # torchcsprng records the commit it was built from; we have none

__all__ = ["supports_cuda", "create_random_device_generator", "create_mt19937_generator", "encrypt", "decrypt"]
