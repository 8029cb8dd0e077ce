"""Optimizers and learning-rate schedules with torch.optim's names and semantics."""
from core.optim.optimizer import Optimizer
from core.optim.sgd import SGD
from core.optim.rmsprop import RMSprop
from core.optim.adam import Adam
from core.optim.adamw import AdamW
from core.optim.adagrad import Adagrad
from core.optim.adadelta import Adadelta
from core.optim.adamax import Adamax
from core.optim.lbfgs import LBFGS
from core.optim import lr_scheduler, swa_utils  # noqa: F401

__all__ = ["Optimizer", "SGD", "RMSprop", "Adam", "AdamW", "Adagrad", "Adadelta", "Adamax", "LBFGS",
           "lr_scheduler", "swa_utils"]
