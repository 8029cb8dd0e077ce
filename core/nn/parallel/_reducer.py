"""DistributedDataParallel's gradient reducer: parameters grouped into flat buckets (in reverse
order, since backward produces the last layers' gradients first), each bucket all-reduced
asynchronously as soon as every gradient in it is ready, while backward goes on.

A hook on each parameter's AccumulateGrad node (the reducer holds the nodes so the hooks live as
long as it does) copies the freshly accumulated .grad into its bucket. Buckets are launched strictly
in index order, so every rank issues the same all-reduces in the same order whatever order its
hooks fire in. When the last bucket has been launched, the hook waits for all of them and writes
the averaged gradients back to .grad.
"""
import time
import weakref

import core
import core.distributed as dist

FIRST_BUCKET_BYTES = 1024 * 1024  # torch's dist._DEFAULT_FIRST_BUCKET_BYTES: the first bucket launches early


def bucket_assignment(params, bucket_bytes_cap, first_bucket_bytes=None):
    """Lists of parameter indices, one per bucket: parameters taken in reverse order, one dtype per
    bucket, a bucket closed once it holds `limit` bytes (the first one per dtype: first_bucket_bytes,
    default FIRST_BUCKET_BYTES)."""
    if first_bucket_bytes is None:
        first_bucket_bytes = FIRST_BUCKET_BYTES
    open_buckets, sizes, limits, closed = {}, {}, {}, []
    for index in reversed(range(len(params))):
        p = params[index]
        open_buckets.setdefault(p.dtype, []).append(index)
        sizes[p.dtype] = sizes.get(p.dtype, 0) + p.numel() * p.element_size()
        if sizes[p.dtype] >= limits.get(p.dtype, first_bucket_bytes):
            closed.append(open_buckets.pop(p.dtype))
            sizes[p.dtype], limits[p.dtype] = 0, bucket_bytes_cap
    closed += [b for b in open_buckets.values() if b]
    return sorted(closed, key=lambda bucket: -bucket[0])  # in the order backward fills them


class _Bucket:
    def __init__(self, params, indices):
        self.indices = indices
        dtype = params[indices[0]].dtype
        self.buffer = core.zeros(sum(params[i].numel() for i in indices), dtype=dtype)
        self.views, offset = {}, 0
        for i in indices:
            n = params[i].numel()
            self.views[i] = self.buffer.narrow(0, offset, n).view(tuple(params[i].shape))
            offset += n
        self.pending = len(indices)
        self.work = None


def _tensors_in(value):
    if isinstance(value, core.Tensor):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _tensors_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors_in(v)


class Reducer:
    def __init__(self, params, names, process_group, bucket_bytes_cap, find_unused_parameters,
                 gradient_as_bucket_view):
        self.params = params
        self.names = names
        self.process_group = process_group
        self.world_size = process_group.size()
        self.find_unused_parameters = find_unused_parameters
        self.gradient_as_bucket_view = gradient_as_bucket_view
        self.buckets = [_Bucket(params, indices) for indices in bucket_assignment(params, bucket_bytes_cap)]
        self.bucket_of = {i: b for b in self.buckets for i in b.indices}
        self.expect_reduction = False   # a forward ran with gradient sync: the backward must reduce
        self.ready = [False] * len(params)
        self.next_bucket = 0
        self.local_used = core.zeros(len(params), dtype=core.int32)
        self.used_work = None
        self.timeline = None  # (time the last gradient was ready, [(all-reduce start, end)...]) of the last step
        ref = weakref.ref(self)
        self.accumulators = []
        for i, p in enumerate(params):
            accumulator = p.expand_as(p).grad_fn.next_functions[0][0]
            accumulator.register_hook(lambda grads_in, grads_out, i=i: _call(ref, i))
            self.accumulators.append(accumulator)
        self._accumulator_index = {id(a): i for i, a in enumerate(self.accumulators)}

    # ---- around forward

    def prepare_for_forward(self):
        if self.expect_reduction:
            unready = [self.names[i] for i, r in enumerate(self.ready) if not r]
            raise RuntimeError(
                "Expected to have finished reduction in the prior iteration before starting a new one. This error "
                "indicates that your module has parameters that were not used in producing loss. You can enable "
                "unused parameter detection by passing the keyword argument `find_unused_parameters=True` to "
                "`core.nn.parallel.DistributedDataParallel`, and by making sure all `forward` function outputs "
                "participate in calculating loss. Parameters that did not receive a gradient: "
                + ", ".join(unready[:20]) + (" ..." if len(unready) > 20 else ""))

    def prepare_for_backward(self, outputs):
        """Called after a forward with gradient sync: arms the hooks; with find_unused_parameters,
        parameters the outputs do not depend on are marked ready at once."""
        self.expect_reduction = True
        self.ready = [False] * len(self.params)
        self.next_bucket = 0
        for b in self.buckets:
            b.pending, b.work = len(b.indices), None
        self.local_used.zero_()
        self.used_work = None
        if self.find_unused_parameters:
            reached = self._reachable_parameters(outputs)
            for i in range(len(self.params)):
                if i not in reached:
                    self.mark_ready(i)

    def _reachable_parameters(self, outputs):
        found, seen = set(), {}
        stack = [t.grad_fn for t in _tensors_in(outputs) if t.grad_fn is not None]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen[id(node)] = node  # keeps the wrapper alive, so its id stays unique during the walk
            index = self._accumulator_index.get(id(node))
            if index is not None:
                found.add(index)
            stack.extend(fn for fn, _ in node.next_functions if fn is not None)
        return found

    # ---- during backward

    def mark_ready(self, index):
        if not self.expect_reduction:
            return  # a forward under no_sync(), or outside DDP's forward: gradients stay local
        if self.ready[index]:
            raise RuntimeError(f"DistributedDataParallel: parameter {self.names[index]} got a gradient twice in one "
                               f"iteration (a second backward through the same forward?); each forward may be "
                               f"followed by one backward")
        self.ready[index] = True
        bucket = self.bucket_of[index]
        grad, view = self.params[index].grad, bucket.views[index]
        if grad is None:
            view.zero_()
        else:
            if grad.data_ptr() != view.data_ptr():
                view.copy_(grad)
            self.local_used[index] = 1
        bucket.pending -= 1
        if bucket.pending == 0:
            self._launch_ready_buckets()

    def _launch_ready_buckets(self):
        while self.next_bucket < len(self.buckets) and self.buckets[self.next_bucket].pending == 0:
            bucket = self.buckets[self.next_bucket]
            bucket.buffer.div_(self.world_size)  # SUM of gradients / world size = their average
            bucket.work = dist.all_reduce(bucket.buffer, group=self.process_group, async_op=True)
            self.next_bucket += 1
        if self.next_bucket == len(self.buckets):
            if self.find_unused_parameters:
                self.used_work = dist.all_reduce(self.local_used, dist.ReduceOp.MAX, group=self.process_group,
                                                 async_op=True)
            self._finalize()

    def _finalize(self):
        grads_ready = time.perf_counter()
        works = [b.work for b in self.buckets]
        for work in works:
            work.wait()
        if self.used_work is not None:
            self.used_work.wait()
        used_anywhere = self.local_used.tolist() if self.find_unused_parameters else None
        for i, p in enumerate(self.params):
            if used_anywhere is not None and not used_anywhere[i]:
                continue  # no rank has a gradient for it: .grad stays as it is (None)
            view = self.bucket_of[i].views[i]
            if self.gradient_as_bucket_view:
                if p.grad is None or p.grad.data_ptr() != view.data_ptr():
                    p.grad = view
            elif p.grad is None:
                p.grad = view.clone()
            else:
                p.grad.detach().copy_(view)
        self.expect_reduction = False
        self.timeline = (grads_ready, [(w.started, w.finished) for w in works])


def _call(ref, index):
    reducer = ref()
    if reducer is not None:
        reducer.mark_ready(index)
