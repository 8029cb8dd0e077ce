"""Multi-head attention (torch.nn.functional.multi_head_attention_forward, PyTorch 1.8 semantics;
unbatched 2-D inputs accepted like later releases)."""
import warnings

import core

__all__ = ["multi_head_attention_forward"]


def _linear(x, weight, bias):
    from core.nn.functional import linear
    return linear(x, weight, bias)


def _dropout(x, p, training):
    if p == 0.0 or not training:
        return x
    from core.nn.functional import dropout
    return dropout(x, p=p, training=training)


def _bool_mask(mask, name):
    if mask.dtype == core.uint8:
        warnings.warn(f"Byte tensor for {name} in nn.MultiheadAttention is deprecated. Use bool tensor instead.")
        return mask.to(core.bool)
    return mask


def _pad_last(mask):
    """One more (unmasked) key column: for bias_k/bias_v and add_zero_attn."""
    return core.pad(mask, (0, 1))


def _in_projection(query, key, value, embed_dim, in_proj_weight, in_proj_bias, use_separate_proj_weight,
                   q_proj_weight, k_proj_weight, v_proj_weight):
    e = embed_dim
    b = in_proj_bias
    bq, bk, bv = (None, None, None) if b is None else (b[0:e], b[e:2 * e], b[2 * e:])
    if use_separate_proj_weight:
        if q_proj_weight is None or k_proj_weight is None or v_proj_weight is None:
            raise RuntimeError("multi_head_attention_forward(): use_separate_proj_weight is True but "
                               "q_proj_weight, k_proj_weight or v_proj_weight is None")
        return (_linear(query, q_proj_weight, bq), _linear(key, k_proj_weight, bk),
                _linear(value, v_proj_weight, bv))
    w = in_proj_weight
    if query is key and key is value:  # self-attention: one GEMM for q, k and v
        return _linear(query, w, b).chunk(3, -1)
    if key is value:
        q = _linear(query, w[0:e], bq)
        bkv = None if b is None else b[e:]
        k, v = _linear(key, w[e:], bkv).chunk(2, -1)
        return q, k, v
    return _linear(query, w[0:e], bq), _linear(key, w[e:2 * e], bk), _linear(value, w[2 * e:], bv)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None):
    name = "multi_head_attention_forward"
    unbatched = query.dim() == 2
    if unbatched:
        if key.dim() != 2 or value.dim() != 2:
            raise RuntimeError(f"{name}(): For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but "
                               f"found {key.dim()}-D and {value.dim()}-D tensors respectively")
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    elif query.dim() != 3 or key.dim() != 3 or value.dim() != 3:
        raise RuntimeError(f"{name}(): query, key and value should be 3-D (or all 2-D), got {query.dim()}-D, "
                           f"{key.dim()}-D and {value.dim()}-D")
    tgt_len, bsz, embed_dim = query.shape
    if embed_dim != embed_dim_to_check:
        raise RuntimeError(f"{name}(): was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise RuntimeError(f"{name}(): embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if key.shape[:2] != value.shape[:2]:
        raise RuntimeError(f"{name}(): key's sequence and batch dims {tuple(key.shape[:2])} do not match value's "
                           f"{tuple(value.shape[:2])}")

    q, k, v = _in_projection(query, key, value, embed_dim, in_proj_weight, in_proj_bias,
                             use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight)
    q = q * (float(head_dim) ** -0.5)

    if attn_mask is not None:
        attn_mask = _bool_mask(attn_mask, "attn_mask")
        if not (attn_mask.dtype.is_floating_point or attn_mask.dtype == core.bool):
            raise RuntimeError(f"{name}(): Only float, byte, and bool types are supported for attn_mask, not "
                               f"{attn_mask.dtype}")
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, key.shape[0]):
                raise RuntimeError(f"{name}(): The size of the 2D attn_mask is not correct.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, key.shape[0]):
                raise RuntimeError(f"{name}(): The size of the 3D attn_mask is not correct.")
        else:
            raise RuntimeError(f"{name}(): attn_mask's dimension {attn_mask.dim()} is not supported")
    if key_padding_mask is not None:
        key_padding_mask = _bool_mask(key_padding_mask, "key_padding_mask")

    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise RuntimeError(f"{name}(): bias cannot be added to static key/value.")
        k = core.cat([k, bias_k.expand(1, bsz, embed_dim)])
        v = core.cat([v, bias_v.expand(1, bsz, embed_dim)])
        attn_mask = None if attn_mask is None else _pad_last(attn_mask)
        key_padding_mask = None if key_padding_mask is None else _pad_last(key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise RuntimeError(f"{name}(): bias_k and bias_v must both be given or both be None")

    bh = bsz * num_heads
    q = q.reshape(tgt_len, bh, head_dim).transpose(0, 1)
    k = k.reshape(k.shape[0], bh, head_dim).transpose(0, 1) if static_k is None else static_k
    v = v.reshape(v.shape[0], bh, head_dim).transpose(0, 1) if static_v is None else static_v
    src_len = k.shape[1]

    if key_padding_mask is not None and tuple(key_padding_mask.shape) != (bsz, src_len):
        raise RuntimeError(f"{name}(): expecting key_padding_mask shape of {(bsz, src_len)}, but got "
                           f"{tuple(key_padding_mask.shape)}")
    if add_zero_attn:
        src_len += 1
        k = core.cat([k, core.zeros((bh, 1, head_dim), dtype=k.dtype)], 1)
        v = core.cat([v, core.zeros((bh, 1, head_dim), dtype=v.dtype)], 1)
        attn_mask = None if attn_mask is None else _pad_last(attn_mask)
        key_padding_mask = None if key_padding_mask is None else _pad_last(key_padding_mask)

    scores = core.bmm(q, k.transpose(1, 2))  # (bsz * heads, tgt, src)
    if attn_mask is not None:
        if attn_mask.dtype == core.bool:
            scores = core.masked_fill(scores, attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    if key_padding_mask is not None:
        scores = core.masked_fill(scores.reshape(bsz, num_heads, tgt_len, src_len),
                                  key_padding_mask.reshape(bsz, 1, 1, src_len), float("-inf"))
        scores = scores.reshape(bh, tgt_len, src_len)
    weights = _dropout(core.softmax(scores, -1), dropout_p, training)

    out = core.bmm(weights, v).transpose(0, 1).reshape(tgt_len, bsz, embed_dim)
    out = _linear(out, out_proj_weight, out_proj_bias)
    averaged = None
    if need_weights:
        averaged = weights.reshape(bsz, num_heads, tgt_len, src_len).sum(1) / num_heads
    if unbatched:
        out = out.squeeze(1)
        averaged = None if averaged is None else averaged.squeeze(0)
    return out, averaged
