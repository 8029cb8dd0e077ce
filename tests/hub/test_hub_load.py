"""hub.load / hub.list / hub.help: the registry of named models and torch.hub's repo forms
(a local directory, and a GitHub archive served by the local server via TENSORZOO_HUB_GITHUB)."""
import io
import sys
import textwrap
import zipfile

import pytest

import hub
from support import run_python

EXPECTED = {"mobilenet_v3_large", "mobilenet_v3_small", "mobilenet_v2", "resnet18", "resnet50"}

HUBCONF = textwrap.dedent('''
    """A test repo."""
    dependencies = ["os", "json"]
    from os.path import join  # imported helpers are public callables too (torch.hub.list lists them)


    def tiny(scale=1, offset=0):
        """Returns a tiny model description."""
        from tiny_repo_module import describe  # the repo's own module, importable from the entrypoint
        return describe(scale, offset)


    def _private():
        return None


    NOT_CALLABLE = 3
''')
MODULE = "def describe(scale, offset):\n    return {'scale': scale, 'offset': offset}\n"


@pytest.fixture(autouse=True)
def _forget_repo_modules():
    yield
    sys.modules.pop("tiny_repo_module", None)


# ---------------------------------------------------------------- registry

def test_list_registry():
    names = hub.list()
    assert EXPECTED <= set(names) and names == sorted(names)


def test_registry_is_the_domain_packages_hubconf():
    import vision.hubconf

    published = {n for n in dir(vision.hubconf) if callable(getattr(vision.hubconf, n)) and not n.startswith("_")}
    assert EXPECTED <= published and published <= set(hub.list())
    assert hub._registry.get_builder("resnet18") is vision.hubconf.resnet18


def test_importing_hub_imports_no_domain_package():
    code = "import sys, hub; print(sorted(m for m in ('vision', 'audio', 'text') if m in sys.modules))"
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_help_registry():
    assert "ImageNet weights through the hub" in hub.help("resnet18")
    assert "MobileNetV3" in hub.help("mobilenet_v3_large")


def test_unknown_model_lists_known_ones():
    with pytest.raises(ValueError, match="unknown model 'resnet19'") as info:
        hub.load("resnet19")
    for name in EXPECTED:
        assert name in str(info.value)
    with pytest.raises(ValueError, match="unknown model"):
        hub.help("resnet19")


def test_unknown_repo_like_name_hints_at_repo_form():
    with pytest.raises(ValueError, match=r"hub.load\(repo, model"):
        hub.load("someone/somerepo")


def test_register_and_load_a_callable():
    calls = []

    def builder(pretrained=False, progress=True, **kwargs):
        """A registered test builder."""
        calls.append((pretrained, progress, kwargs))
        return "model"

    hub.register("_test_builder", builder)
    try:
        assert "_test_builder" in hub.list()
        assert hub.load("_test_builder", num_classes=3) == "model"
        assert hub.load("_test_builder", False, False) == "model"
        assert calls == [(True, True, {"num_classes": 3}), (False, False, {})]  # pretrained defaults to True
        assert hub.help("_test_builder") == "A registered test builder."
        with pytest.raises(ValueError, match="already registered"):
            hub.register("_test_builder", builder)
        hub.register("_test_builder", "vision.models.resnet:resnet18", overwrite=True)
    finally:
        hub._registry._registry.pop("_test_builder", None)
    with pytest.raises(TypeError):
        hub.register("x", 3)


# ---------------------------------------------------------------- local directory

@pytest.fixture
def repo(tmp_path):
    d = tmp_path / "repo"
    d.mkdir()
    (d / "hubconf.py").write_text(HUBCONF)
    (d / "tiny_repo_module.py").write_text(MODULE)
    return d


def test_load_local(repo):
    assert hub.load(str(repo), "tiny", 2, source="local", offset=5) == {"scale": 2, "offset": 5}
    assert hub.load(str(repo), model="tiny", source="local") == {"scale": 1, "offset": 0}
    assert str(repo) not in sys.path  # the repo is on sys.path only while it runs


def test_load_local_errors(repo):
    with pytest.raises(RuntimeError, match="Cannot find callable missing in hubconf"):
        hub.load(str(repo), "missing", source="local")
    with pytest.raises(RuntimeError, match="Cannot find callable NOT_CALLABLE in hubconf"):
        hub.load(str(repo), "NOT_CALLABLE", source="local")
    with pytest.raises(ValueError, match='Unknown source: "svn"'):
        hub.load(str(repo), "tiny", source="svn")
    with pytest.raises(RuntimeError, match="no hubconf.py"):
        hub.load(str(repo / ".."), "tiny", source="local")


def test_missing_dependencies(repo):
    (repo / "hubconf.py").write_text("dependencies = ['os', 'no_such_package_tz', 'nor_this.one']\n"
                                     "def tiny():\n    return 1\n")
    with pytest.raises(RuntimeError, match="Missing dependencies: no_such_package_tz, nor_this.one"):
        hub.load(str(repo), "tiny", source="local")


# ---------------------------------------------------------------- GitHub archives

def _archive(top="tiny-main"):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(f"{top}/", "")
        z.writestr(f"{top}/hubconf.py", HUBCONF)
        z.writestr(f"{top}/tiny_repo_module.py", MODULE)
    return buffer.getvalue()


@pytest.fixture
def github(server, hub_home, monkeypatch):
    monkeypatch.setenv("TENSORZOO_HUB_GITHUB", server.url + "/gh")
    server.add("/gh/someone/tiny/archive/main.zip", _archive())
    server.add("/gh/someone/tiny/archive/master.zip", _archive("tiny-master"))
    server.add("/gh/someone/tiny/archive/feature/x.zip", _archive("tiny-feature-x"))
    return server


def test_github_load_and_cache(github, hub_home, helpers):
    assert hub.load("someone/tiny:main", "tiny", 3, trust_repo=True, verbose=False) == {"scale": 3, "offset": 0}
    repo_dir = hub_home / "hub" / "someone_tiny_main"
    assert (repo_dir / "hubconf.py").exists()
    assert hub.load("someone/tiny:main", "tiny", trust_repo=True) == {"scale": 1, "offset": 0}
    assert github.hits == ["/gh/someone/tiny/archive/main.zip"]  # the second load used the cache
    hub.load("someone/tiny:main", "tiny", force_reload=True, trust_repo=True)
    assert len(github.hits) == 2
    leftovers = [p for p in helpers.listdir(hub_home / "hub") if not p.startswith("someone_tiny_main/")]
    assert leftovers == ["trusted_list"]  # no archive or extraction folder left behind


def test_github_default_branch_and_slashes(github, hub_home):
    hub.load("someone/tiny", "tiny", trust_repo=True)
    assert (hub_home / "hub" / "someone_tiny_master" / "hubconf.py").exists()
    hub.load("someone/tiny:feature/x", "tiny", trust_repo=True)
    assert (hub_home / "hub" / "someone_tiny_feature_x" / "hubconf.py").exists()


def test_github_list_and_help(github):
    assert hub.list("someone/tiny:main", trust_repo=True) == ["join", "tiny"]
    assert hub.help("someone/tiny:main", "tiny", trust_repo=True) == "Returns a tiny model description."


def test_github_trust(github, hub_home, monkeypatch):
    with pytest.warns(UserWarning, match="untrusted repository"):
        hub.load("someone/tiny:main", "tiny")
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with pytest.raises(RuntimeError, match="Untrusted repository"):
        hub.load("someone/tiny:main", "tiny", trust_repo=False)
    hub.load("someone/tiny:main", "tiny", trust_repo=True)
    assert (hub_home / "hub" / "trusted_list").read_text().split() == ["someone_tiny"]
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("'check' must not ask about a trusted repo"))
    hub.load("someone/tiny:main", "tiny", trust_repo="check")


def test_github_bad_repo_strings(hub_home):
    for bad in ["justone", "a/b/c", "a/b:", "/b"]:
        with pytest.raises(ValueError, match="Invalid GitHub repo"):
            hub.load(bad, "tiny", trust_repo=True)


def test_github_archive_404(github, hub_home, helpers):
    with pytest.raises(hub.DownloadError, match="HTTP 404"):
        hub.load("someone/missing:main", "tiny", trust_repo=True)
    assert helpers.listdir(hub_home / "hub") == ["trusted_list"]


def test_github_not_an_archive(github, hub_home, helpers):
    github.add("/gh/someone/bad/archive/main.zip", b"PK not really a zip")
    with pytest.raises(RuntimeError, match="not a valid zip archive"):
        hub.load("someone/bad:main", "tiny", trust_repo=True)
    assert not (hub_home / "hub" / "someone_bad_main").exists()


def test_github_archive_with_two_top_folders(github, hub_home):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("a/hubconf.py", HUBCONF)
        z.writestr("b/hubconf.py", HUBCONF)
    github.add("/gh/someone/two/archive/main.zip", buffer.getvalue())
    with pytest.raises(RuntimeError, match="expected one top-level folder"):
        hub.load("someone/two:main", "tiny", trust_repo=True)


def test_github_archive_escaping_the_cache_is_refused(github, hub_home):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("top/hubconf.py", HUBCONF)
        z.writestr("top/../../evil.py", "x = 1")
    github.add("/gh/someone/evil/archive/main.zip", buffer.getvalue())
    with pytest.raises(RuntimeError, match="escapes"):
        hub.load("someone/evil:main", "tiny", trust_repo=True)
    assert not (hub_home / "evil.py").exists() and not (hub_home / "hub" / "evil.py").exists()
