"""hub.load / hub.list / hub.help: a registered model name, or torch.hub's repo-or-directory form."""
import builtins

from hub import _registry, _repo

__all__ = ["load", "list", "help"]

_SOURCES = ("github", "local")


def _is_repo_call(args, kwargs):
    """torch.hub's form names an entrypoint after the repo: load(repo_or_dir, "model", ...)."""
    return (len(args) > 0 and isinstance(args[0], str)) or "model" in kwargs or "source" in kwargs


def _load_registered(name, pretrained=True, progress=True, **kwargs):
    return _registry.get_builder(name)(pretrained=pretrained, progress=progress, **kwargs)


def _load_repo(repo_or_dir, model, *args, **kwargs):
    source = kwargs.pop("source", "github")
    force_reload = kwargs.pop("force_reload", False)
    verbose = kwargs.pop("verbose", True)
    trust_repo = kwargs.pop("trust_repo", None)
    kwargs.pop("skip_validation", None)  # torch >= 1.9: validates forks through the GitHub API; not needed here
    if not isinstance(source, str) or source.lower() not in _SOURCES:
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source.lower() == "github":
        repo_or_dir = _repo.get_cache_or_reload(repo_or_dir, force_reload, verbose, trust_repo)
    return _repo.load_local(repo_or_dir, model, *args, **kwargs)


def load(repo_or_dir, *args, **kwargs):
    """Loads a model.

    ``load(name, pretrained=True, progress=True, **kwargs)`` builds the registered model `name`
    (see hub.list()), with ImageNet weights unless ``pretrained=False``; kwargs go to the builder.

    ``load(repo_or_dir, model, *args, source='github', force_reload=False, verbose=True,
    trust_repo=None, **kwargs)`` is torch.hub's form: calls entrypoint `model` of the
    hubconf.py of a GitHub repo ``"owner/name[:branch]"`` (branch default master) or of a
    local directory (``source='local'``), after checking its ``dependencies``.
    """
    if _is_repo_call(args, kwargs):
        if args and isinstance(args[0], str):
            model, args = args[0], args[1:]
        else:
            model = kwargs.pop("model", None)
            if model is None:
                raise TypeError("hub.load(): the repo form needs the entrypoint name: load(repo_or_dir, model, ...)")
        return _load_repo(repo_or_dir, model, *args, **kwargs)
    return _load_registered(repo_or_dir, *args, **kwargs)


def list(github=None, force_reload=False, skip_validation=False, trust_repo=None):  # noqa: A001
    """The registered model names (no argument), or the entrypoints of a GitHub repo's hubconf.py:
    every public callable attribute, like torch.hub.list."""
    if github is None:
        return _registry.registered()
    repo_dir = _repo.get_cache_or_reload(github, force_reload, True, trust_repo)
    return builtins.list(_repo.list_entrypoints(repo_dir))


def help(github, model=None, force_reload=False, skip_validation=False, trust_repo=None):  # noqa: A001
    """The docstring of a registered model (``help(name)``) or of a repo entrypoint
    (``help(github, model)``)."""
    if model is None:
        return _registry.get_builder(github).__doc__
    repo_dir = _repo.get_cache_or_reload(github, force_reload, True, trust_repo)
    return _repo.entrypoint_doc(repo_dir, model)
