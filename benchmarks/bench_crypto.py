"""crypto_rng throughput: AES-128 of 64 MB against the `cryptography` package (OpenSSL), and
uniform_ with the AES-CTR generators against core's default (mt19937) generator:

    python benchmarks/bench_crypto.py [--threads N] [--mb 64] [--repeats R]

OpenSSL encrypts on one core (into a preallocated buffer with update_into, and, for
reference, into a new bytes object with update()); ours runs on `--threads` cores (default:
all) and on one, into a preallocated tensor.
Every AES implementation this CPU has is timed (the portable one on a smaller input: it is
two orders of magnitude slower). Ratios are throughput ratios: above 1 means we are faster.
Times are medians over interleaved runs (harness.time_interleaved).
"""
import argparse
import os

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)


def _with_threads(n, fn):
    import core

    def run():
        before = core.get_num_threads()
        core.set_num_threads(n)
        try:
            return fn()
        finally:
            core.set_num_threads(before)
    return run


def aes_cases(nbytes, threads):
    """{label: (callable, bytes per call)} for AES-128-CTR and -ECB encryption."""
    import core
    import crypto_rng

    rng = np.random.default_rng(0)
    key_bytes = rng.bytes(16)
    data = rng.integers(0, 256, nbytes, dtype=np.uint8)
    key, x = core.from_numpy(np.frombuffer(key_bytes, np.uint8).copy()), core.from_numpy(data)
    out = core.empty(nbytes, dtype=core.uint8)
    cases = {}
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        raw, buf = data.tobytes(), bytearray(nbytes + 15)
        for mode, make in (("ctr", lambda: modes.CTR(bytes(16))), ("ecb", modes.ECB)):
            def openssl(make=make):
                enc = Cipher(algorithms.AES(key_bytes), make()).encryptor()
                enc.update_into(raw, buf)
            cases[f"{mode}: OpenSSL (cryptography), 1 thread"] = (openssl, nbytes)
        # update() returns a new bytes object: the allocation and page faults show in the time.
        cases["ctr: OpenSSL (cryptography) update(), new output, 1 thread"] = (
            lambda: Cipher(algorithms.AES(key_bytes), modes.CTR(bytes(16))).encryptor().update(raw), nbytes)
    except ImportError:
        print("cryptography is not installed: no OpenSSL columns")
    small = core.from_numpy(data[: nbytes // 64].copy())
    small_out = core.empty(nbytes // 64, dtype=core.uint8)
    for impl in crypto_rng._C._aes_implementations():
        for mode in ("ctr", "ecb"):
            def ours(impl=impl, mode=mode, x=x, out=out):
                crypto_rng._C._set_aes_implementation(impl)
                crypto_rng.encrypt(x, out, key, "aes128", mode)
            if impl == "portable":
                def ours_small(mode=mode):
                    crypto_rng._C._set_aes_implementation("portable")
                    crypto_rng.encrypt(small, small_out, key, "aes128", mode)
                cases[f"{mode}: ours {impl}, {threads} threads ({nbytes // 64 >> 20} MB)"] = (
                    _with_threads(threads, ours_small), nbytes // 64)
                continue
            cases[f"{mode}: ours {impl}, {threads} threads"] = (_with_threads(threads, ours), nbytes)
            cases[f"{mode}: ours {impl}, 1 thread"] = (_with_threads(1, ours), nbytes)
    return cases


def uniform_cases(n, threads):
    import core
    import crypto_rng

    x = core.empty(n)
    gens = {
        "core default generator (mt19937)": None,
        "crypto_rng mt19937 AES-CTR": crypto_rng.create_mt19937_generator(0),
        "crypto_rng random device AES-CTR": crypto_rng.create_random_device_generator(),
    }
    cases = {}
    for label, g in gens.items():
        for t in sorted({threads, 1}, reverse=True):
            cases[f"uniform_ {n >> 20}M float32: {label}, {t} thread{'s' if t > 1 else ''}"] = _with_threads(
                t, lambda g=g: x.uniform_(generator=g))
    return cases


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--mb", type=int, default=64, help="megabytes encrypted per call")
    parser.add_argument("--floats", type=int, default=16, help="millions of floats per uniform_ call")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)

    import core
    import crypto_rng
    import harness

    default_impl = crypto_rng._C._aes_implementation()
    print(f"crypto_rng benchmarks; threads {args.threads} (os.cpu_count()={os.cpu_count()}); AES implementations "
          f"{crypto_rng._C._aes_implementations()} (default {default_impl}); core {core.__version__}")
    if hasattr(os, "getloadavg"):
        print("load average before the run: " + ", ".join(f"{v:.2f}" for v in os.getloadavg()))

    nbytes = args.mb << 20
    cases = aes_cases(nbytes, args.threads)
    try:
        seconds = harness.time_interleaved({k: fn for k, (fn, _) in cases.items()}, repeats=args.repeats)
    finally:
        crypto_rng._C._set_aes_implementation(default_impl)
    rates = {k: cases[k][1] / s / 1e9 for k, s in seconds.items()}
    print(f"\nAES-128 encryption of {args.mb} MB (GB/s = 1e9 bytes/s; ratio = ours / OpenSSL throughput)")
    width = max(map(len, rates))
    for label, rate in rates.items():
        mode = label.split(":")[0]
        base = rates.get(f"{mode}: OpenSSL (cryptography), 1 thread")
        ratio = f"{rate / base:6.2f}x" if base and "OpenSSL" not in label else ""
        print(f"  {label.ljust(width)}  {harness.format_seconds(seconds[label]):>9}  {rate:7.2f} GB/s  {ratio}")

    ucases = uniform_cases(args.floats << 20, args.threads)
    useconds = harness.time_interleaved(ucases, repeats=args.repeats)
    print(f"\nuniform_ of {args.floats}M float32 (ratio = time / core default generator's time, same threads)")
    width = max(map(len, useconds))
    for label, s in useconds.items():
        threads = label.rsplit(", ", 1)[1]
        base = useconds[[k for k in useconds if k.startswith(label.split(":")[0] + ": core default")
                         and k.endswith(threads)][0]]
        print(f"  {label.ljust(width)}  {harness.format_seconds(s):>9}  {(args.floats << 20) / s / 1e9:6.2f} Gfloat/s"
              f"  {s / base:6.2f}x")


if __name__ == "__main__":
    main()
