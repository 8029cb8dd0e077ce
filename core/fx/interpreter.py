"""fx.Interpreter runs a GraphModule node by node; fx.Transformer re-traces it into a new one."""
from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import map_aggregate, map_arg
from core.fx.proxy import Proxy
from core.fx._symbolic_trace import Tracer


class Interpreter:
    """Executes module.graph one node at a time. Override run_node or the per-opcode methods
    (placeholder, get_attr, call_function, call_method, call_module, output) to change what
    a node does."""

    def __init__(self, module, garbage_collect_values=True):
        self.module = module
        self.submodules = dict(module.named_modules())
        self.env = {}
        self.garbage_collect_values = garbage_collect_values
        self.user_to_last_uses = {}
        if garbage_collect_values:
            last_use = {}
            for node in module.graph.nodes:
                for arg in node.all_input_nodes:
                    last_use[arg] = node
            for value, user in last_use.items():
                self.user_to_last_uses.setdefault(user, []).append(value)

    def run(self, *args, initial_env=None):
        """Runs the graph on args; returns what its output node returns."""
        self.env = dict(initial_env) if initial_env else {}
        self.args_iter = iter(args)
        for node in self.module.graph.nodes:
            if node in self.env:
                continue
            self.env[node] = self.run_node(node)
            if self.garbage_collect_values:
                for dead in self.user_to_last_uses.get(node, ()):
                    del self.env[dead]
            if node.op == "output":
                return self.env[node]
        return None

    def run_node(self, n):
        args, kwargs = self.fetch_args_kwargs_from_env(n)
        return getattr(self, n.op)(n.target, args, kwargs)

    # ---- one method per opcode
    def placeholder(self, target, args, kwargs):
        if target.startswith("*"):
            return list(self.args_iter)
        try:
            return next(self.args_iter)
        except StopIteration:
            if args:
                return args[0]
            raise RuntimeError(f"Expected positional argument for parameter {target}, but one was not passed in!")

    def get_attr(self, target, args, kwargs):
        return self.fetch_attr(target)

    def call_function(self, target, args, kwargs):
        return target(*args, **kwargs)

    def call_method(self, target, args, kwargs):
        self_obj, *args_tail = args
        return getattr(self_obj, target)(*args_tail, **kwargs)

    def call_module(self, target, args, kwargs):
        return self.fetch_attr(target)(*args, **kwargs)

    def output(self, target, args, kwargs):
        return args[0]

    # ---- helpers
    def fetch_attr(self, target):
        obj = self.module
        for i, atom in enumerate(target.split(".")):
            if not hasattr(obj, atom):
                raise RuntimeError(f"Node referenced nonexistent target {'.'.join(target.split('.')[:i + 1])}")
            obj = getattr(obj, atom)
        return obj

    def fetch_args_kwargs_from_env(self, n):
        return self.map_nodes_to_values(n.args, n), self.map_nodes_to_values(n.kwargs, n)

    def map_nodes_to_values(self, args, n):
        def load(n_arg):
            if n_arg not in self.env:
                raise RuntimeError(f"Node {n} referenced nonexistent value {n_arg}! Run Graph.lint() "
                                   "to diagnose such issues")
            return self.env[n_arg]

        return map_arg(args, load)


class _TransformerTracer(Tracer):
    def __init__(self, graph):
        super().__init__()
        self.graph = graph

    def is_leaf_module(self, m, qualname):
        return True


class Transformer(Interpreter):
    """Interpreter whose nodes emit Proxies into a new graph: override call_function etc.
    to rewrite, then transform() returns the new GraphModule."""

    def __init__(self, module):
        super().__init__(module, garbage_collect_values=False)
        self.new_graph = Graph()
        self.tracer = _TransformerTracer(self.new_graph)
        self.tracer.root = module
        self.tracer._module_paths = {id(m): name for name, m in module.named_modules()}
        self.tracer._tensor_paths = {}

    def placeholder(self, target, args, kwargs):
        default = (args[0],) if args else ()
        return Proxy(self.new_graph.create_node("placeholder", target, default), self.tracer)

    def get_attr(self, target, args, kwargs):
        return Proxy(self.new_graph.get_attr(target), self.tracer)

    def call_module(self, target, args, kwargs):
        submod = self.fetch_attr(target)
        return self.tracer.call_module(submod, submod.forward, args, kwargs)

    def call_function(self, target, args, kwargs):
        return self.tracer.create_proxy("call_function", target, args, kwargs)

    def transform(self):
        result = super().run()
        if result is not None:
            self.new_graph.output(map_aggregate(result, lambda a: a.node if isinstance(a, Proxy) else a))
        return GraphModule(self.module, self.new_graph)
