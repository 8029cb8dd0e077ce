"""tensorzoo hub: load models and weights by name, with download, cache and hash checks (mirrors torch.hub 1.8).

Two ways to load:
- by registered name: ``hub.load("mobilenet_v3_large", pretrained=True)``; ``hub.list()``
  lists the names, ``hub.help(name)`` shows a builder's documentation;
- torch.hub's repository form: ``hub.load("owner/repo[:branch]", "entry", *args, source="github")``
  or ``hub.load("/path/to/dir", "entry", source="local")`` through the repo's hubconf.py.

Files live under ``$TENSORZOO_HOME/hub`` (default ``~/.cache/tensorzoo/hub``), weights under
``<hub>/checkpoints``. ``$TENSORZOO_HUB_MIRROR`` serves https://download.pytorch.org/models/
from another base URL or directory; ``$TENSORZOO_HUB_GITHUB`` replaces https://github.com.

The download and archive pieces are shared by the domain packages' datasets:
``download_url_to_file`` (sha256 or md5 checks, resumable with HTTP Range, Google Drive links),
``extract_archive`` (zip/tar/gz, refusing members that escape the target) and ``file_digest``.
"""
import warnings

from hub._archive import extract_archive
from hub._checkpoints import HASH_REGEX, load_state_dict_from_url
from hub._dirs import ENV_TENSORZOO_HOME, get_dir, set_dir
from hub._download import ENV_MIRROR, OFFICIAL_BASE, READ_DATA_CHUNK, download_url_to_file, partial_path
from hub._errors import (ArchiveError, CorruptCacheError, DownloadError, HashMismatchError, HubError,
                         UnsafeArchiveError)
from hub._hashing import file_digest
from hub._registry import register
from hub._repo import ENV_GITHUB, MASTER_BRANCH, MODULE_HUBCONF, VAR_DEPENDENCY
from hub._api import help, list, load  # noqa: A004 - torch.hub's names

__all__ = ["load", "list", "help", "load_state_dict_from_url", "download_url_to_file", "get_dir", "set_dir",
           "register", "extract_archive", "file_digest", "partial_path", "HASH_REGEX", "HubError", "DownloadError",
           "HashMismatchError", "CorruptCacheError", "ArchiveError", "UnsafeArchiveError"]


def _download_url_to_file(url, dst, hash_prefix=None, progress=True):
    warnings.warn("hub._download_url_to_file has been renamed to hub.download_url_to_file to be a public API, "
                  "_download_url_to_file will be removed in after 0.4.0 release")
    download_url_to_file(url, dst, hash_prefix, progress)
