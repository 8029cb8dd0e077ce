"""crypto_rng.encrypt / decrypt: AES-128 test vectors (FIPS-197, NIST SP 800-38A), parity with
the `cryptography` package (OpenSSL) in ECB and in CTR with torchcsprng's counter layout,
round trips for every dtype, layouts, sizes and errors. Tests taking `aes_impl` run once per
AES implementation the CPU has (portable, aesni, vaes)."""
import numpy as np
import pytest

import core
import crypto_rng
from crypto_reference import BLOCK, counter_blocks, pad, ref_ctr, ref_ecb_decrypt, ref_ecb_encrypt
from support import run_python

NIST_KEY = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
NIST_PLAIN = bytes.fromhex(
    "6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
    "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710")


def u8(data):
    return core.from_numpy(np.frombuffer(bytes(data), np.uint8).copy())


def raw(t):
    return t.numpy().tobytes()


def encrypt_bytes(key, data, mode):
    out = core.empty(len(pad(bytes(data))), dtype=core.uint8)
    crypto_rng.encrypt(u8(data), out, u8(key), "aes128", mode)
    return raw(out)


def decrypt_bytes(key, data, mode, size=None):
    out = core.empty(len(data) if size is None else size, dtype=core.uint8)
    crypto_rng.decrypt(u8(data), out, u8(key), "aes128", mode)
    return raw(out)


# ---------------------------------------------------------------------- test vectors

@pytest.mark.parametrize("key, plain, cipher", [
    # FIPS-197 Appendix C.1 (AES-128) and Appendix B (the cipher example).
    ("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"),
    ("2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734", "3925841d02dc09fbdc118597196a0b32"),
])
def test_fips197_block(aes_impl, key, plain, cipher):
    key, plain, cipher = bytes.fromhex(key), bytes.fromhex(plain), bytes.fromhex(cipher)
    assert encrypt_bytes(key, plain, "ecb") == cipher
    assert decrypt_bytes(key, cipher, "ecb") == plain


def test_sp800_38a_ecb(aes_impl):
    # SP 800-38A F.1.1 / F.1.2, ECB-AES128.
    cipher = bytes.fromhex(
        "3ad77bb40d7a3660a89ecaf32466ef97" "f5d3d58503b9699de785895a96fdbaaf"
        "43b1cd7f598ece23881b00e3ed030688" "7b0c785e27e8ad3f8223207104725dd4")
    assert encrypt_bytes(NIST_KEY, NIST_PLAIN, "ecb") == cipher
    assert decrypt_bytes(NIST_KEY, cipher, "ecb") == NIST_PLAIN


def test_sp800_38a_ctr_blocks(aes_impl):
    # SP 800-38A F.5.1 uses a big-endian counter from f0f1..feff, which is not our layout:
    # check the block function on its counter blocks instead (C = P ^ AES(T_i)).
    cipher = bytes.fromhex(
        "874d6191b620e3261bef6864990db6ce" "9806f66b7970fdff8617187bb9fffdff"
        "5ae4df3edbd5d35e5b4f09020db03eab" "1e031dda2fbe03d1792170a0f3009cee")
    t0 = int("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", 16)
    counters = b"".join((t0 + i).to_bytes(16, "big") for i in range(4))
    stream = np.frombuffer(encrypt_bytes(NIST_KEY, counters, "ecb"), np.uint8)
    assert (np.frombuffer(NIST_PLAIN, np.uint8) ^ stream).tobytes() == cipher


def test_ctr_keystream_is_little_endian_block_index(aes_impl):
    # Encrypting zeros gives the keystream: block i = AES_k(i as LE uint64 || 0^64), from 0.
    key = bytes(range(16))
    stream = encrypt_bytes(key, bytes(16 * 5), "ctr")
    assert stream == ref_ecb_encrypt(key, counter_blocks(0, 5))
    assert stream[16:32] == encrypt_bytes(key, (1).to_bytes(8, "little") + bytes(8), "ecb")


# ---------------------------------------------------------------------- parity with OpenSSL

SIZES = [1, 15, 16, 17, 31, 100, 16 * 33 + 5, 200_003]


@pytest.mark.parametrize("mode", ["ecb", "ctr"])
@pytest.mark.parametrize("size", SIZES)
def test_matches_cryptography(aes_impl, mode, size):
    rng = np.random.default_rng(size)
    key, data = rng.bytes(16), rng.bytes(size)
    expected = (ref_ecb_encrypt if mode == "ecb" else ref_ctr)(key, data)
    assert encrypt_bytes(key, data, mode) == expected
    assert decrypt_bytes(key, expected, mode, size) == data
    if mode == "ecb":
        assert ref_ecb_decrypt(key, expected)[:size] == data


def test_large_input_matches_cryptography_on_any_thread_count(aes_impl):
    # 3 MB: parallel chunks start at block offsets other than 0; the result is the serial one.
    rng = np.random.default_rng(7)
    key, data = rng.bytes(16), rng.bytes(3 * 2**20 + 9)
    before = core.get_num_threads()
    try:
        results = {}
        for threads in (1, 2, 3):
            core.set_num_threads(threads)
            results[threads] = (encrypt_bytes(key, data, "ctr"), encrypt_bytes(key, data, "ecb"))
    finally:
        core.set_num_threads(before)
    assert results[1] == results[2] == results[3]
    assert results[1] == (ref_ctr(key, data), ref_ecb_encrypt(key, data))


# ---------------------------------------------------------------------- dtypes and layouts

NUMPY_DTYPES = {
    "bool": (core.bool, np.bool_), "uint8": (core.uint8, np.uint8), "int8": (core.int8, np.int8),
    "int16": (core.int16, np.int16), "int32": (core.int32, np.int32), "int64": (core.int64, np.int64),
    "float16": (core.float16, np.float16), "float32": (core.float32, np.float32),
    "float64": (core.float64, np.float64), "complex64": (core.complex64, np.complex64),
}


def tensor_with_bytes(name, shape, rng):
    """A tensor of dtype `name` and its bytes (random, valid values for bool and bfloat16)."""
    n = int(np.prod(shape))
    if name == "bfloat16":
        bits = rng.integers(0, 2**16, n, dtype=np.uint16) & np.uint16(0xBFFF)  # no inf/nan
        f32 = (bits.astype(np.uint32) << 16).view(np.float32).reshape(shape)
        return core.from_numpy(f32).to(core.bfloat16), bits.tobytes()
    dtype, np_dtype = NUMPY_DTYPES[name]
    if name == "bool":
        values = rng.integers(0, 2, n).astype(np.bool_)
    else:
        values = np.frombuffer(rng.bytes(n * np.dtype(np_dtype).itemsize), np_dtype).copy()
    values = values.reshape(shape)
    return core.from_numpy(values), values.tobytes()


@pytest.mark.parametrize("mode", ["ecb", "ctr"])
@pytest.mark.parametrize("name", list(NUMPY_DTYPES) + ["bfloat16"])
@pytest.mark.parametrize("shape", [(), (5,), (3, 7), (2, 3, 5)])
def test_every_dtype(aes_impl, mode, name, shape):
    rng = np.random.default_rng(abs(hash((name, shape))) % 2**32)
    key = rng.bytes(16)
    x, data = tensor_with_bytes(name, shape, rng)
    out = core.empty(len(pad(data)), dtype=core.uint8)
    assert crypto_rng.encrypt(x, out, u8(key), "aes128", mode) is out
    expected = (ref_ecb_encrypt if mode == "ecb" else ref_ctr)(key, data)
    assert raw(out) == expected
    back = core.zeros(shape, dtype=x.dtype)
    crypto_rng.decrypt(out, back, u8(key), "aes128", mode)
    assert back.shape == x.shape
    assert tensor_bytes(back) == data


def tensor_bytes(t):
    if t.dtype == core.bfloat16:  # no numpy type: its bits are a float32's top half
        return (t.to(core.float32).numpy().view(np.uint32) >> 16).astype(np.uint16).tobytes()
    return t.numpy().tobytes()


@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_output_and_key_of_any_dtype(mode):
    rng = np.random.default_rng(3)
    data = rng.bytes(40)
    key_values = np.frombuffer(rng.bytes(16), np.int32).copy()
    out = core.empty(12, dtype=core.float32)  # 48 bytes
    crypto_rng.encrypt(u8(data), out, core.from_numpy(key_values), "aes128", mode)
    expected = (ref_ecb_encrypt if mode == "ecb" else ref_ctr)(key_values.tobytes(), data)
    assert raw(out) == expected
    back = core.empty(5, dtype=core.int64)  # 40 bytes: the padding is dropped
    crypto_rng.decrypt(out, back, core.from_numpy(key_values), "aes128", mode)
    assert raw(back) == data


def test_key_bytes_in_logical_order():
    # A non-contiguous key is read in logical order (key.contiguous()).
    key = bytes(range(16))
    k = u8(key).view(2, 8).t().contiguous().t()  # logical order equals `key`, memory order does not
    assert not k.is_contiguous()
    out = core.empty(16, dtype=core.uint8)
    crypto_rng.encrypt(u8(bytes(16)), out, k, "aes128", "ecb")
    assert raw(out) == ref_ecb_encrypt(key, bytes(16))


@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_decrypt_drops_the_padding(mode):
    key, data = bytes(range(16)), bytes(range(1, 38))
    enc = encrypt_bytes(key, data, mode)
    assert len(enc) == 48
    assert decrypt_bytes(key, enc, mode, 37) == data
    assert decrypt_bytes(key, enc, mode, 33) == data[:33]
    assert decrypt_bytes(key, enc, mode, 48) == data + bytes(11)  # the zero padding comes back


@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_in_place(mode):
    key, data = u8(bytes(range(16))), bytes(range(64))
    x = u8(data)
    version = x._version
    assert crypto_rng.encrypt(x, x, key, "aes128", mode) is x
    assert raw(x) == encrypt_bytes(bytes(range(16)), data, mode)
    assert x._version > version
    crypto_rng.decrypt(x, x, key, "aes128", mode)
    assert raw(x) == data


def test_overlapping_input_and_output():
    # The output is the input shifted by one block: the input must be read before it is overwritten.
    key = bytes(range(16))
    buf = u8(bytes(range(80)))
    expected = encrypt_bytes(key, bytes(range(64)), "ecb")
    crypto_rng.encrypt(buf[:64], buf[16:], u8(key), "aes128", "ecb")
    assert raw(buf)[16:] == expected


@pytest.mark.parametrize("mode", ["ecb", "ctr"])
def test_non_contiguous_tensors_are_read_in_memory_order(mode):
    rng = np.random.default_rng(11)
    key = rng.bytes(16)
    base = core.from_numpy(rng.standard_normal((6, 8)).astype(np.float32))
    # A transposed view is visited in memory order, as torchcsprng's TensorIterator does.
    out_t, out_base = core.empty(192, dtype=core.uint8), core.empty(192, dtype=core.uint8)
    crypto_rng.encrypt(base.t(), out_t, u8(key), "aes128", mode)
    crypto_rng.encrypt(base, out_base, u8(key), "aes128", mode)
    assert raw(out_t) == raw(out_base)
    # A strided slice: its elements in order.
    sliced = base[:, ::3]
    out = core.empty(len(pad(sliced.contiguous().numpy().tobytes())), dtype=core.uint8)
    crypto_rng.encrypt(sliced, out, u8(key), "aes128", mode)
    ref = ref_ecb_encrypt if mode == "ecb" else ref_ctr
    assert raw(out) == ref(key, sliced.contiguous().numpy().tobytes())
    # Into a non-contiguous output and back.
    target = core.empty(12, 4, dtype=core.float32).t()
    crypto_rng.encrypt(base, target, u8(key), "aes128", mode)
    assert target.t().contiguous().numpy().tobytes() == raw(out_base)
    back = core.empty(8, 6, dtype=core.float32).t()
    crypto_rng.decrypt(target, back, u8(key), "aes128", mode)
    assert np.array_equal(back.t().numpy().ravel(), base.numpy().ravel())  # memory order again


def test_empty_input():
    out = core.empty(0, dtype=core.uint8)
    assert crypto_rng.encrypt(core.empty(0), out, u8(bytes(16)), "aes128", "ctr") is out
    crypto_rng.decrypt(out, core.empty(0), u8(bytes(16)), "aes128", "ecb")


# ---------------------------------------------------------------------- implementations

def test_implementations_listed():
    names = crypto_rng._C._aes_implementations()
    assert names[0] == "portable"
    assert crypto_rng._C._aes_implementation() in names
    assert set(names) <= {"portable", "aesni", "vaes"}


@pytest.mark.parametrize("env, expected", [
    ({"CRYPTO_RNG_FORCE_PORTABLE": "1"}, "portable"),
    ({"CRYPTO_RNG_AES": "portable"}, "portable"),
    ({"CRYPTO_RNG_AES": "aesni"}, "aesni"),
    ({"CRYPTO_RNG_AES": "vaes"}, "vaes"),
])
def test_environment_chooses_the_implementation(env, expected):
    import os

    if expected not in crypto_rng._C._aes_implementations():
        pytest.skip(f"this CPU has no {expected}")
    code = (
        "import core, crypto_rng, numpy as np\n"
        "key = core.from_numpy(np.arange(16, dtype=np.uint8))\n"
        "x = core.from_numpy(np.frombuffer(bytes.fromhex('00112233445566778899aabbccddeeff'), np.uint8).copy())\n"
        "out = core.empty(16, dtype=core.uint8)\n"
        "crypto_rng.encrypt(x, out, key, 'aes128', 'ecb')\n"
        "print(crypto_rng._C._aes_implementation(), out.numpy().tobytes().hex())\n"
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith("CRYPTO_RNG_")}
    result = run_python(code, env={**base, **env})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [expected, "69c4e0d86a7b0430d8cdb78070b4c55a"]


def test_unknown_implementation():
    with pytest.raises(ValueError, match="unknown or unsupported AES implementation 'rot13'"):
        crypto_rng._C._set_aes_implementation("rot13")


# ---------------------------------------------------------------------- errors

KEY = bytes(16)


@pytest.mark.parametrize("call, exc, message", [
    (lambda: crypto_rng.encrypt(u8(bytes(20)), core.empty(16, dtype=core.uint8), u8(KEY), "aes128", "ecb"),
     RuntimeError, r"encrypt\(\): the output has 16 bytes, but it must have the input's size in bytes \(20\) "
                   r"rounded up to whole 16-byte blocks \(32\)"),
    (lambda: crypto_rng.encrypt(u8(bytes(16)), core.empty(32, dtype=core.uint8), u8(KEY), "aes128", "ecb"),
     RuntimeError, r"output has 32 bytes"),
    (lambda: crypto_rng.decrypt(u8(bytes(32)), core.empty(16, dtype=core.uint8), u8(KEY), "aes128", "ecb"),
     RuntimeError, r"decrypt\(\): the output has 16 bytes, but it must have as many bytes as the input \(32\) "
                   r"or up to 15 fewer"),
    (lambda: crypto_rng.decrypt(u8(bytes(32)), core.empty(33, dtype=core.uint8), u8(KEY), "aes128", "ctr"),
     RuntimeError, r"output has 33 bytes"),
    (lambda: crypto_rng.decrypt(u8(bytes(20)), core.empty(20, dtype=core.uint8), u8(KEY), "aes128", "ctr"),
     RuntimeError, r"decrypt\(\): the input has 20 bytes, which is not a whole number of 16-byte blocks"),
    (lambda: crypto_rng.encrypt(u8(bytes(16)), core.empty(16, dtype=core.uint8), u8(KEY), "aes256", "ecb"),
     RuntimeError, r"encrypt\(\): supports the \"aes128\" cipher, \"aes256\" is not supported"),
    (lambda: crypto_rng.decrypt(u8(bytes(16)), core.empty(16, dtype=core.uint8), u8(bytes(8)), "aes128", "ecb"),
     RuntimeError, r"decrypt\(\): the key tensor must have 16 bytes \(128 bits\), but it has 8"),
    (lambda: crypto_rng.encrypt(u8(bytes(16)), core.empty(16, dtype=core.uint8), core.zeros(4), "aes128", "cbc"),
     RuntimeError, r"encrypt\(\): supports the \"ecb\" and \"ctr\" modes, \"cbc\" is not supported"),
    (lambda: crypto_rng.encrypt(u8(bytes(16)), core.zeros(1, dtype=core.uint8).expand(16), u8(KEY), "aes128", "ecb"),
     RuntimeError, r"encrypt\(\): more than one element of the output tensor refers to a single memory location"),
    (lambda: crypto_rng.encrypt(b"0123456789abcdef", core.empty(16, dtype=core.uint8), u8(KEY), "aes128", "ecb"),
     TypeError, r"incompatible function arguments"),
    (lambda: crypto_rng.encrypt(u8(bytes(16)), core.empty(16, dtype=core.uint8), u8(KEY), "aes128"),
     TypeError, r"incompatible function arguments"),
])
def test_bad_input(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_size_errors_come_before_cipher_errors():
    # torchcsprng's order: sizes, then the cipher and its key, then the mode.
    with pytest.raises(RuntimeError, match="output has"):
        crypto_rng.encrypt(u8(bytes(20)), core.empty(16, dtype=core.uint8), u8(bytes(3)), "des", "cbc")
    with pytest.raises(RuntimeError, match="cipher"):
        crypto_rng.encrypt(u8(bytes(16)), core.empty(16, dtype=core.uint8), u8(bytes(3)), "des", "cbc")
