"""The weights_only=True unpickler: an opcode-level interpreter of our own, not a
pickle.Unpickler subclass.

Why not subclass pickle.Unpickler and override find_class? Because find_class only guards
GLOBAL/STACK_GLOBAL. The C unpickler's BUILD calls __setstate__ / setattr on whatever object
is below it, SETITEM(S) call __setitem__ and APPEND(S) call append/extend on any object, and
those reach methods of tensors and storages with attacker-chosen arguments (the shape of
CVE-2025-32434 / CVE-2026-24747). Interpreting each opcode ourselves lets every opcode check
the exact type it acts on:

- the only values are None/bool/int/float/complex/str/bytes/bytearray, tuple, list, dict,
  OrderedDict, Counter, set, frozenset, Size, dtypes, storages and tensors built here;
- GLOBAL/STACK_GLOBAL resolve only names in _rebuild.TORCH_GLOBALS and SAFE_BUILTINS;
- REDUCE/NEWOBJ call only those allowlisted functions (by identity); each checks its
  argument types itself;
- APPEND(S) act on exact lists, SETITEM(S) on exact dict/OrderedDict/Counter, ADDITEMS on
  exact sets, BUILD on exact OrderedDict/Counter (plain attribute names into __dict__);
- BINPERSID accepts only ('storage', ...) ids;
- every other opcode (INST, OBJ, EXT*, PERSID, NEWOBJ_EX, buffers...) is refused, as is any
  read past the end of the data. Nothing here recurses, so deep nesting cannot overflow.
"""
import _compat_pickle
import collections
import pickle
import struct

from core.serialization import _safe_globals
from core.serialization._errors import refuse
from core.serialization._rebuild import PARAMETER_CLASS, SAFE_BUILTINS, TORCH_GLOBALS, _parameter

_MAX_PROTOCOL = 5
_STRUCTS = {fmt: struct.Struct(fmt) for fmt in ("<i", "<H", "<I", "<Q", ">d")}


def _new_parameter(data, requires_grad=True):
    return _parameter(data, requires_grad, "torch.nn.Parameter")


_GLOBALS = dict(TORCH_GLOBALS, **SAFE_BUILTINS)
_GLOBALS[PARAMETER_CLASS] = _new_parameter
_GLOBALS["torch.nn.Parameter"] = _new_parameter
# The callables REDUCE and NEWOBJ may call, keyed by identity (never by equality).
_CALLABLE = {id(v): v for v in _GLOBALS.values() if callable(v) and type(v).__name__ == "function"}
_BUILD_TYPES = (collections.OrderedDict, collections.Counter)
_DICT_TYPES = (dict, collections.OrderedDict, collections.Counter)


def resolve_global(module, name):
    """The object a GLOBAL names, or UnpicklingError naming the refused global."""
    if (module, name) in _compat_pickle.NAME_MAPPING:  # Python 2 names
        module, name = _compat_pickle.NAME_MAPPING[(module, name)]
    elif module in _compat_pickle.IMPORT_MAPPING:
        module = _compat_pickle.IMPORT_MAPPING[module]
    full = f"{module}.{name}"
    if full in _GLOBALS:
        return _GLOBALS[full]
    allowed = _safe_globals.lookup(full)
    if allowed is not None:
        return allowed
    raise refuse(f"weights_only=True refuses the global '{full}': only tensors, storages, "
                 "state-dict containers and primitive types can be loaded. Load with "
                 "weights_only=False only if you trust the file's source (it can run code), or "
                 f"allow it with core.serialization.add_safe_globals([{name}]).")


class SafeUnpickler:
    """Loads one pickle from `data[start:]`; `end` is its end offset after load()."""

    def __init__(self, data, persistent_load, encoding="utf-8", start=0):
        self.data = bytes(data)
        self.pos = start
        self.end = None
        self.persistent_load = persistent_load
        self.encoding = encoding

    # ---- reading
    def _take(self, n):
        pos = self.pos
        if n < 0 or pos + n > len(self.data):
            raise refuse(f"pickle data truncated: {n} bytes needed at offset {pos}, "
                         f"{len(self.data) - pos} left")
        self.pos = pos + n
        return self.data[pos:pos + n]

    def _byte(self):
        pos = self.pos
        if pos >= len(self.data):
            raise refuse(f"pickle data truncated at offset {pos}")
        self.pos = pos + 1
        return self.data[pos]

    def _unpack(self, fmt):
        layout = _STRUCTS[fmt]
        pos = self.pos
        if pos + layout.size > len(self.data):
            raise refuse(f"pickle data truncated: {layout.size} bytes needed at offset {pos}")
        self.pos = pos + layout.size
        return layout.unpack_from(self.data, pos)[0]

    def _line(self):
        at = self.data.find(b"\n", self.pos)
        if at < 0:
            raise refuse(f"pickle data truncated: unterminated line at offset {self.pos}")
        line = self.data[self.pos:at]
        self.pos = at + 1
        return line

    # ---- the stack
    def _push(self, value):
        self.stack.append(value)

    def _pop(self):
        if not self.stack:
            raise refuse(f"malformed pickle: stack underflow at offset {self.pos - 1}")
        return self.stack.pop()

    def _top(self):
        if not self.stack:
            raise refuse(f"malformed pickle: stack underflow at offset {self.pos - 1}")
        return self.stack[-1]

    def _pop_mark(self):
        if not self.metastack:
            raise refuse(f"malformed pickle: no MARK before offset {self.pos - 1}")
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def load(self):
        self.stack, self.metastack, self.memo = [], [], {}
        dispatch = _DISPATCH
        while True:
            start = self.pos
            op = self._byte()
            handler = dispatch.get(op)
            if handler is None:
                name = _OPCODE_NAMES.get(op, f"byte 0x{op:02x}")
                raise refuse(f"pickle opcode {name} at offset {start} is not allowed with weights_only=True")
            try:
                if handler(self):  # STOP
                    self.end = self.pos
                    if len(self.stack) != 1 or self.metastack:
                        raise refuse("malformed pickle: STOP with a stack that is not one value")
                    return self.stack[0]
            except pickle.UnpicklingError:
                raise
            except (IndexError, KeyError, TypeError, ValueError, struct.error, AttributeError,
                    OverflowError, UnicodeDecodeError, RecursionError) as e:
                name = _OPCODE_NAMES.get(op, str(op))
                raise refuse(f"malformed pickle at offset {start} ({name}): {type(e).__name__}: {e}") from None

    # ---- opcodes (each returns True only for STOP)
    def op_proto(self):
        proto = self._byte()
        if proto > _MAX_PROTOCOL:
            raise refuse(f"unsupported pickle protocol {proto}")

    def op_frame(self):
        size = self._unpack("<Q")
        if size > len(self.data) - self.pos:
            raise refuse("pickle frame runs past the end of the data")

    def op_stop(self):
        return True

    def op_mark(self):
        self.metastack.append(self.stack)
        self.stack = []

    def op_pop(self):
        self._pop()

    def op_pop_mark(self):
        self._pop_mark()

    def op_dup(self):
        self._push(self._top())

    def op_none(self):
        self._push(None)

    def op_true(self):
        self._push(True)

    def op_false(self):
        self._push(False)

    def op_int(self):
        line = self._line()
        self._push(False if line == b"00" else True if line == b"01" else int(line))

    def op_binint(self):
        self._push(self._unpack("<i"))

    def op_binint1(self):
        self._push(self._byte())

    def op_binint2(self):
        self._push(self._unpack("<H"))

    def op_long(self):
        self._push(int(self._line().rstrip(b"L")))

    def op_long1(self):
        self._push(int.from_bytes(self._take(self._byte()), "little", signed=True))

    def op_long4(self):
        n = self._unpack("<i")
        if n < 0:
            raise refuse("negative LONG4 length")
        self._push(int.from_bytes(self._take(n), "little", signed=True))

    def op_float(self):
        self._push(float(self._line()))

    def op_binfloat(self):
        self._push(self._unpack(">d"))

    def _string(self, raw):
        # Python 2 str: text unless the file asks for bytes.
        self._push(raw if self.encoding == "bytes" else raw.decode(self.encoding, "strict"))

    def op_binstring(self):
        n = self._unpack("<i")
        if n < 0:
            raise refuse("negative BINSTRING length")
        self._string(self._take(n))

    def op_short_binstring(self):
        self._string(self._take(self._byte()))

    def op_binbytes(self):
        self._push(self._take(self._unpack("<I")))

    def op_short_binbytes(self):
        self._push(self._take(self._byte()))

    def op_binbytes8(self):
        self._push(self._take(self._unpack("<Q")))

    def op_bytearray8(self):
        self._push(bytearray(self._take(self._unpack("<Q"))))

    def op_unicode(self):
        self._push(self._line().decode("raw-unicode-escape"))

    def op_binunicode(self):
        self._push(self._take(self._unpack("<I")).decode("utf-8", "surrogatepass"))

    def op_short_binunicode(self):
        self._push(self._take(self._byte()).decode("utf-8", "surrogatepass"))

    def op_binunicode8(self):
        self._push(self._take(self._unpack("<Q")).decode("utf-8", "surrogatepass"))

    def op_empty_tuple(self):
        self._push(())

    def op_tuple(self):
        self._push(tuple(self._pop_mark()))

    def op_tuple1(self):
        self._push((self._pop(),))

    def op_tuple2(self):
        b, a = self._pop(), self._pop()
        self._push((a, b))

    def op_tuple3(self):
        c, b, a = self._pop(), self._pop(), self._pop()
        self._push((a, b, c))

    def op_empty_list(self):
        self._push([])

    def op_list(self):
        self._push(self._pop_mark())

    def op_empty_dict(self):
        self._push({})

    def op_dict(self):
        items = self._pop_mark()
        if len(items) % 2:
            raise refuse("malformed pickle: DICT with an odd number of items")
        self._push({items[i]: items[i + 1] for i in range(0, len(items), 2)})

    def op_empty_set(self):
        self._push(set())

    def op_frozenset(self):
        self._push(frozenset(self._pop_mark()))

    def _target(self, types, opcode):
        target = self._top()
        if type(target) not in types:
            names = "/".join(t.__name__ for t in types)
            raise refuse(f"pickle opcode {opcode} applied to a {type(target).__name__} "
                         f"(only {names} allowed)")
        return target

    def op_append(self):
        item = self._pop()
        self._target((list,), "APPEND").append(item)

    def op_appends(self):
        items = self._pop_mark()
        self._target((list,), "APPENDS").extend(items)

    def op_setitem(self):
        value, key = self._pop(), self._pop()
        self._target(_DICT_TYPES, "SETITEM")[key] = value

    def op_setitems(self):
        items = self._pop_mark()
        if len(items) % 2:
            raise refuse("malformed pickle: SETITEMS with an odd number of items")
        target = self._target(_DICT_TYPES, "SETITEMS")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    def op_additems(self):
        items = self._pop_mark()
        self._target((set,), "ADDITEMS").update(items)

    def op_build(self):
        from core.serialization._rebuild import set_state

        state = self._pop()
        if self.stack and _safe_globals.is_allowed(type(self._top())):
            _safe_globals.build(self._top(), state)
            return
        set_state(self._target(_BUILD_TYPES, "BUILD"), state)

    # memo
    def op_get(self):
        self._get(int(self._line()))

    def op_binget(self):
        self._get(self._byte())

    def op_long_binget(self):
        self._get(self._unpack("<I"))

    def _get(self, index):
        if index not in self.memo:
            raise refuse(f"malformed pickle: memo entry {index} was never stored")
        self._push(self.memo[index])

    def op_put(self):
        self.memo[int(self._line())] = self._top()

    def op_binput(self):
        self.memo[self._byte()] = self._top()

    def op_long_binput(self):
        self.memo[self._unpack("<I")] = self._top()

    def op_memoize(self):
        self.memo[len(self.memo)] = self._top()

    # globals and calls
    def op_global(self):
        module = self._line().decode("utf-8")
        name = self._line().decode("utf-8")
        self._push(resolve_global(module, name))

    def op_stack_global(self):
        name, module = self._pop(), self._pop()
        if type(module) is not str or type(name) is not str:
            raise refuse("STACK_GLOBAL needs two strings")
        self._push(resolve_global(module, name))

    def _call(self, func, args, opcode):
        if _CALLABLE.get(id(func)) is not func and _safe_globals.is_allowed(func) and type(args) is tuple:
            return _safe_globals.call(func, args)
        if _CALLABLE.get(id(func)) is not func:
            raise refuse(f"pickle opcode {opcode} may only call allowlisted rebuild functions, "
                         f"not a {type(func).__name__}")
        if type(args) is not tuple:
            raise refuse(f"{opcode} arguments must be a tuple")
        return func(*args)

    def op_reduce(self):
        args = self._pop()
        func = self._pop()
        self._push(self._call(func, args, "REDUCE"))

    def op_newobj(self):
        args = self._pop()
        cls = self._pop()
        self._push(self._call(cls, args, "NEWOBJ"))

    def op_binpersid(self):
        pid = self._pop()
        if type(pid) is not tuple or not pid or type(pid[0]) not in (str, bytes) or pid[0] not in ("storage", b"storage"):
            raise refuse(f"only storage persistent ids are allowed, got {type(pid).__name__}")
        self._push(self.persistent_load(pid))


_OPCODE_NAMES = {op.code.encode("latin-1")[0]: op.name for op in __import__("pickletools").opcodes}
_DISPATCH = {}
for _op in __import__("pickletools").opcodes:
    _handler = getattr(SafeUnpickler, "op_" + _op.name.lower(), None)
    if _handler is not None:
        _DISPATCH[_op.code.encode("latin-1")[0]] = _handler
# Names differ from pickletools' for these three.
_DISPATCH[pickle.NEWTRUE[0]] = SafeUnpickler.op_true
_DISPATCH[pickle.NEWFALSE[0]] = SafeUnpickler.op_false
_DISPATCH[pickle.BINPERSID[0]] = SafeUnpickler.op_binpersid
del _op, _handler
