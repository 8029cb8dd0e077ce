"""replace_pattern: find every occurrence of one traced function's graph in a GraphModule
and splice in another's."""
from collections import namedtuple

from core.fx._symbolic_trace import symbolic_trace
from core.fx.graph_module import GraphModule, _copy_attr
from core.fx.node import Node, map_arg

Match = namedtuple("Match", ["anchor", "nodes_map"])  # anchor: the graph node matching the pattern's output


class _Matcher:
    def __init__(self, pattern):
        self.pattern = pattern
        outputs = [n for n in pattern.nodes if n.op == "output"]
        result = outputs[0].args[0]
        if not isinstance(result, Node):
            raise ValueError("replace_pattern(): the pattern must return a single value")
        self.pattern_anchor = result

    def match(self, anchor):
        nodes_map = {}
        if not self._match_nodes(self.pattern_anchor, anchor, nodes_map):
            return None
        # values computed inside the match may not escape it (all but the anchor)
        inside = {gn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
        for pn, gn in nodes_map.items():
            if pn.op == "placeholder" or gn is anchor:
                continue
            if any(user not in inside for user in gn.users):
                return None
        return nodes_map

    def _match_nodes(self, pn, gn, nodes_map):
        if pn in nodes_map:
            return nodes_map[pn] is gn
        if pn.op == "placeholder":
            if gn in nodes_map.values():
                return False
            nodes_map[pn] = gn
            return True
        if pn.op != gn.op or pn.target != gn.target:
            return False
        if len(pn.args) != len(gn.args) or set(pn.kwargs) != set(gn.kwargs):
            return False
        nodes_map[pn] = gn
        pairs = list(zip(pn.args, gn.args)) + [(pn.kwargs[k], gn.kwargs[k]) for k in pn.kwargs]
        if all(self._match_args(pa, ga, nodes_map) for pa, ga in pairs):
            return True
        del nodes_map[pn]
        return False

    def _match_args(self, pa, ga, nodes_map):
        if isinstance(pa, Node):
            return isinstance(ga, Node) and self._match_nodes(pa, ga, nodes_map)
        if isinstance(pa, (tuple, list)):
            return (type(pa) is type(ga) and len(pa) == len(ga)
                    and all(self._match_args(a, b, nodes_map) for a, b in zip(pa, ga)))
        return not isinstance(ga, Node) and pa == ga


def replace_pattern(gm, pattern, replacement):
    """Replaces each non-overlapping match of pattern's graph in gm (in place) by
    replacement's graph, wiring the pattern's inputs to the replacement's; returns the
    matches. pattern and replacement are callables (functions or Modules) or GraphModules."""
    pattern_graph = (pattern if isinstance(pattern, GraphModule) else symbolic_trace(pattern)).graph
    replacement_gm = replacement if isinstance(replacement, GraphModule) else symbolic_trace(replacement)
    graph = gm.graph
    matcher = _Matcher(pattern_graph)
    pattern_inputs = [n for n in pattern_graph.nodes if n.op == "placeholder"]
    replacement_inputs = [n for n in replacement_gm.graph.nodes if n.op == "placeholder"]
    if len(pattern_inputs) != len(replacement_inputs):
        raise ValueError("replace_pattern(): pattern and replacement must take the same number of inputs")

    matches, claimed = [], set()
    for node in graph.nodes:
        nodes_map = matcher.match(node)
        if nodes_map is None:
            continue
        body = {gn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
        if body & claimed:
            continue
        claimed |= body
        matches.append(Match(anchor=node, nodes_map=nodes_map))

    for match in matches:
        anchor = match.anchor
        val_map = {r: match.nodes_map[p] for p, r in zip(pattern_inputs, replacement_inputs)}
        with graph.inserting_before(anchor):
            for rn in replacement_gm.graph.nodes:
                if rn.op == "placeholder":
                    continue
                if rn.op == "output":
                    result = map_arg(rn.args[0], lambda n: val_map[n])
                    break
                if rn.op in ("get_attr", "call_module"):
                    _adopt_attr(gm, replacement_gm, rn.target)
                val_map[rn] = graph.node_copy(rn, lambda n: val_map[n])
        anchor.replace_all_uses_with(result)
        for pn in reversed(list(pattern_graph.nodes)):
            gn = match.nodes_map.get(pn)
            if gn is not None and pn.op != "placeholder" and not gn.users:
                graph.erase_node(gn)
    gm.recompile()
    return matches


def _adopt_attr(gm, source, target):
    """Copies an attribute the replacement uses into gm unless gm already has it."""
    obj = gm
    for atom in target.split("."):
        if not hasattr(obj, atom):
            break
        obj = getattr(obj, atom)
    else:
        return
    _copy_attr(source, gm, target)
