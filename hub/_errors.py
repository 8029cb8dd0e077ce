"""The hub's exceptions. All are RuntimeErrors, like torch.hub's, so `except RuntimeError` still works."""

__all__ = ["HubError", "DownloadError", "HashMismatchError", "CorruptCacheError", "ArchiveError", "UnsafeArchiveError"]


class HubError(RuntimeError):
    """Base class of the hub's own errors."""


class DownloadError(HubError):
    """A download failed: no network, HTTP error, dropped connection or truncated body.
    No file is left at the destination."""


class HashMismatchError(HubError):
    """Downloaded bytes whose sha256 does not start with the expected prefix (not kept)."""


class CorruptCacheError(HubError):
    """A cached file fails its hash re-check or cannot be loaded; delete it to download again."""


class ArchiveError(HubError):
    """An archive that cannot be extracted: corrupt, truncated or of an unknown kind.
    Nothing from it is left in the target directory."""


class UnsafeArchiveError(ArchiveError):
    """An archive member that would land outside the target directory (an absolute path,
    '..', a link) or is not a plain file or directory (a device, a FIFO)."""
