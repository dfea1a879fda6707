"""Build the cross-encoder's ONNX graph (opset 17) straight from a state dict.

Two variants from one builder: fp32, and weight-only int8 (per-output-channel symmetric int8 weights
behind `DequantizeLinear`; word-embedding rows gathered as int8 and scaled after the gather). Only
plain ops (no fused LayerNormalization/Gelu/Attention) so tract and onnxruntime compute the same thing.
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class GraphBuilder:
    def __init__(self, state, cfg, quantize: bool):
        self.state = {k: v.detach().float().cpu().numpy() for k, v in state.items()}
        self.cfg = cfg
        self.quantize = quantize
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, hint):
        self.n += 1
        return f"{hint}_{self.n}"

    def const(self, hint, array):
        nm = self.name(hint)
        self.inits.append(numpy_helper.from_array(np.asarray(array), nm))
        return nm

    def op(self, op_type, inputs, hint=None, **attrs):
        out = self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=out, **attrs))
        return out

    def weight(self, key):
        """A Linear weight as an [in, out] matrix: int8 + per-output-channel scale, or fp32."""
        w = self.state[key].T.astype(np.float32)  # torch stores [out, in]
        if not self.quantize:
            return self.const(key, w)
        scale = np.maximum(np.abs(w).max(axis=0), 1e-8) / 127.0
        q = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        return self.op("DequantizeLinear", [self.const(key + "_q", q), self.const(key + "_scale", scale.astype(np.float32)),
                                            self.const(key + "_zp", np.zeros(w.shape[1], np.int8))],
                       hint=key + "_deq", axis=1)

    def linear(self, x, prefix, quantize=True):
        w = self.weight(prefix + ".weight") if quantize else self.const(prefix, self.state[prefix + ".weight"].T)
        return self.op("Add", [self.op("MatMul", [x, w]), self.const(prefix + ".bias", self.state[prefix + ".bias"])])

    def layer_norm(self, x, prefix):
        eps = self.cfg["layer_norm_eps"]
        mean = self.op("ReduceMean", [x], axes=[-1], keepdims=1)
        centered = self.op("Sub", [x, mean])
        var = self.op("ReduceMean", [self.op("Mul", [centered, centered])], axes=[-1], keepdims=1)
        denom = self.op("Sqrt", [self.op("Add", [var, self.const("eps", np.float32(eps))])])
        normed = self.op("Div", [centered, denom])
        return self.op("Add", [self.op("Mul", [normed, self.const(prefix + ".weight", self.state[prefix + ".weight"])]),
                               self.const(prefix + ".bias", self.state[prefix + ".bias"])])

    def gelu(self, x):
        inner = self.op("Erf", [self.op("Div", [x, self.const("sqrt2", np.float32(np.sqrt(2.0)))])])
        return self.op("Mul", [self.op("Mul", [x, self.op("Add", [inner, self.const("one", np.float32(1.0))])]),
                               self.const("half", np.float32(0.5))])

    def word_embeddings(self, ids):
        table = self.state["word.weight"]
        if not self.quantize:
            return self.op("Gather", [self.const("word", table), ids], axis=0)
        scale = np.maximum(np.abs(table).max(axis=1), 1e-8) / 127.0  # one scale per vocabulary row
        q = np.clip(np.round(table / scale[:, None]), -127, 127).astype(np.int8)
        rows = self.op("Cast", [self.op("Gather", [self.const("word_q", q), ids], axis=0)], to=TensorProto.FLOAT)
        scales = self.op("Gather", [self.const("word_scale", scale.astype(np.float32)), ids], axis=0)
        return self.op("Mul", [rows, self.op("Unsqueeze", [scales, self.const("axis_last", np.array([-1], np.int64))])])

    def attention_constants(self, hidden, heads):
        """The shapes and scale every layer's attention shares (made once per graph)."""
        d = hidden // heads
        self.split_shape = self.const("split_shape", np.array([0, 0, heads, d], np.int64))
        self.merge_shape = self.const("merge_shape", np.array([0, 0, hidden], np.int64))
        self.inv_sqrt_d = self.const("inv_sqrt_d", np.float32(1.0 / np.sqrt(d)))

    def encoder_layer(self, x, bias, names):
        """One post-norm transformer layer (BERT's and MPNet's); `names` gives the weight prefixes of
        q, k, v, o, attn_norm, ffn_in, ffn_out and ffn_norm; `bias` is added to the attention scores."""
        split = lambda key, perm: self.op("Transpose", [self.op("Reshape", [self.linear(x, names[key]), self.split_shape])], perm=perm)
        q, k, v = split("q", [0, 2, 1, 3]), split("k", [0, 2, 3, 1]), split("v", [0, 2, 1, 3])
        scores = self.op("Add", [self.op("Mul", [self.op("MatMul", [q, k]), self.inv_sqrt_d]), bias])
        ctx = self.op("MatMul", [self.op("Softmax", [scores], axis=-1), v])
        ctx = self.op("Reshape", [self.op("Transpose", [ctx], perm=[0, 2, 1, 3]), self.merge_shape])
        x = self.layer_norm(self.op("Add", [x, self.linear(ctx, names["o"])]), names["attn_norm"])
        y = self.linear(self.gelu(self.linear(x, names["ffn_in"])), names["ffn_out"])
        return self.layer_norm(self.op("Add", [x, y]), names["ffn_norm"])

    def build(self):
        c = self.cfg
        h, heads = c["hidden_size"], c["num_attention_heads"]
        ids, mask, types = "input_ids", "attention_mask", "token_type_ids"
        seq_len = self.op("Gather", [self.op("Shape", [ids]), self.const("one_idx", np.array([1], np.int64))], axis=0)
        pos = self.op("Slice", [self.const("position", self.state["position.weight"]),
                                self.const("zero", np.array([0], np.int64)), seq_len,
                                self.const("axis0", np.array([0], np.int64))])
        x = self.op("Add", [self.op("Add", [self.word_embeddings(ids), pos]),
                            self.op("Gather", [self.const("token_type", self.state["token_type.weight"]), types], axis=0)])
        x = self.layer_norm(x, "emb_norm")
        maskf = self.op("Cast", [mask], to=TensorProto.FLOAT)
        bias = self.op("Mul", [self.op("Sub", [self.const("one", np.float32(1.0)), maskf]), self.const("neg", np.float32(-10000.0))])
        bias = self.op("Unsqueeze", [bias, self.const("axes12", np.array([1, 2], np.int64))])  # [B,1,1,S]
        self.attention_constants(h, heads)

        def layer(x, p):
            names = {"q": ".q", "k": ".k", "v": ".v", "o": ".attn_out", "attn_norm": ".attn_norm",
                     "ffn_in": ".ffn_in", "ffn_out": ".ffn_out", "ffn_norm": ".ffn_norm"}
            return self.encoder_layer(x, bias, {key: p + suffix for key, suffix in names.items()})

        def head(x, prefix):
            cls = self.op("Gather", [x, self.const("zero_scalar", np.array(0, np.int64))], axis=1)  # [B,H]
            pooled = self.op("Tanh", [self.linear(cls, prefix + "pooler")])
            return self.linear(pooled, prefix + "classifier", quantize=False)

        # More heads (training/multitask.py: four-way and evidence heads on the trunk's top layer; the
        # older branches of training/fourway.py and training/evidence.py: their own copies of the top
        # layers, fed by the shared trunk below), when the state has them.
        branches = []
        for prefix, name, n in (("four", "four_way", 4), ("evidence", "evidence", 2)):
            if prefix + ".classifier.weight" in self.state:
                layers = sorted({int(k.split(".")[2]) for k in self.state if k.startswith(prefix + ".layers.")})
                branches.append((prefix, name, n, layers))
        starts = {}
        for i in range(c["num_hidden_layers"]):
            for prefix, _, _, layers in branches:
                if layers and i == layers[0]:
                    starts[prefix] = x
            x = layer(x, f"layers.{i}")
        outputs = [("logits", head(x, ""), 3)]
        for prefix, name, n, layers in branches:
            y = starts.get(prefix, x)
            for i in layers:
                y = layer(y, f"{prefix}.layers.{i}")
            outputs.append((name, head(y, prefix + "."), n))
        for name, value, _ in outputs:
            self.nodes.append(helper.make_node("Identity", [value], [name], name=name))
        dims = ["batch", "sequence"]
        graph = helper.make_graph(
            self.nodes, "citelens_nli",
            [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in (ids, mask, types)],
            [helper.make_tensor_value_info(name, TensorProto.FLOAT, ["batch", n]) for name, _, n in outputs],
            self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="citelens-training")
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model


def build(state, cfg, quantize):
    return GraphBuilder(state, cfg, quantize).build()
