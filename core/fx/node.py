"""fx.Node: one operation of a Graph, with its arguments and the nodes that use its value."""
import builtins
import operator

from core.fx._qualname import qualified_name

_OPCODES = ("placeholder", "get_attr", "call_function", "call_method", "call_module", "output")


def map_aggregate(a, fn):
    """Applies fn to every leaf of nested tuples, lists, dicts and slices."""
    if isinstance(a, tuple):
        mapped = tuple(map_aggregate(elem, fn) for elem in a)
        return type(a)(*mapped) if hasattr(a, "_fields") else mapped  # namedtuples stay named
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a, fn):
    """Applies fn to every Node inside the nested argument structure a."""
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def _target_repr(target):
    """The text of a call target for printing: 'operator.add', 'core.flatten', 'layer1.0.conv1'."""
    if isinstance(target, str):
        return target
    path = qualified_name(target)
    return path.replace(":", ".") if path else repr(target)


def _format_arg(arg):
    if isinstance(arg, list):
        return f"[{', '.join(_format_arg(a) for a in arg)}]"
    if isinstance(arg, tuple):
        items = ", ".join(_format_arg(a) for a in arg)
        return f"({items},)" if len(arg) == 1 else f"({items})"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


class Node:
    """A value in a Graph: what produced it (op, target, args, kwargs) and who uses it (users).

    Nodes form a doubly linked list in program order inside their graph; `args`/`kwargs`
    may only be changed through their setters so that the `users` of every input stay right.
    """

    def __init__(self, graph, name, op, target, args, kwargs, type=None):
        if op not in _OPCODES:
            raise ValueError(f"Node: unknown opcode {op!r}; expected one of {', '.join(_OPCODES)}")
        if op in ("call_method", "call_module", "get_attr", "placeholder", "output") and not isinstance(target, str):
            raise ValueError(f"Node: the target of a {op} node must be a string, got {target!r}")
        if op == "call_function" and not callable(target):
            raise ValueError(f"Node: the target of a call_function node must be callable, got {target!r}")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self.type = type
        self._input_nodes = {}
        self.users = {}
        self._args = ()
        self._kwargs = {}
        self._update_args_kwargs(map_arg(args, lambda x: x), map_arg(kwargs, lambda x: x))
        self._prev = self
        self._next = self
        self._erased = False
        self.meta = {}

    # ---- program order
    @property
    def next(self):
        return self._next

    @property
    def prev(self):
        return self._prev

    def prepend(self, x):
        """Moves node x to just before this node."""
        if x is self:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x):
        """Moves node x to just after this node."""
        self._next.prepend(x)

    def _remove_from_list(self):
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    # ---- arguments and uses
    @property
    def args(self):
        return self._args

    @args.setter
    def args(self, a):
        self._update_args_kwargs(map_arg(a, lambda x: x), self._kwargs)

    @property
    def kwargs(self):
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k):
        self._update_args_kwargs(self._args, map_arg(k, lambda x: x))

    @property
    def all_input_nodes(self):
        """Every Node in args and kwargs, in order of first appearance."""
        return list(self._input_nodes)

    def _update_args_kwargs(self, new_args, new_kwargs):
        for old in self._input_nodes:
            old.users.pop(self, None)
        self._args, self._kwargs = tuple(new_args), dict(new_kwargs)
        self._input_nodes = {}
        map_arg(self._args, lambda n: self._input_nodes.setdefault(n))
        map_arg(self._kwargs, lambda n: self._input_nodes.setdefault(n))
        for new in self._input_nodes:
            new.users.setdefault(self)

    def replace_all_uses_with(self, replace_with):
        """Makes every user of this node use `replace_with` instead; returns those users."""
        to_process = list(self.users)
        for use_node in to_process:
            use_node.replace_input_with(self, replace_with)
        return to_process

    def replace_input_with(self, old_input, new_input):
        """Swaps every occurrence of `old_input` in this node's arguments for `new_input`."""
        swap = lambda n: new_input if n is old_input else n  # noqa: E731
        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    # ---- printing
    def __repr__(self):
        return self.name

    def format_node(self, placeholder_names=None):
        """The node as a line of the graph's IR text; placeholders go into placeholder_names."""
        if self.op == "placeholder":
            arg = self.target
            if self._args:
                arg = f"{arg}={self._args[0]!r}"
            if placeholder_names is not None:
                placeholder_names.append(arg)
                return None
            return f"%{self.name} : [#users={len(self.users)}] = placeholder[target={self.target}]"
        if self.op == "get_attr":
            return f"%{self.name} : [#users={len(self.users)}] = self.{self.target}"
        if self.op == "output":
            return f"return {self._args[0]}"
        return (f"%{self.name} : [#users={len(self.users)}] = {self.op}[target={_target_repr(self.target)}]"
                f"(args = {_format_arg(self._args)}, kwargs = {_format_arg(self._kwargs)})")


# Operators generated code writes with their Python syntax ("a + b" rather than operator.add(a, b)).
BINARY_SYNTAX = {
    operator.add: "{} + {}", operator.sub: "{} - {}", operator.mul: "{} * {}",
    operator.truediv: "{} / {}", operator.floordiv: "{} // {}", operator.mod: "{} % {}",
    operator.pow: "{} ** {}", operator.matmul: "{} @ {}", operator.lshift: "{} << {}",
    operator.rshift: "{} >> {}", operator.and_: "{} & {}", operator.or_: "{} | {}",
    operator.xor: "{} ^ {}", operator.eq: "{} == {}", operator.ne: "{} != {}",
    operator.lt: "{} < {}", operator.le: "{} <= {}", operator.gt: "{} > {}", operator.ge: "{} >= {}",
    operator.getitem: "{}[{}]",
}
UNARY_SYNTAX = {operator.neg: "-{}", operator.pos: "+{}", operator.invert: "~{}"}
BUILTIN_TARGETS = {builtins.getattr, builtins.len}
