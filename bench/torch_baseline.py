# PyTorch (CPU, eager) peer for bench:model: the same architecture loaded from the same weights, exported by the
# engine as a Hugging Face directory. Measures a training step (forward + backward + AdamW) and sampling tokens/s with
# a KV cache at the given batch sizes; prints one JSON line. Run by scripts/bench-model.ts, never by the test suite.
# Usage: python3 bench/torch_baseline.py MODEL_DIR '{"batch":8,"time":128,"repeats":5,"newTokens":48,"rows":[1,32],"threads":2}'
import ctypes, json, math, os, struct, sys, time
import torch
import torch.nn.functional as F

model_dir, opts = sys.argv[1], json.loads(sys.argv[2])
if opts.get('threads'):
    torch.set_num_threads(opts['threads'])
torch.manual_seed(1)
cfg = json.load(open(os.path.join(model_dir, 'config.json')))


def read_safetensors(path):
    raw = open(path, 'rb').read()
    n = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    out = {}
    for name, e in header.items():
        if name == '__metadata__':
            continue
        a, b = e['data_offsets']
        assert e['dtype'] == 'F32', e['dtype']
        out[name] = torch.frombuffer(bytearray(raw[8 + n + a: 8 + n + b]), dtype=torch.float32).reshape(e['shape'])
    return out


W = {k: torch.nn.Parameter(v) for k, v in read_safetensors(os.path.join(model_dir, 'model.safetensors')).items()}
C, H, K, L = cfg['hidden_size'], cfg['num_attention_heads'], cfg['num_key_value_heads'], cfg['num_hidden_layers']
D = cfg.get('head_dim') or C // H
EPS, V = cfg['rms_norm_eps'], cfg['vocab_size']
HEAD = W.get('lm_head.weight', W['model.embed_tokens.weight'])
inv = 1.0 / (cfg['rope_theta'] ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
ang = torch.arange(cfg['max_position_embeddings'], dtype=torch.float32)[:, None] * inv[None, :]
COS, SIN = torch.cat((ang, ang), -1).cos(), torch.cat((ang, ang), -1).sin()  # (ctx, D)


def rms(x, w):
    return w * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS))


def rot(x, pos):  # x (B, h, S, D), pos (S,)
    c, s = COS[pos][None, None], SIN[pos][None, None]
    x1, x2 = x[..., : D // 2], x[..., D // 2:]
    return x * c + torch.cat((-x2, x1), -1) * s


def lin(x, n):
    b = W.get(n + '.bias')
    return F.linear(x, W[n + '.weight'], b)


def forward(ids, cache=None, start=0):
    """ids (B, S) -> log-probs (B, S, V); with a cache (list of [k, v] per layer) appends the new keys/values."""
    B, S = ids.shape
    pos = torch.arange(start, start + S)
    x = F.embedding(ids, W['model.embed_tokens.weight'])
    for i in range(L):
        p = f'model.layers.{i}.'
        h = rms(x, W[p + 'input_layernorm.weight'])
        q = lin(h, p + 'self_attn.q_proj').view(B, S, H, D).transpose(1, 2)
        k = lin(h, p + 'self_attn.k_proj').view(B, S, K, D).transpose(1, 2)
        v = lin(h, p + 'self_attn.v_proj').view(B, S, K, D).transpose(1, 2)
        if p + 'self_attn.q_norm.weight' in W:
            q, k = rms(q, W[p + 'self_attn.q_norm.weight']), rms(k, W[p + 'self_attn.k_norm.weight'])
        q, k = rot(q, pos), rot(k, pos)
        if cache is not None:
            if cache[i] is not None:
                k, v = torch.cat((cache[i][0], k), 2), torch.cat((cache[i][1], v), 2)
            cache[i] = (k, v)
        k, v = k.repeat_interleave(H // K, 1), v.repeat_interleave(H // K, 1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=S > 1) if hasattr(F, 'scaled_dot_product_attention') else \
            torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(D) + (torch.full((S, k.shape[2]), float('-inf')).triu(k.shape[2] - S + 1) if S > 1 else 0), -1) @ v
        x = x + F.linear(y.transpose(1, 2).reshape(B, S, H * D), W[p + 'self_attn.o_proj.weight'])
        h = rms(x, W[p + 'post_attention_layernorm.weight'])
        x = x + F.linear(F.silu(F.linear(h, W[p + 'mlp.gate_proj.weight'])) * F.linear(h, W[p + 'mlp.up_proj.weight']), W[p + 'mlp.down_proj.weight'])
    return torch.log_softmax(F.linear(rms(x, W['model.norm.weight']), HEAD), -1)


def median(xs):
    return sorted(xs)[len(xs) // 2]


def timed(fn, n):
    fn()
    ms = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1000)
    return ms


result = {'torch': torch.__version__, 'threads': torch.get_num_threads(), 'blas': torch.__config__.show().split('BLAS_INFO=')[1].split(',')[0]}
B, T = opts['batch'], opts['time']
tokens = torch.tensor([(i * 31 + 7) % V for i in range(B * T)]).view(B, T)  # the engine's bench batch
with torch.no_grad():
    lp = forward(tokens)[:, :-1].gather(-1, tokens[:, 1:, None]).squeeze(-1)
result['logp'] = lp.flatten().tolist()
opt = torch.optim.AdamW(list(W.values()), lr=1e-4, betas=(0.9, 0.95), weight_decay=0.1)


def train_step():
    opt.zero_grad(set_to_none=True)
    logp = forward(tokens)[:, :-1].gather(-1, tokens[:, 1:, None]).squeeze(-1)
    (-logp.mean()).backward()
    torch.nn.utils.clip_grad_norm_(list(W.values()), 1.0)
    opt.step()


def set_threads(n):
    torch.set_num_threads(n)
    try:  # torch calls BLAS through libblas.so.3, OpenBLAS's here: its own pool follows
        ctypes.CDLL('libblas.so.3').openblas_set_num_threads(n)
    except (OSError, AttributeError):
        pass


# The stronger peer: like the tfjs probe, one timed training step per thread count, and the faster one is kept (on
# shared, loaded cores one thread often beats two).
probe = {}
for n in sorted({1, opts.get('threads') or torch.get_num_threads()}):
    set_threads(n)
    train_step()
    probe[n] = min(timed(train_step, 1))
best = min(probe, key=probe.get)
set_threads(best)
result['threads'] = best
result['threadProbeMs'] = {str(k): round(v, 1) for k, v in probe.items()}
result['trainStepMsRounds'] = timed(train_step, opts['repeats'])
result['trainStepMs'] = median(result['trainStepMsRounds'])


@torch.no_grad()
def generate(rows, new_tokens):
    prompts = torch.tensor([[(i * 13 + j * 7) % V for j in range(32)] for i in range(rows)])
    cache = [None] * L
    logp = forward(prompts, cache, 0)[:, -1]
    pos = prompts.shape[1]
    for _ in range(new_tokens):
        nxt = torch.multinomial(logp.exp(), 1)  # (rows, 1), temperature 1
        logp = forward(nxt, cache, pos)[:, -1]
        pos += 1


sampling = {}
for rows in opts['rows']:
    ms = timed(lambda: generate(rows, opts['newTokens']), max(3, opts['repeats'] * 2) if rows == 1 else max(2, math.ceil(opts['repeats'] / 2)))
    sampling[f'b{rows}'] = {'tokensPerSec': rows * opts['newTokens'] / (median(ms) / 1000), 'msRounds': ms}
result['sampling'] = sampling
print(json.dumps(result))
