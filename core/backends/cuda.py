"""core.backends.cuda: torch.backends.cuda's flags, settable; no CUDA is present."""


class _MatmulFlags:
    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True
    allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()


def is_built():
    return False
