"""Runs each program of this folder (small end-to-end programs in the style of PyTorch's
tutorials and examples, written against core and vision) and checks it trains."""
import importlib.util
import math
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).parent
PROGRAMS = ["tensors_and_autograd", "quickstart", "regression", "time_sequence_prediction", "lstm_tagger", "vae",
            "dcgan", "transformer_copy", "transfer_learning", "mnist_rnn"]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"tensorzoo_program_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pickle finds the programs' classes by module name
    spec.loader.exec_module(module)
    return module


def test_every_program_is_listed():
    assert sorted(p.stem for p in HERE.glob("*.py") if not p.stem.startswith("test_")) == sorted(PROGRAMS)


@pytest.fixture
def restored_backend_flags():
    """Programs set process-wide flags as PyTorch programs do (cudnn.benchmark = True); later tests
    must see the defaults again."""
    import core

    cudnn = core.backends.cudnn
    saved = (cudnn.enabled, cudnn.benchmark, cudnn.deterministic)
    yield
    cudnn.enabled, cudnn.benchmark, cudnn.deterministic = saved


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_runs(name, restored_backend_flags):
    final_loss = _load(name).main()
    assert math.isfinite(final_loss)
