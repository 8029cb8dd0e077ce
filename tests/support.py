"""Helpers shared by the test suites."""
import os


def run_python(code, *args, env=None, timeout=120):
    """Runs `code` in a fresh interpreter that imports the same `core` as this process
    (from a neutral directory, so a source checkout doesn't shadow the installed package)."""
    import subprocess
    import sys
    import tempfile

    import core

    env = dict(os.environ if env is None else env)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(core.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([package_parent] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=tempfile.gettempdir())
