"""torch.hub's repository form: a hubconf.py in a local directory or a GitHub repo's zip archive.

GitHub archives come from https://github.com/{owner}/{name}/archive/{branch}.zip, or from
$TENSORZOO_HUB_GITHUB in place of https://github.com (a mirror, or a local server in tests),
and are unpacked into <hub_dir>/<owner>_<name>_<branch>.
"""
import contextlib
import importlib.util
import os
import shutil
import sys
import tempfile
import warnings

from hub._archive import extract_archive
from hub._dirs import get_dir
from hub._download import download_url_to_file

__all__ = ["get_cache_or_reload", "load_local", "list_entrypoints", "entrypoint_doc"]

ENV_GITHUB = "TENSORZOO_HUB_GITHUB"
GITHUB_BASE = "https://github.com"
MASTER_BRANCH = "master"
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
_TRUSTED_REPO_OWNERS = ("facebookresearch", "facebookincubator", "pytorch", "fairinternal")


def _parse_repo_info(github):
    repo_info, _, branch = github.partition(":")
    parts = repo_info.split("/")
    if len(parts) != 2 or not all(parts) or (":" in github and not branch):
        raise ValueError(f'Invalid GitHub repo "{github}": expected "repo_owner/repo_name[:branch]"')
    return parts[0], parts[1], branch or MASTER_BRANCH


def _archive_url(owner, name, branch):
    base = os.environ.get(ENV_GITHUB) or GITHUB_BASE
    return f"{base.rstrip('/')}/{owner}/{name}/archive/{branch}.zip"


def _check_repo_is_trusted(hub_dir, owner, name, repo_dir, trust_repo):
    """torch >= 1.12's trust_repo: None warns about unknown repos, False/'check' ask, True records."""
    trusted_file = os.path.join(hub_dir, "trusted_list")
    trusted = set()
    if os.path.exists(trusted_file):
        with open(trusted_file) as f:
            trusted = {line.strip() for line in f}
    owner_name = f"{owner}_{name}"
    is_trusted = owner_name in trusted or os.path.isdir(repo_dir) or owner in _TRUSTED_REPO_OWNERS
    if trust_repo is None:
        if not is_trusted:
            warnings.warn(f"You are about to download and run code from an untrusted repository ({owner}/{name}). "
                          "Pass trust_repo=True to trust it, or trust_repo='check' to be asked.")
        return
    if trust_repo is False or (trust_repo == "check" and not is_trusted):
        response = input(f"The repository {owner_name} does not belong to the list of trusted repositories "
                         "and as such cannot be downloaded. Do you trust this repository and wish to add it "
                         "to the trusted list of repositories (y/N)?")
        if response.lower() in ("n", "no", ""):
            raise RuntimeError("Untrusted repository.")
        if response.lower() not in ("y", "yes"):
            raise ValueError(f"Unrecognized response {response}.")
    if owner_name not in trusted:
        with open(trusted_file, "a") as f:
            f.write(owner_name + "\n")


def _extract_single_top_dir(zip_path, url, into):
    """Unpacks a GitHub archive (one top-level folder) into `into`; returns that folder's path."""
    import zipfile

    try:
        with zipfile.ZipFile(zip_path) as z:
            tops = {info.filename.replace("\\", "/").split("/")[0] for info in z.infolist()}
    except zipfile.BadZipFile as e:
        raise RuntimeError(f"hub: what {url} sent is not a valid zip archive ({e})") from e
    if len(tops) != 1:
        raise RuntimeError(f"hub: {url} is not a GitHub archive (expected one top-level folder, "
                           f"got {sorted(tops)})")
    extract_archive(zip_path, into)  # refuses members escaping `into`
    return os.path.join(into, tops.pop())


def get_cache_or_reload(github, force_reload=False, verbose=True, trust_repo=None):
    """The local directory of a GitHub repo, downloading its archive unless cached."""
    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    owner, name, branch = _parse_repo_info(github)
    normalized_branch = branch.replace("/", "_")
    repo_dir = os.path.join(hub_dir, "_".join([owner, name, normalized_branch]))
    _check_repo_is_trusted(hub_dir, owner, name, repo_dir, trust_repo)
    if not force_reload and os.path.isdir(repo_dir):
        if verbose:
            sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir
    url = _archive_url(owner, name, branch)
    work = tempfile.mkdtemp(prefix=".repo.", dir=hub_dir)  # private to this call: concurrent loads don't collide
    try:
        archive = os.path.join(work, normalized_branch + ".zip")
        if verbose:
            sys.stderr.write(f'Downloading: "{url}" to {archive}\n')
        download_url_to_file(url, archive, progress=False)
        extracted = _extract_single_top_dir(archive, url, os.path.join(work, "src"))
        if os.path.isdir(repo_dir):
            shutil.rmtree(repo_dir)
        try:
            os.replace(extracted, repo_dir)
        except OSError:  # another process put a fresh copy there first
            if not os.path.isdir(repo_dir):
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return repo_dir


@contextlib.contextmanager
def _on_sys_path(directory):
    sys.path.insert(0, directory)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(directory)


def _import_hubconf(repo_dir):
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise RuntimeError(f"hub: no {MODULE_HUBCONF} in {repo_dir}")
    spec = importlib.util.spec_from_file_location("hubconf", path)
    module = importlib.util.module_from_spec(spec)
    with _on_sys_path(repo_dir):
        spec.loader.exec_module(module)
    return module


def _module_exists(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a missing parent package of a dotted name
        return False


def _check_dependencies(module):
    dependencies = getattr(module, VAR_DEPENDENCY, None)
    if dependencies is not None:
        missing = [pkg for pkg in dependencies if not _module_exists(pkg)]
        if missing:
            raise RuntimeError("Missing dependencies: {}".format(", ".join(missing)))


def _load_entry(module, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    _check_dependencies(module)
    func = getattr(module, model, None)
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def load_local(hubconf_dir, model, *args, **kwargs):
    """Calls entrypoint `model` of the hubconf.py in `hubconf_dir` with the remaining arguments."""
    hubconf_dir = os.path.expanduser(os.fspath(hubconf_dir))
    module = _import_hubconf(hubconf_dir)
    entry = _load_entry(module, model)
    with _on_sys_path(hubconf_dir):  # entrypoints may import the repo's modules lazily
        return entry(*args, **kwargs)


def hubconf_entrypoints(repo_dir):
    """name -> callable: every public callable of the hubconf.py in `repo_dir` (torch.hub.list's
    rule, imported helpers included)."""
    module = _import_hubconf(repo_dir)
    return {name: getattr(module, name) for name in dir(module)
            if callable(getattr(module, name)) and not name.startswith("_")}


def list_entrypoints(repo_dir):
    return list(hubconf_entrypoints(repo_dir))


def entrypoint_doc(repo_dir, model):
    return _load_entry(_import_hubconf(repo_dir), model).__doc__
