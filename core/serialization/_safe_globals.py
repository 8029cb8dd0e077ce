"""The user's additions to the weights_only=True allowlist (torch.serialization.add_safe_globals,
safe_globals, get_safe_globals, clear_safe_globals). An allowed class may be rebuilt from a
checkpoint: named by GLOBAL, created by REDUCE or NEWOBJ, and given its state by BUILD."""
import contextlib

_allowed = {}  # "module.qualname" -> the object


def _entry(item):
    if isinstance(item, tuple):
        if len(item) != 2 or not isinstance(item[1], str):
            raise TypeError("add_safe_globals(): a tuple entry must be (object, 'module.name')")
        return item[1], item[0]
    module = getattr(item, "__module__", None)
    name = getattr(item, "__qualname__", None) or getattr(item, "__name__", None)
    if module is None or name is None:
        raise TypeError(f"add_safe_globals(): {item!r} has no __module__/__qualname__; pass "
                        "(object, 'module.name') instead")
    return f"{module}.{name}", item


def add_safe_globals(safe_globals):
    """Allows these globals (classes or functions, or (object, "module.name") pairs) in
    core.load(..., weights_only=True)."""
    for item in safe_globals:
        name, obj = _entry(item)
        _allowed[name] = obj


def get_safe_globals():
    """The globals add_safe_globals allowed, as a list."""
    return list(_allowed.values())


def clear_safe_globals():
    _allowed.clear()


@contextlib.contextmanager
def safe_globals(safe_globals):
    """Allows these globals inside a `with` block only."""
    saved = dict(_allowed)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _allowed.clear()
        _allowed.update(saved)


def lookup(full_name):
    return _allowed.get(full_name)


def is_allowed(obj):
    return any(v is obj for v in _allowed.values())


def call(func, args):
    """REDUCE / NEWOBJ on an allowed global: a class is created as pickle creates it."""
    if isinstance(func, type):
        return func.__new__(func, *args)
    return func(*args)


def build(obj, state):
    """BUILD on an instance of an allowed class: __setstate__, else the instance dict (and a
    (dict, slots) pair), as pickle does."""
    setstate = getattr(obj, "__setstate__", None)
    if setstate is not None and type(obj).__setstate__ is not getattr(object, "__setstate__", None):
        setstate(state)
        return
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    if state:
        obj.__dict__.update(state)
    for key, value in (slots or {}).items():
        setattr(obj, key, value)
