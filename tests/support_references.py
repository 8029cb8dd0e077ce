"""Running the reference scripts (references/<task>/*.py) inside the test process: each script is
imported afresh with its sibling modules, since every task has its own utils.py, presets.py, ..."""
import importlib.util
import os
import sys

REFERENCES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "references")


def load_script(task, name="train"):
    """references/<task>/<name>.py as a new module; the task's helpers (utils, presets, ...) are
    imported fresh for it and leave sys.modules again, so two tasks' utils never mix."""
    directory = os.path.join(REFERENCES, task)
    siblings = {f[:-3] for f in os.listdir(directory) if f.endswith(".py")}
    saved = {n: sys.modules.pop(n) for n in siblings if n in sys.modules}
    sys.path.insert(0, directory)
    try:
        spec = importlib.util.spec_from_file_location(f"references_{task}_{name}", os.path.join(directory, name + ".py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(directory)
        for n in siblings:
            sys.modules.pop(n, None)
        sys.modules.update(saved)
    return module


def run_script(module, *argv):
    """module.main on the parsed command line argv; returns what main returns."""
    return module.main(module.get_args_parser().parse_args([str(a) for a in argv]))
