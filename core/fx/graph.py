"""fx.Graph: a list of Nodes in program order, with builders, editing, checking and printing."""
import builtins
import keyword
import re

from core.fx._codegen import python_source
from core.fx._tabular import format_table
from core.fx.node import Node, map_arg

_ILLEGAL_CHARS = re.compile(r"[^0-9a-zA-Z_]+")
_NAME_SUFFIX = re.compile(r"(.*)_(\d+)$")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])([A-Z])")


def _snake_case(s):
    return _CAMEL_BOUNDARY.sub(r"_\1", s).lower()


class _Namespace:
    """Hands out unique Python identifiers: 'add', then 'add_1', 'add_2', ..."""

    def __init__(self):
        self._used = set()

    def create_name(self, candidate):
        candidate = _ILLEGAL_CHARS.sub("_", candidate) or "_"
        if candidate[0].isdigit():
            candidate = f"_{candidate}"
        match = _NAME_SUFFIX.match(candidate)
        base, num = (candidate, 0) if match is None else (match.group(1), int(match.group(2)))
        while candidate in self._used or keyword.iskeyword(candidate) or hasattr(builtins, candidate):
            num += 1
            candidate = f"{base}_{num}"
        self._used.add(candidate)
        return candidate

    def release(self, name):
        self._used.discard(name)


class _InsertPoint:
    def __init__(self, graph, insert):
        self.graph = graph
        self.saved, graph._insert = graph._insert, insert

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        self.graph._insert = self.saved


class _NodeList:
    """A live view of a graph's nodes (iterates over a snapshot, so erasing while looping works)."""

    def __init__(self, graph, reverse=False):
        self._graph, self._reverse = graph, reverse

    def __len__(self):
        return self._graph._len

    def __iter__(self):
        root = self._graph._root
        step = "_prev" if self._reverse else "_next"
        items, cur = [], getattr(root, step)
        while cur is not root:
            items.append(cur)
            cur = getattr(cur, step)
        return iter(items)

    def __reversed__(self):
        return iter(_NodeList(self._graph, not self._reverse))


def _sentinel():
    root = object.__new__(Node)
    root._prev = root._next = root
    root.name, root.op, root._erased = "root", "root", False
    root.users, root._input_nodes, root._args, root._kwargs = {}, {}, (), {}
    return root


class Graph:
    """The IR of torch.fx: placeholder / get_attr / call_function / call_method / call_module /
    output nodes in program order."""

    def __init__(self):
        self._root = _sentinel()
        self._len = 0
        self._namespace = _Namespace()
        self._insert = self._root.prepend  # append at the end by default

    @property
    def nodes(self):
        return _NodeList(self)

    # ---- building
    def create_node(self, op, target, args=None, kwargs=None, name=None, type_expr=None):
        args = () if args is None else args
        kwargs = {} if kwargs is None else kwargs
        if not isinstance(args, tuple) or not isinstance(kwargs, dict):
            raise TypeError("create_node(): args must be a tuple and kwargs a dict")
        for n in map_arg_nodes((args, kwargs)):
            if n.graph is not self:
                raise RuntimeError(f"create_node(): argument {n.name} belongs to another graph")
        candidate = name if name is not None else self._target_to_str(target)
        node = Node(self, self._namespace.create_name(candidate), op, target, args, kwargs, type_expr)
        self._insert(node)
        self._len += 1
        return node

    @staticmethod
    def _target_to_str(target):
        if callable(target):
            target = getattr(target, "__name__", None) or type(target).__name__
        if target.startswith("__") and target.endswith("__"):
            target = target[2:-2]
        return _snake_case(target)

    def placeholder(self, name, type_expr=None, default_value=None):
        args = () if default_value is None else (default_value,)
        return self.create_node("placeholder", name, args=args, type_expr=type_expr)

    def get_attr(self, qualified_name, type_expr=None):
        return self.create_node("get_attr", qualified_name, type_expr=type_expr)

    def call_module(self, module_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_module", module_name, args, kwargs, type_expr=type_expr)

    def call_method(self, method_name, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_method", method_name, args, kwargs, type_expr=type_expr)

    def call_function(self, the_function, args=None, kwargs=None, type_expr=None):
        return self.create_node("call_function", the_function, args, kwargs, type_expr=type_expr)

    def output(self, result, type_expr=None):
        return self.create_node("output", "output", (result,), type_expr=type_expr)

    def node_copy(self, node, arg_transform=lambda x: x):
        """A copy of `node` (from any graph) in this one, its inputs mapped by arg_transform."""
        args = map_arg(node.args, arg_transform)
        kwargs = map_arg(node.kwargs, arg_transform)
        copy = self.create_node(node.op, node.target, args, kwargs, node.name, node.type)
        copy.meta = dict(node.meta)
        return copy

    def graph_copy(self, g, val_map):
        """Copies every node of g but its output into this graph; val_map maps g's nodes to
        ours (filled in as it goes). Returns the value g outputs, mapped."""
        for node in g.nodes:
            if node in val_map:
                continue
            if node.op == "output":
                return map_arg(node.args[0], lambda n: val_map[n])
            val_map[node] = self.node_copy(node, lambda n: val_map[n])
        return None

    def inserting_before(self, n=None):
        """Context manager: new nodes go just before n (or at the start of the graph)."""
        anchor = n if n is not None else self._root._next
        return _InsertPoint(self, anchor.prepend)

    def inserting_after(self, n=None):
        """Context manager: new nodes go after n (or at the end), in the order they are made."""
        if n is None:
            return _InsertPoint(self, self._root.prepend)
        last = [n]

        def insert(node):
            last[0].append(node)
            last[0] = node

        return _InsertPoint(self, insert)

    # ---- editing
    def erase_node(self, to_erase):
        if to_erase.graph is not self:
            raise RuntimeError(f"erase_node(): node {to_erase} belongs to another graph")
        if to_erase._erased:
            raise RuntimeError(f"erase_node(): node {to_erase} was already erased")
        if to_erase.users:
            raise RuntimeError(f"Tried to erase Node {to_erase} but it still had {len(to_erase.users)} "
                               f"users in the graph: {to_erase.users}!")
        to_erase._remove_from_list()
        to_erase._erased = True
        to_erase._update_args_kwargs((), {})
        self._namespace.release(to_erase.name)
        self._len -= 1

    def eliminate_dead_code(self):
        """Erases nodes whose values nobody uses and that change nothing; True if any went."""
        changed = False
        for node in reversed(self.nodes):
            if node.op in ("placeholder", "output") or node.users or _is_impure(node):
                continue
            self.erase_node(node)
            changed = True
        return changed

    def lint(self, root=None):
        """Checks the graph's invariants: ownership, unique names, definition before use,
        one output at the end, and (given the root module) that targets exist."""
        seen, names = set(), set()
        outputs = 0
        for node in self.nodes:
            if node.graph is not self:
                raise RuntimeError(f"lint(): node {node} does not belong to this graph")
            if node.name in names:
                raise RuntimeError(f"lint(): node name {node.name!r} is used twice")
            names.add(node.name)
            for arg in node.all_input_nodes:
                if arg not in seen:
                    raise RuntimeError(f"lint(): argument {arg} of node {node} is used before it is "
                                       "defined (or is not in the graph)")
                if node not in arg.users:
                    raise RuntimeError(f"lint(): node {node} is missing from the users of {arg}")
            if node.op == "output":
                outputs += 1
            elif outputs:
                raise RuntimeError(f"lint(): node {node} comes after the output node")
            if root is not None and node.op in ("get_attr", "call_module"):
                _check_target(root, node)
            seen.add(node)
        if outputs > 1:
            raise RuntimeError("lint(): the graph has more than one output node")

    # ---- printing
    def python_code(self, root_module="self"):
        """The source of the forward() this graph stands for."""
        return python_source(self, root_module)[0]

    def print_tabular(self):
        """Prints one row per node: opcode, name, target, args, kwargs."""
        rows = [[n.op, n.name, n.target, n.args, n.kwargs] for n in self.nodes]
        print(format_table(rows, ["opcode", "name", "target", "args", "kwargs"]))

    def __str__(self):
        placeholders = []
        lines = [s for s in (n.format_node(placeholders) for n in self.nodes) if s is not None]
        return "\n    ".join([f"graph({', '.join(placeholders)}):", *lines])

    __repr__ = __str__


def map_arg_nodes(a):
    found = []
    map_arg(a, found.append)
    return found


def _is_impure(node):
    # in-place operations change a value other nodes may read
    if node.op == "call_method" and node.target.endswith("_") and not node.target.endswith("__"):
        return True
    if node.op == "call_function" and node.kwargs.get("inplace") is True:
        return True
    return False


def _check_target(root, node):
    obj = root
    for atom in node.target.split("."):
        if not hasattr(obj, atom):
            raise RuntimeError(f"lint(): node {node} targets {node.target!r}, which the root module "
                               "does not have")
        obj = getattr(obj, atom)
