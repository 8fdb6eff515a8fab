"""Active parameters per token of a mixture-of-experts checkpoint: ``config.json`` -> ActiveReading.

The arithmetic inference engines use for a forward pass (the shapes of the modules
transformers/vLLM build from the config): attention + dense MLPs + the router + the
``k`` routed experts and the shared experts each token passes through, per layer, plus
the output head. Families: DeepSeek-V3 style (MLA attention, ``n_shared_experts``,
``first_k_dense_replace``; Kimi K2 reuses it), Qwen-MoE (``num_experts``,
``shared_expert_intermediate_size``, ``decoder_sparse_step``, ``mlp_only_layers``) and
Mixtral (``num_local_experts``, every layer sparse).

Convention (stated in every reading's ``formula``): the input embedding is a table
lookup, not a matrix product, so it is NOT counted as active; the output head is
(once more when ``tie_word_embeddings`` shares it). Multi-token-prediction layers
(``num_nextn_predict_layers``) are not run for ordinary decoding and are not counted.
Norm weights and biases are left out (under 0.01 % of any of these models).
With this convention DeepSeek-V3's config gives 36.6B against its published 37B.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claims.readings.config_scopes import TEXT_SCOPES

CONVENTION = (
    "input embedding not counted (a lookup), output head counted, "
    "multi-token-prediction layers and norms not counted"
)


@dataclass(frozen=True)
class ActiveReading:
    """``active`` parameters per token (None when the config is not a known MoE, with
    ``reason``); ``total`` all parameters by the same arithmetic (embedding included);
    ``family`` (deepseek, qwen_moe, mixtral); ``formula`` the sum in words with its
    numbers; ``inputs`` the config values used."""

    active: int | None
    total: int | None = None
    family: str | None = None
    formula: str = ""
    inputs: dict[str, int] = field(default_factory=dict)
    reason: str | None = None


def _scope(config: dict[str, Any]) -> dict[str, Any]:
    for key in TEXT_SCOPES:
        sub = config.get(key)
        if isinstance(sub, dict) and "hidden_size" in sub:
            return sub
    return config


def _ints(cfg: dict[str, Any], *names: str) -> dict[str, int] | None:
    out: dict[str, int] = {}
    for n in names:
        v = cfg.get(n)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            return None
        out[n] = v
    return out


def _gqa_attention(cfg: dict[str, Any], hidden: int) -> tuple[int, str] | None:
    heads = cfg.get("num_attention_heads")
    if not isinstance(heads, int) or heads <= 0:
        return None
    kv = cfg.get("num_key_value_heads") or heads
    head_dim = cfg.get("head_dim") or hidden // heads
    n = hidden * heads * head_dim * 2 + hidden * kv * head_dim * 2  # q, o + k, v
    return n, f"attention {heads}q/{kv}kv heads x {head_dim}"


def _mla_attention(cfg: dict[str, Any], hidden: int) -> tuple[int, str] | None:
    need = _ints(cfg, "num_attention_heads", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim")
    if need is None or not isinstance(cfg.get("v_head_dim"), int):
        return None
    h, kv_rank = need["num_attention_heads"], need["kv_lora_rank"]
    nope, rope, v = need["qk_nope_head_dim"], need["qk_rope_head_dim"], cfg["v_head_dim"]
    q_rank = cfg.get("q_lora_rank")
    q = hidden * q_rank + q_rank * h * (nope + rope) if q_rank else hidden * h * (nope + rope)
    kv = hidden * (kv_rank + rope) + kv_rank * h * (nope + v)
    o = h * v * hidden
    return q + kv + o, f"MLA attention {h} heads (q_lora {q_rank}, kv_lora {kv_rank})"


def _head(cfg: dict[str, Any], hidden: int, vocab: int) -> int:
    return vocab * hidden


def _reading(
    family: str,
    cfg: dict[str, Any],
    layers: int,
    attn: tuple[int, str],
    dense_layers: int,
    dense_mlp: int,
    sparse: tuple[int, int, int, int],
) -> ActiveReading:
    """``sparse`` = (sparse layers, active expert params per layer, router per layer,
    all expert params per layer)."""
    hidden, vocab = cfg["hidden_size"], cfg["vocab_size"]
    n_sparse, active_experts, router, all_experts = sparse
    head = _head(cfg, hidden, vocab)
    body = layers * attn[0] + dense_layers * dense_mlp + n_sparse * (active_experts + router)
    active = body + head
    embed = 0 if cfg.get("tie_word_embeddings") else vocab * hidden
    total = layers * attn[0] + dense_layers * dense_mlp + n_sparse * (all_experts + router)
    total += head + embed
    formula = (
        f"{layers} layers x {attn[1]} ({attn[0]:,}) + {dense_layers} dense MLP layers x "
        f"{dense_mlp:,} + {n_sparse} MoE layers x (active experts {active_experts:,} + "
        f"router {router:,}) + output head {head:,} = {active:,}; {CONVENTION}"
    )
    ints = {k: v for k, v in cfg.items() if isinstance(v, int) and not isinstance(v, bool)}
    return ActiveReading(active, total, family, formula, ints)


def _deepseek(cfg: dict[str, Any]) -> ActiveReading | None:
    need = _ints(
        cfg,
        "hidden_size",
        "vocab_size",
        "num_hidden_layers",
        "n_routed_experts",
        "num_experts_per_tok",
        "moe_intermediate_size",
    )
    attn = _mla_attention(cfg, cfg.get("hidden_size", 0))
    if need is None or attn is None:
        return None
    hidden, layers = need["hidden_size"], need["num_hidden_layers"]
    dense = min(int(cfg.get("first_k_dense_replace") or 0), layers)
    freq = int(cfg.get("moe_layer_freq") or 1)
    n_sparse = sum(1 for i in range(dense, layers) if i % freq == 0)
    inter = int(cfg.get("intermediate_size") or 0)
    expert = 3 * hidden * need["moe_intermediate_size"]
    shared = int(cfg.get("n_shared_experts") or 0)
    k, n = need["num_experts_per_tok"], need["n_routed_experts"]
    return _reading(
        "deepseek",
        cfg,
        layers,
        attn,
        layers - n_sparse,
        3 * hidden * inter,
        (n_sparse, (k + shared) * expert, n * hidden, (n + shared) * expert),
    )


def _gqa_moe(
    cfg: dict[str, Any], experts_key: str, expert_size_key: str
) -> tuple[dict[str, int], tuple[int, str]] | None:
    """What Qwen-MoE and Mixtral configs both need: the sizes (hidden, vocab, layers, the
    expert count under ``experts_key``, ``num_experts_per_tok``, the expert MLP width
    under ``expert_size_key``) and the GQA attention per layer; None when one is missing."""
    need = _ints(
        cfg,
        "hidden_size",
        "vocab_size",
        "num_hidden_layers",
        experts_key,
        "num_experts_per_tok",
        expert_size_key,
    )
    if need is None:
        return None
    attn = _gqa_attention(cfg, need["hidden_size"])
    if attn is None:
        return None
    return need, attn


def _qwen_moe(cfg: dict[str, Any]) -> ActiveReading | None:
    read = _gqa_moe(cfg, "num_experts", "moe_intermediate_size")
    if read is None:
        return None
    need, attn = read
    hidden, layers = need["hidden_size"], need["num_hidden_layers"]
    step = int(cfg.get("decoder_sparse_step") or 1)
    mlp_only = set(cfg.get("mlp_only_layers") or [])
    n_sparse = sum(1 for i in range(layers) if i not in mlp_only and (i + 1) % step == 0)
    expert = 3 * hidden * need["moe_intermediate_size"]
    shared = 3 * hidden * int(cfg.get("shared_expert_intermediate_size") or 0)
    shared_gate = hidden if shared else 0
    k, n = need["num_experts_per_tok"], need["num_experts"]
    inter = int(cfg.get("intermediate_size") or 0)
    return _reading(
        "qwen_moe",
        cfg,
        layers,
        attn,
        layers - n_sparse,
        3 * hidden * inter,
        (n_sparse, k * expert + shared, n * hidden + shared_gate, n * expert + shared),
    )


def _mixtral(cfg: dict[str, Any]) -> ActiveReading | None:
    read = _gqa_moe(cfg, "num_local_experts", "intermediate_size")
    if read is None:
        return None
    need, attn = read
    hidden, layers = need["hidden_size"], need["num_hidden_layers"]
    expert = 3 * hidden * need["intermediate_size"]
    k, n = need["num_experts_per_tok"], need["num_local_experts"]
    return _reading(
        "mixtral", cfg, layers, attn, 0, 0, (layers, k * expert, n * hidden, n * expert)
    )


def active_parameters(config: dict[str, Any] | None) -> ActiveReading:
    """Active parameters per token from a Hugging Face ``config.json`` (see the module
    docstring for the convention). Family by the keys present: ``n_routed_experts`` +
    ``kv_lora_rank`` -> DeepSeek style; ``num_experts`` ->
    Qwen-MoE; ``num_local_experts`` -> Mixtral. A dense model or a config missing a
    needed key -> ``active=None`` with a reason naming what is missing (never a guess).
    Pure; raises nothing."""
    if not config:
        return ActiveReading(None, reason="no config.json")
    cfg = _scope(config)
    if "n_routed_experts" in cfg:
        reading, family = _deepseek(cfg), "DeepSeek-style MoE"
    elif "num_experts" in cfg:
        reading, family = _qwen_moe(cfg), "Qwen-MoE"
    elif "num_local_experts" in cfg:
        reading, family = _mixtral(cfg), "Mixtral-style MoE"
    else:
        return ActiveReading(None, reason="config.json describes no mixture of experts")
    if reading is None:
        return ActiveReading(
            None, reason=f"config.json of a {family} lacks a width, head or expert count"
        )
    return reading
