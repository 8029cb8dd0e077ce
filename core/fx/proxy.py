"""fx.Proxy: the stand-in value that flows through a forward() while it is traced; every
operation on it records a Node instead of computing."""
import dis
import inspect
import operator

from core.fx.node import Node, map_aggregate


class TraceError(ValueError):
    pass


class TracerBase:
    """What Proxy needs from a tracer: a graph, create_node/create_proxy and create_arg."""

    graph = None

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None):
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        if not isinstance(args_, tuple) or not isinstance(kwargs_, dict):
            raise TypeError("create_proxy(): args must be a tuple and kwargs a dict")
        return self.proxy(self.create_node(kind, target, args_, kwargs_, name, type_expr))

    def create_arg(self, a):
        """The graph form of an argument: proxies become their nodes, containers recurse,
        plain values stay; anything else cannot appear in a graph."""
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, (tuple, list, dict, slice)):
            return map_aggregate(a, self.create_arg) if not isinstance(a, dict) else {
                self._check_key(k): self.create_arg(v) for k, v in a.items()}
        if isinstance(a, Node) or a is None or a is Ellipsis or isinstance(a, (str, int, float, bool, complex)):
            return a
        if type(a).__module__ == "core" and type(a).__name__ in ("dtype", "memory_format"):
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    @staticmethod
    def _check_key(k):
        if isinstance(k, (Proxy, Node)):
            raise TraceError("Proxy objects cannot be used as dictionary keys in traced code")
        return k

    def to_bool(self, obj):
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when used in a for loop "
                         "or as a *args or **kwargs function argument.")

    def keys(self, obj):
        return Attribute(obj, "keys")()

    def len(self, obj):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this "
                           "call to be recorded, please call core.fx.wrap('len') at module scope")

    def index(self, obj):
        raise TraceError("symbolically traced variables cannot be used as indices or sizes of Python objects")


class Proxy:
    """A symbolic value during tracing; `node` is what produced it."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return f"Proxy({self.node.name})"

    def __getattr__(self, k):
        # a method call (x.view(...)) or attribute read (x.shape) is recorded lazily
        return Attribute(self, k)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", "__call__", (self, *args), kwargs)

    def __iter__(self):
        frame = inspect.currentframe().f_back
        # `a, b = proxy` unpacks into getitem nodes: the bytecode being run tells the count
        for inst in dis.get_instructions(frame.f_code):
            if inst.offset == frame.f_lasti and inst.opname == "UNPACK_SEQUENCE":
                return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)

    def __bool__(self):
        return self.tracer.to_bool(self)

    def __len__(self):
        return self.tracer.len(self)

    def keys(self):
        return self.tracer.keys(self)

    def __index__(self):
        return self.tracer.index(self)

    __hash__ = object.__hash__

    @classmethod
    def __torch_function__(cls, orig_method, types, args=None, kwargs=None):
        """A core op reached with a Proxy argument (however the op was looked up) is recorded."""
        args, kwargs = tuple(args or ()), dict(kwargs or {})
        found = []
        map_aggregate((args, kwargs), lambda a: found.append(a) if isinstance(a, Proxy) else None)
        return found[0].tracer.create_proxy("call_function", orig_method, args, kwargs)


class Attribute(Proxy):
    """`proxy.attr`: becomes a call_method node when called, else a getattr node when used."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy("call_method", self.attr, (self.root, *args), kwargs)


class GraphAppendingTracer(TracerBase):
    def __init__(self, graph):
        self.graph = graph


_BINARY = ["add", "sub", "mul", "floordiv", "truediv", "mod", "pow", "lshift", "rshift", "and_", "or_",
           "xor", "matmul"]
_COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]
_UNARY = ["neg", "pos", "invert", "abs"]


def _install_magic_methods():
    def forward(target):
        return lambda self, other: self.tracer.create_proxy("call_function", target, (self, other), {})

    def reflected(target):
        return lambda self, other: self.tracer.create_proxy("call_function", target, (other, self), {})

    def unary(target):
        return lambda self: self.tracer.create_proxy("call_function", target, (self,), {})

    for name in _BINARY:
        dunder = name.rstrip("_")
        target = getattr(operator, name)
        setattr(Proxy, f"__{dunder}__", forward(target))
        setattr(Proxy, f"__r{dunder}__", reflected(target))
    for name in _COMPARE:
        setattr(Proxy, f"__{name}__", forward(getattr(operator, name)))
    for name in _UNARY:
        setattr(Proxy, f"__{name}__", unary(getattr(operator, name)))
    Proxy.__getitem__ = forward(operator.getitem)


_install_magic_methods()
