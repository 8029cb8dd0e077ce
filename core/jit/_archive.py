"""The jit archive: a traced graph and its tensors in one zip file.

Layout (a torch.save-style zip, so core.load of the file returns the tensors):
  <name>/data.pkl, <name>/data/<key>   the tensors {attribute path: tensor}, as core.save
                                        writes them (read back with the safe unpickler)
  <name>/graph.json                     the graph (below)
  <name>/byteorder, version, ...        as core.save

graph.json: {"format": "tensorzoo.jit", "version": 1,
             "attributes": {path: "parameter" | "buffer" | "constant"},
             "nodes": [{"name", "op", "target", "args", "kwargs"}, ...]}
  op: placeholder | get_attr | call_function | call_method | output (no modules: the graph
  is made of functions). call_function targets are the names of core/jit/_targets.py.
  Values in args/kwargs are JSON, tagged where JSON has no type of its own:
  {"node": name}, {"tuple": [...]}, {"list": [...]}, {"dict": [[key, value], ...]},
  {"slice": [start, stop, step]}, {"float": "inf" | "-inf" | "nan"}, {"complex": [re, im]},
  {"dtype": "float32"}, {"memory_format": "channels_last"}, {"ellipsis": true}.

Loading parses JSON and the safe pickle only, checks every name, target, reference and
value, and runs nothing from the file: a hostile or corrupt file raises.
"""
import io
import json
import math
import pickle

import core
from core import nn
from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import Node
from core.jit import _targets
from core.serialization._io import archive_name, open_sink, open_source
from core.serialization._load import _load_zip, _Options
from core.serialization._pickler import CheckpointPickler, StorageTable
from core.serialization._save import DEFAULT_PROTOCOL, _write_zip
from core.serialization._zip import ZipReader, is_zip

FORMAT, VERSION = "tensorzoo.jit", 1
_OPS = ("placeholder", "get_attr", "call_function", "call_method", "output")
_KINDS = ("parameter", "buffer", "constant")
_MAX_DEPTH = 32


class ArchiveError(RuntimeError):
    pass


# ---- values
def _encode(v):
    if isinstance(v, Node):
        return {"node": v.name}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
    if isinstance(v, tuple):
        return {"tuple": [_encode(x) for x in v]}
    if isinstance(v, list):
        return {"list": [_encode(x) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[_encode(k), _encode(x)] for k, x in v.items()]}
    if isinstance(v, slice):
        return {"slice": [_encode(v.start), _encode(v.stop), _encode(v.step)]}
    if v is Ellipsis:
        return {"ellipsis": True}
    if isinstance(v, complex):
        return {"complex": [v.real, v.imag]}
    if isinstance(v, core.dtype):
        return {"dtype": repr(v).split(".", 1)[1]}
    if isinstance(v, core.memory_format):
        return {"memory_format": repr(v).split(".", 1)[1]}
    raise ArchiveError(f"core.jit.save: cannot store a value of type {type(v).__name__} in a graph")


def _decode(v, nodes, depth=0):
    if depth > _MAX_DEPTH:
        raise ArchiveError("core.jit.load: values nest too deeply")
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v
    if not isinstance(v, dict) or len(v) != 1:
        raise ArchiveError(f"core.jit.load: malformed value {str(v)[:80]!r}")
    (tag, body), = v.items()
    rec = lambda x: _decode(x, nodes, depth + 1)  # noqa: E731
    if tag == "node":
        if body not in nodes:
            raise ArchiveError(f"core.jit.load: reference to {str(body)[:80]!r}, which is not defined before its use")
        return nodes[body]
    if tag in ("tuple", "list") and isinstance(body, list):
        items = [rec(x) for x in body]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict" and isinstance(body, list) and all(isinstance(p, list) and len(p) == 2 for p in body):
        out = {}
        for k, x in body:
            if not isinstance(k, (str, int, bool)) and k is not None:
                raise ArchiveError("core.jit.load: dictionary keys must be strings or numbers")
            out[k] = rec(x)
        return out
    if tag == "slice" and isinstance(body, list) and len(body) == 3:
        return slice(*(rec(x) for x in body))
    if tag == "float" and body in ("inf", "-inf", "nan"):
        return float(body)
    if tag == "complex" and isinstance(body, list) and len(body) == 2 and all(isinstance(x, (int, float)) for x in body):
        return complex(*body)
    if tag == "ellipsis" and body is True:
        return Ellipsis
    if tag in ("dtype", "memory_format") and isinstance(body, str) and body.isidentifier():
        value = getattr(core, body, None)
        if isinstance(value, core.dtype if tag == "dtype" else core.memory_format):
            return value
    raise ArchiveError(f"core.jit.load: malformed or unknown value {str(v)[:80]!r}")


# ---- saving
def graph_record(graph, attributes):
    nodes = []
    for node in graph.nodes:
        if node.op == "call_module":
            raise ArchiveError(f"core.jit.save: node {node.name} calls module {node.target!r}; trace the model "
                               "with core.jit.trace so that it is made of functions")
        target = _targets.name_of(node.target) if node.op == "call_function" else node.target
        nodes.append({"name": node.name, "op": node.op, "target": target,
                      "args": _encode(tuple(node.args)), "kwargs": _encode(dict(node.kwargs))})
    doc = {"format": FORMAT, "version": VERSION, "attributes": attributes, "nodes": nodes}
    return json.dumps(doc, allow_nan=False, separators=(",", ":")).encode("utf-8")


def save_module(module, f):
    tensors, kinds = {}, {}
    for node in module.graph.nodes:
        if node.op == "get_attr":
            value, kind = _attribute(module, node.target)
            tensors[node.target], kinds[node.target] = value, kind
    record = graph_record(module.graph, kinds)
    storages = StorageTable()
    buffer = io.BytesIO()
    CheckpointPickler(buffer, DEFAULT_PROTOCOL, storages, legacy=False).dump(tensors)
    with open_sink(f) as stream:
        _write_zip(stream, archive_name(f), buffer.getvalue(), storages, False, [("graph.json", record)])


def _attribute(module, target):
    *parents, field = target.split(".")
    owner = module
    for atom in parents:
        owner = getattr(owner, atom)
    value = getattr(owner, field)
    if not isinstance(value, core.Tensor):
        raise ArchiveError(f"core.jit.save: attribute {target!r} is a {type(value).__name__}, not a tensor")
    if isinstance(value, nn.Parameter):
        return value, "parameter"
    return value, "buffer" if isinstance(owner, nn.Module) and field in owner._buffers else "constant"


# ---- loading
def load_archive(f, map_location=None):
    """(graph, {path: (tensor, kind)}) from a jit archive; raises on anything unexpected."""
    with open_source(f) as source:
        head = source.read(0, min(source.size, 4))
        if not is_zip(head):
            raise ArchiveError("core.jit.load: not a jit archive (not a zip file)")
        reader = ZipReader(source)
        if not reader.has("graph.json"):
            raise ArchiveError("core.jit.load: the archive holds no graph.json (a core.save checkpoint? "
                               "use core.load for those)")
        doc = _parse_json(reader.read("graph.json"))
        options = _Options(map_location, True, pickle, "utf-8", {})
        tensors = _load_zip(reader, options, False)
    if not isinstance(tensors, dict) or not all(isinstance(k, str) and isinstance(v, core.Tensor)
                                                for k, v in tensors.items()):
        raise ArchiveError("core.jit.load: the archive's data.pkl is not a dict of tensors")
    attributes = doc["attributes"]
    if not isinstance(attributes, dict) or set(attributes) != set(tensors) or \
            not all(kind in _KINDS for kind in attributes.values()):
        raise ArchiveError("core.jit.load: the graph's attribute table does not match the archive's tensors")
    reserved = set(vars(nn.Module())) | set(dir(GraphModule))  # names a module needs for itself
    for path in attributes:
        if not all((atom.isidentifier() or atom.isdigit()) and atom not in reserved for atom in path.split(".")):
            raise ArchiveError(f"core.jit.load: malformed or reserved attribute path {path[:80]!r}")
    graph = _build_graph(doc["nodes"], attributes)
    return graph, {path: (tensors[path], kind) for path, kind in attributes.items()}


def _parse_json(data):
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ArchiveError(f"core.jit.load: graph.json is not valid JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArchiveError("core.jit.load: graph.json is not a tensorzoo jit graph")
    if doc.get("version") != VERSION:
        raise ArchiveError(f"core.jit.load: graph format version {doc.get('version')!r} is not supported "
                           f"(this build reads version {VERSION})")
    if not isinstance(doc.get("nodes"), list) or "attributes" not in doc:
        raise ArchiveError("core.jit.load: graph.json lacks its node list or attribute table")
    return doc


def _reject_constant(name):
    raise ValueError(f"bare {name} is not allowed")


def _build_graph(records, attributes):
    graph = Graph()
    nodes = {}
    for i, rec in enumerate(records):
        if not isinstance(rec, dict) or set(rec) != {"name", "op", "target", "args", "kwargs"}:
            raise ArchiveError(f"core.jit.load: node record {i} is malformed")
        name, op, target = rec["name"], rec["op"], rec["target"]
        if not isinstance(name, str) or not name.isidentifier() or name in nodes:
            raise ArchiveError(f"core.jit.load: node {i} has a bad or repeated name {str(name)[:80]!r}")
        if op not in _OPS:
            raise ArchiveError(f"core.jit.load: node {name} has op {str(op)[:40]!r}; allowed: {', '.join(_OPS)}")
        if op == "call_function":
            target = _targets.resolve(target)
        elif op == "call_method":
            target = _targets.check_method_name(target)
        elif op == "get_attr" and target not in attributes:
            raise ArchiveError(f"core.jit.load: node {name} reads attribute {str(target)[:80]!r}, which the archive lacks")
        elif op == "placeholder" and (not isinstance(target, str) or not target.isidentifier()):
            raise ArchiveError(f"core.jit.load: input {name} has a bad name")
        elif op == "output" and (target != "output" or i != len(records) - 1):
            raise ArchiveError("core.jit.load: the output node must come last")
        args, kwargs = _decode(rec["args"], nodes), _decode(rec["kwargs"], nodes)
        if not isinstance(args, tuple) or not isinstance(kwargs, dict) or \
                not all(isinstance(k, str) and k.isidentifier() for k in kwargs):
            raise ArchiveError(f"core.jit.load: node {name} has malformed arguments")
        if target is _targets.resolve("builtins.getattr"):
            _targets.check_attribute_read(args)
        nodes[name] = graph.create_node(op, target, args, kwargs, name=name)
    if not records or records[-1].get("op") != "output":
        raise ArchiveError("core.jit.load: the graph has no output node")
    graph.lint()
    return graph
