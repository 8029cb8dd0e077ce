"""File digests for download checks: sha256 (torch.hub's) and md5 (the dataset tables'),
plus the other algorithms hashlib always has."""
import hashlib

__all__ = ["new_hash", "file_digest", "sha256_file", "HASH_TYPES"]

HASH_TYPES = tuple(sorted(hashlib.algorithms_guaranteed - {"shake_128", "shake_256"}))  # fixed-length digests
_CHUNK = 1 << 20


def new_hash(hash_type):
    """A fresh hashlib object for `hash_type` ("sha256", "md5", ...); ValueError for others."""
    if not isinstance(hash_type, str) or hash_type.lower() not in HASH_TYPES:
        raise ValueError(f"unsupported hash_type {hash_type!r}: expected one of {', '.join(HASH_TYPES)}")
    return hashlib.new(hash_type.lower())


def file_digest(file, hash_type="sha256"):
    """Hex digest of a path or of a binary file object read from its current position to the end."""
    digest = new_hash(hash_type)
    if hasattr(file, "read"):
        for chunk in iter(lambda: file.read(_CHUNK), b""):
            digest.update(chunk)
        return digest.hexdigest()
    with open(file, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_file(path):
    return file_digest(path, "sha256")
