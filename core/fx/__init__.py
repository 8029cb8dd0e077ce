"""core.fx: torch.fx's program capture and transformation.

symbolic_trace runs a Module's forward on Proxy values and records a Graph of Nodes;
GraphModule turns a Graph back into a Module with generated Python; Interpreter and
Transformer run or rewrite a graph node by node; subgraph_rewriter.replace_pattern swaps
matching subgraphs. Files: node, graph, _codegen, _tabular, proxy, _symbolic_trace,
graph_module, interpreter, subgraph_rewriter.
"""
from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import Node, map_arg
from core.fx.proxy import Proxy, TraceError
from core.fx._symbolic_trace import Tracer, symbolic_trace, wrap
from core.fx.interpreter import Interpreter, Transformer
from core.fx import subgraph_rewriter
from core.fx.subgraph_rewriter import replace_pattern

__all__ = ["symbolic_trace", "Tracer", "wrap", "Graph", "GraphModule", "Node", "Proxy", "TraceError",
           "Interpreter", "Transformer", "map_arg", "replace_pattern", "subgraph_rewriter"]
