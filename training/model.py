"""A minimal BERT cross-encoder in PyTorch.

Written out (rather than taken from `transformers`) so that the ONNX graph built by `export.py`
mirrors it op for op and the weight names stay under our control.
"""
import math

import torch
from torch import nn

LABELS = ["entailment", "neutral", "contradiction"]


class Config:
    def __init__(self, d):
        self.vocab_size = d["vocab_size"]
        self.hidden = d["hidden_size"]
        self.layers = d["num_hidden_layers"]
        self.heads = d["num_attention_heads"]
        self.intermediate = d["intermediate_size"]
        self.max_positions = d["max_position_embeddings"]
        self.type_vocab = d["type_vocab_size"]
        self.eps = d["layer_norm_eps"]
        self.dropout = d.get("hidden_dropout_prob", 0.1)


class Layer(nn.Module):
    def __init__(self, c: Config):
        super().__init__()
        self.heads = c.heads
        self.q = nn.Linear(c.hidden, c.hidden)
        self.k = nn.Linear(c.hidden, c.hidden)
        self.v = nn.Linear(c.hidden, c.hidden)
        self.attn_out = nn.Linear(c.hidden, c.hidden)
        self.attn_norm = nn.LayerNorm(c.hidden, eps=c.eps)
        self.ffn_in = nn.Linear(c.hidden, c.intermediate)
        self.ffn_out = nn.Linear(c.intermediate, c.hidden)
        self.ffn_norm = nn.LayerNorm(c.hidden, eps=c.eps)
        self.drop = nn.Dropout(c.dropout)

    def forward(self, x, bias):
        b, t, h = x.shape
        d = h // self.heads

        def split(y):
            return y.view(b, t, self.heads, d).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d) + bias
        ctx = (self.drop(scores.softmax(-1)) @ v).transpose(1, 2).reshape(b, t, h)
        x = self.attn_norm(x + self.drop(self.attn_out(ctx)))
        y = self.ffn_out(nn.functional.gelu(self.ffn_in(x)))
        return self.ffn_norm(x + self.drop(y))


class CrossEncoder(nn.Module):
    def __init__(self, c: Config, n_labels=3):
        super().__init__()
        self.word = nn.Embedding(c.vocab_size, c.hidden)
        self.position = nn.Embedding(c.max_positions, c.hidden)
        self.token_type = nn.Embedding(c.type_vocab, c.hidden)
        self.emb_norm = nn.LayerNorm(c.hidden, eps=c.eps)
        self.layers = nn.ModuleList(Layer(c) for _ in range(c.layers))
        self.pooler = nn.Linear(c.hidden, c.hidden)
        self.classifier = nn.Linear(c.hidden, n_labels)
        self.drop = nn.Dropout(c.dropout)

    def forward(self, input_ids, attention_mask, token_type_ids):
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device)
        x = self.word(input_ids) + self.position(pos)[None] + self.token_type(token_type_ids)
        x = self.drop(self.emb_norm(x))
        # Additive mask: a large finite negative (not -inf) so every runtime computes it the same way.
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return self.classifier(self.drop(pooled))


# Hugging Face BERT weight names -> ours.
def _hf_name_map(n_layers):
    m = {
        "embeddings.word_embeddings.weight": "word.weight",
        "embeddings.position_embeddings.weight": "position.weight",
        "embeddings.token_type_embeddings.weight": "token_type.weight",
        "embeddings.LayerNorm.weight": "emb_norm.weight",
        "embeddings.LayerNorm.bias": "emb_norm.bias",
        "pooler.dense.weight": "pooler.weight",
        "pooler.dense.bias": "pooler.bias",
    }
    parts = {
        "attention.self.query": "q",
        "attention.self.key": "k",
        "attention.self.value": "v",
        "attention.output.dense": "attn_out",
        "attention.output.LayerNorm": "attn_norm",
        "intermediate.dense": "ffn_in",
        "output.dense": "ffn_out",
        "output.LayerNorm": "ffn_norm",
    }
    for i in range(n_layers):
        for hf, ours in parts.items():
            for p in ("weight", "bias"):
                m[f"encoder.layer.{i}.{hf}.{p}"] = f"layers.{i}.{ours}.{p}"
    return m


def load_pretrained(model: CrossEncoder, safetensors_path, n_layers):
    from safetensors.torch import load_file

    hf = load_file(safetensors_path)
    hf = {k.removeprefix("bert."): v for k, v in hf.items()}
    names = _hf_name_map(n_layers)
    state = {names[k]: v for k, v in hf.items() if k in names}
    missing, unexpected = model.load_state_dict(state, strict=False)
    # Only the new classification head may be missing.
    assert set(missing) <= {"classifier.weight", "classifier.bias", "pooler.weight", "pooler.bias"}, missing
    assert not unexpected, unexpected
    return missing
