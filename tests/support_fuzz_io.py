"""Fuzz families of issue 27 that touch files and sockets: hub.extract_archive on hostile tar
and zip files, and hub.download_url_to_file against a local server that stalls, drops, lies
about lengths or is given wrong hashes. Each case is Python source for the fuzz child
(tests/support_fuzz.py); it checks its own outcome and raises AssertionError on a wrong one
(a file written outside the target, a partial file kept, bytes that differ), so the child's
verdict counts it. Expected hub errors are caught inside the case."""
import random

# --- archives: each case builds one archive in a sandbox, extracts it into sandbox/target, and
# checks that nothing lands outside the target and that a refused archive leaves the target empty.
_ARCHIVE_PRELUDE = r'''
import io, os, stat, struct, tarfile, tempfile, zipfile
import hub
from hub._errors import ArchiveError

def tar_bytes(members, mode="w"):
    """members: (name, data or None for a dir, kind, linkname)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tar:
        for name, data, kind, link in members:
            info = tarfile.TarInfo(name)
            info.type, info.linkname = kind, link
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()

def zip_bytes(members):
    """members: (name, data, unix mode)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data, mode in members:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return buf.getvalue()

def extract(raw, suffix):
    with tempfile.TemporaryDirectory() as sandbox:
        archive, target = os.path.join(sandbox, "a" + suffix), os.path.join(sandbox, "target")
        with open(archive, "wb") as f:
            f.write(raw)
        try:
            listed = hub.extract_archive(archive, target)
            refused = False
        except ArchiveError:  # UnsafeArchiveError included
            listed, refused = [], True
        outside = sorted(set(os.listdir(sandbox)) - {"a" + suffix, "target"})
        assert not outside, f"extraction wrote outside the target: {outside}"
        found = [os.path.join(d, n) for d, _, names in os.walk(target) for n in names] if os.path.isdir(target) else []
        for path in found:
            assert not os.path.islink(path), f"a link was extracted: {path}"
        if refused:
            assert not found, f"a refused archive left files behind: {found}"
        else:
            assert sorted(found) == sorted(set(listed)), (found, listed)
        return refused
'''

_SAFE = [("a.txt", b"hello", "0", ""), ("d", None, "5", ""), ("d/b.bin", bytes(range(256)) * 8, "0", "")]


def _tar_members(spec):
    kinds = {"file": "tarfile.REGTYPE", "dir": "tarfile.DIRTYPE", "sym": "tarfile.SYMTYPE", "hard": "tarfile.LNKTYPE",
             "fifo": "tarfile.FIFOTYPE", "chr": "tarfile.CHRTYPE"}
    return "[" + ", ".join(f"({name!r}, {data!r}, {kinds[kind]}, {link!r})" for name, data, kind, link in spec) + "]"


def archive_cases(count=40, seed=0):
    """(case id, source): hostile members, huge declared sizes, truncation and mutation."""
    hostile_tar = {
        "dotdot": [("../evil.txt", b"x", "file", "")],
        "deep_dotdot": [("d/../../evil.txt", b"x", "file", "")],
        "absolute": [("/tmp/tz_fuzz_evil.txt", b"x", "file", "")],
        "symlink_out": [("link", None, "sym", "/etc")],
        "symlink_then_write": [("link", None, "sym", ".."), ("link/evil.txt", b"x", "file", "")],
        "hardlink_out": [("hard", None, "hard", "/etc/passwd")],
        "fifo": [("pipe", None, "fifo", "")],
        "char_device": [("tty", None, "chr", "")],
        "backslash_dotdot": [("..\\evil.txt", b"x", "file", "")],
        "dup_names": [("a.txt", b"one", "file", ""), ("a.txt", b"two", "file", "")],
    }
    cases = []
    for name, spec in hostile_tar.items():
        members = _tar_members([(n, d, k, l) for n, d, k, l in spec])
        expect_refused = name not in ("dup_names", "backslash_dotdot")
        check = "assert refused" if expect_refused else "pass"
        cases.append((f"archive[tar:{name}]", _ARCHIVE_PRELUDE + f"refused = extract(tar_bytes({members}), '.tar')\n{check}"))
    hostile_zip = {
        "dotdot": [("../evil.txt", "b'x'", 0o100644)],
        "absolute": [("/tmp/tz_fuzz_evil.txt", "b'x'", 0o100644)],
        "drive": [("C:/evil.txt", "b'x'", 0o100644)],
        "symlink": [("link", "b'/etc/passwd'", 0o120777)],
    }
    for name, spec in hostile_zip.items():
        members = "[" + ", ".join(f"({n!r}, {d}, {m})" for n, d, m in spec) + "]"
        cases.append((f"archive[zip:{name}]", _ARCHIVE_PRELUDE + f"assert extract(zip_bytes({members}), '.zip')"))
    # Declared sizes far beyond the bytes present: read as truncation, never allocated or written.
    cases.append(("archive[tar:huge_declared_size]", _ARCHIVE_PRELUDE + (
        "raw = bytearray(tar_bytes([('big.bin', b'x' * 10, tarfile.REGTYPE, '')]))\n"
        "raw[124:136] = b'%011o\\0' % (2**33 - 1)  # the size field: 8 GiB\n"
        "raw[148:156] = b'        '\n"
        "raw[148:155] = b'%06o\\0' % sum(raw[:512])\n"
        "assert extract(bytes(raw), '.tar')")))
    cases.append(("archive[zip:huge_declared_size]", _ARCHIVE_PRELUDE + (
        "raw = bytearray(zip_bytes([('big.bin', b'x' * 10, 0o100644)]))\n"
        "cd = raw.rfind(b'PK\\x01\\x02')\n"
        "raw[22:26] = raw[cd + 24:cd + 28] = struct.pack('<I', 2**32 - 2)  # uncompressed size: 4 GiB\n"
        "assert extract(bytes(raw), '.zip')")))
    rng = random.Random(seed)
    safe = _tar_members(_SAFE_SPEC)
    for i in range(count):
        kind = rng.choice([".tar", ".tar.gz", ".zip"])
        build = (f"zip_bytes([(n, d or b'', 0o100644) for n, d, k, _ in {safe} if d is not None])" if kind == ".zip"
                 else f"tar_bytes({safe}, {'w:gz' if kind == '.tar.gz' else 'w'!r})")
        if rng.random() < 0.5:
            cut = rng.random()
            change = f"raw = raw[:int(len(raw) * {cut:.3f})]"
            label = f"cut {cut:.3f}"
        else:
            pos, byte = rng.randrange(1 << 14), rng.randrange(256)
            change = f"raw = bytearray(raw); raw[{pos} % len(raw)] = {byte}; raw = bytes(raw)"
            label = f"byte {pos}={byte}"
        cases.append((f"archive[{kind[1:]}:{label}]", _ARCHIVE_PRELUDE + f"raw = {build}\n{change}\nextract(raw, {kind!r})"))
    return cases


_SAFE_SPEC = [(n, d, {"0": "file", "5": "dir"}[k], l) for n, d, k, l in _SAFE]

# --- hub downloads: one local server per case (tests/support_http.py routes); the case states
# the outcome it expects (None: a hub error and nothing left behind).
_HUB_PRELUDE = r'''
import hashlib, os, tempfile
from support_http import serving
from hub import download_url_to_file
from hub._errors import HubError
DATA = bytes(range(256)) * 512
os.environ["TENSORZOO_HUB_DOWNLOAD_TIMEOUT"] = "1.5"

def fetch(mode, hash_prefix=None, resume=False, allow_unknown_length=False):
    """The bytes saved, or None after a hub error; checks what is left on disk either way."""
    with serving() as server, tempfile.TemporaryDirectory() as tmp:
        url = server.add("/f.bin", 500 if mode == "status" else DATA, mode=mode)
        dst = os.path.join(tmp, "f.bin")
        try:
            download_url_to_file(url, dst, hash_prefix, progress=False, resume=resume,
                                 allow_unknown_length=allow_unknown_length)
        except HubError:
            assert not os.path.exists(dst), "a failed download left its destination"
            assert not [n for n in os.listdir(tmp) if n.endswith(".tmp")], "a failed download left a temp file"
            return None
        with open(dst, "rb") as f:
            return f.read()
'''

# mode -> what the file holds without a hash: None (refused), "whole" or "declared" (the
# Content-Length the server claimed, fewer bytes than it sent: nothing can tell).
_HUB_MODES = {
    "ok": "whole", "norange": "whole", "truncate": None, "long_length": None, "short_length": "declared",
    "drop_chunked": None, "unsized": None, "unsized_cut": None, "unsized_ranged": "whole",
    "unsized_cut_ranged": None, "trickle": None, "stall": None, "status": None, "cut_once": None, "drip": None,
}
_RESUMED = {"cut_once": "whole", "drip": None, "truncate": None}  # with resume=True
_ARGS = {"plain": "", "right_hash": ", hashlib.sha256(DATA).hexdigest()[:12]", "wrong_hash": ", '0' * 12",
         "resume": ", resume=True", "allow_unknown_length": ", allow_unknown_length=True"}
_HOLDS = {None: "None", "whole": "DATA", "declared": "DATA[:-100]", "half": "DATA[:len(DATA) // 2]"}


def _expected(mode, variant):
    plain = _HUB_MODES[mode]
    if variant == "plain":
        return plain
    if variant == "right_hash":  # vouches for a whole unsized body, refuses everything else that is not whole
        return "whole" if plain == "whole" or mode == "unsized" else None
    if variant == "resume":
        return _RESUMED[mode]
    if variant == "allow_unknown_length":  # the caller vouches: kept as received
        return "half" if "cut" in mode else "whole"
    return None  # a wrong hash


def hub_cases():
    cases = []
    for mode in _HUB_MODES:
        variants = ["plain", "right_hash", "wrong_hash"]
        variants += ["resume"] if mode in _RESUMED else []
        variants += ["allow_unknown_length"] if mode.startswith("unsized") else []
        for variant in variants:
            want = _HOLDS[_expected(mode, variant)]
            check = f"got = fetch({mode!r}{_ARGS[variant]})\nassert got == {want}, (None if got is None else len(got))"
            cases.append((f"hub[{mode}:{variant}]", _HUB_PRELUDE + check))
    return cases
