"""extract_archive: zip, tar (plain, .gz/.tgz, .xz, .bz2) and single-file .gz/.xz/.bz2.

Safe and all-or-nothing:
- every member is checked before it is written: absolute paths, '..' components, symbolic and
  hard links, devices and FIFOs are refused (UnsafeArchiveError), so nothing can land outside
  the target directory or point out of it;
- members are written into a private staging directory inside the target and moved into
  place only once the whole archive has been read, so a corrupt or truncated archive
  (ArchiveError) or a refused member leaves nothing behind;
- files already present are kept unless `overwrite` (torchtext's rule), and still listed.
"""
import bz2
import contextlib
import functools
import gzip
import lzma
import os
import re
import shutil
import stat
import tarfile
import tempfile
import zipfile

from hub._atomic import atomic_open
from hub._errors import ArchiveError, UnsafeArchiveError

__all__ = ["extract_archive", "archive_kind", "ARCHIVE_SUFFIXES"]

_TAR_MODES = ((".tar.gz", "r:gz"), (".tgz", "r:gz"), (".tar.xz", "r:xz"), (".txz", "r:xz"),
              (".tar.bz2", "r:bz2"), (".tbz", "r:bz2"), (".tbz2", "r:bz2"), (".tar", "r:"))
_SINGLE_OPENERS = ((".gz", gzip.open), (".xz", lzma.open), (".bz2", bz2.open))
ARCHIVE_SUFFIXES = tuple(s for s, _ in _TAR_MODES) + (".zip",) + tuple(s for s, _ in _SINGLE_OPENERS)
_CHUNK = 1 << 20


class _Corrupt(Exception):
    """Internal: reading the archive failed (the archive's fault, not the disk's)."""


def archive_kind(path):
    """'tar', 'zip' or 'single' (one compressed file) from the file name; None if unknown."""
    lower = os.fspath(path).lower()
    if any(lower.endswith(s) for s, _ in _TAR_MODES):
        return "tar"
    if lower.endswith(".zip"):
        return "zip"
    if any(lower.endswith(s) for s, _ in _SINGLE_OPENERS):
        return "single"
    return None


def _relative_name(archive, name):
    """The member's path inside the target directory, or UnsafeArchiveError."""
    unified = name.replace("\\", "/")
    if unified.startswith("/") or re.match(r"^[A-Za-z]:", unified):
        raise UnsafeArchiveError(f"extract_archive(): refusing {archive}: member {name!r} has an absolute path")
    parts = [p for p in unified.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafeArchiveError(f"extract_archive(): refusing {archive}: member {name!r} escapes the target "
                                 f"directory ('..')")
    return os.path.join(*parts) if parts else None


def _reading(iterable):
    """Iterates, turning any failure of the archive's reader into _Corrupt."""
    iterator = iter(iterable)
    while True:
        try:
            item = next(iterator)
        except StopIteration:
            return
        except Exception as e:  # tarfile/zipfile/zlib/lzma/bz2 errors of a damaged archive
            raise _Corrupt(f"{type(e).__name__}: {e}") from e
        yield item


def _copy(src, dst):
    """Copies src into dst; returns the number of bytes."""
    n = 0
    for chunk in _reading(iter(lambda: src.read(_CHUNK), b"")):
        dst.write(chunk)
        n += len(chunk)
    return n


@contextlib.contextmanager
def _opened(open_it):
    """The file object open_it() returns, closed afterwards; failing to open is the archive's fault."""
    try:
        f = open_it()
    except Exception as e:  # tarfile/zipfile errors of a damaged archive
        raise _Corrupt(f"{type(e).__name__}: {e}") from e
    with f:
        yield f


class _Plan:
    """What one extraction writes: staged files (in archive order) and directories."""

    def __init__(self, archive, to_path, staging, overwrite):
        self.archive, self.to_path, self.staging, self.overwrite = archive, to_path, staging, overwrite
        self.files, self.dirs = [], []

    def add(self, rel, is_dir, open_member, mode, size):
        """Records a checked member; stages a file's bytes unless an existing file is kept.
        A member whose bytes differ from its declared `size` is corrupt."""
        if rel is None:
            return
        if is_dir:
            self.dirs.append(rel)
            return
        if rel not in self.files:
            self.files.append(rel)
        if not self.overwrite and os.path.lexists(os.path.join(self.to_path, rel)):
            return
        staged = os.path.join(self.staging, rel)
        os.makedirs(os.path.dirname(staged), exist_ok=True)
        with _opened(open_member) as src, open(staged, "wb") as dst:
            written = _copy(src, dst)
        if written != size:  # zipfile checks the CRC, not the size a header declares
            raise _Corrupt(f"member {rel!r} declares {size} bytes but holds {written}")
        if mode & stat.S_IXUSR:  # keep scripts executable
            os.chmod(staged, os.stat(staged).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def _refuse(plan, name, why):
    raise UnsafeArchiveError(f"extract_archive(): refusing {plan.archive}: member {name!r} {why}")


def _stage_tar(plan, mode):
    with _opened(functools.partial(tarfile.open, plan.archive, mode)) as tar:
        for member in _reading(tar):
            rel = _relative_name(plan.archive, member.name)
            if member.issym() or member.islnk():
                _refuse(plan, member.name, f"is a link (to {member.linkname!r}); links are never extracted")
            if not (member.isfile() or member.isdir()):
                _refuse(plan, member.name, "is a device or special file")
            plan.add(rel, member.isdir(), functools.partial(tar.extractfile, member), member.mode, member.size)


def _stage_zip(plan):
    with _opened(functools.partial(zipfile.ZipFile, plan.archive)) as zf:
        for info in zf.infolist():
            rel = _relative_name(plan.archive, info.filename)
            unix_mode = info.external_attr >> 16
            if stat.S_ISLNK(unix_mode):
                _refuse(plan, info.filename, "is a symbolic link; links are never extracted")
            plan.add(rel, info.is_dir(), functools.partial(zf.open, info), unix_mode, info.file_size)


def _inside(root, path):
    root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == root or real.startswith(root + os.sep)


def _commit(plan):
    """Moves the staged files into the target (each rename atomic); returns the listed paths."""
    for rel in plan.dirs:
        os.makedirs(os.path.join(plan.to_path, rel), exist_ok=True)
    for rel in plan.files:
        staged = os.path.join(plan.staging, rel)
        if not os.path.exists(staged):
            continue  # kept the existing file
        target = os.path.join(plan.to_path, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not _inside(plan.to_path, os.path.dirname(target)):  # a directory there links elsewhere
            raise UnsafeArchiveError(f"extract_archive(): refusing to write {target}: a directory on its way links "
                                     f"outside {plan.to_path}")
        os.replace(staged, target)
    return [os.path.join(plan.to_path, rel) for rel in plan.files]


def _extract_single(from_path, to_path, overwrite):
    lower = from_path.lower()
    suffix, opener = next((s, o) for s, o in _SINGLE_OPENERS if lower.endswith(s))
    target = os.path.join(to_path, os.path.basename(from_path)[:-len(suffix)])
    if overwrite or not os.path.exists(target):
        with opener(from_path, "rb") as src, atomic_open(target, "wb") as dst:
            _copy(src, dst)
    return [target]


def extract_archive(from_path, to_path=None, overwrite=False):
    """Extracts an archive into `to_path` (default: the archive's directory).

    Args:
        from_path (str): a .zip, .tar, .tar.gz/.tgz, .tar.xz/.txz, .tar.bz2/.tbz2 archive, or a
            single compressed file (.gz, .xz, .bz2: it becomes the file without the suffix).
        to_path (str, optional): the target directory (created if needed).
        overwrite (bool): replace files that already exist (default: keep them).

    Returns:
        list of str: the paths of the archive's files under `to_path`, in archive order.

    Raises:
        UnsafeArchiveError: a member with an absolute path, '..', a link, or a device.
        ArchiveError: a corrupt or truncated archive, or an unknown kind. In both cases no
            file of the archive is left in `to_path`.
    """
    from_path = os.fspath(from_path)
    to_path = os.path.dirname(from_path) if to_path is None else os.fspath(to_path)
    kind = archive_kind(from_path)
    if kind is None:
        raise ArchiveError(f"extract_archive(): cannot extract {from_path}: unknown archive kind (supported: "
                           f"{', '.join(ARCHIVE_SUFFIXES)})")
    if not os.path.isfile(from_path):
        raise FileNotFoundError(f"extract_archive(): no archive at {from_path}")
    os.makedirs(to_path or ".", exist_ok=True)
    try:
        if kind == "single":
            return _extract_single(from_path, to_path, overwrite)
        staging = tempfile.mkdtemp(prefix=".extract-", dir=to_path or ".")
        try:
            plan = _Plan(from_path, to_path, staging, overwrite)
            if kind == "zip":
                _stage_zip(plan)
            else:
                _stage_tar(plan, next(m for s, m in _TAR_MODES if from_path.lower().endswith(s)))
            return _commit(plan)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except _Corrupt as e:
        raise ArchiveError(f"extract_archive(): {from_path} is corrupt or truncated ({e}); nothing was extracted "
                           f"to {to_path or '.'}. Delete it to download it again.") from e.__cause__
