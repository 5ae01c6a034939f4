#!/usr/bin/python3
"""Trains Sennight's net (docs/nnue.md) from feature files (`sennight datagen --features`) and writes
the quantised net file the engine reads (eval/nnue.c). Needs Debian's python3-torch and numpy:
run it with /usr/bin/python3."""
import argparse
import copy
import os
import struct
import sys
import time
import zlib

import numpy as np
import torch
from torch import nn

# The architecture and quantisation, as eval/nnue.h has them.
HIDDEN, L1, L2 = 128, 16, 32
QA, QB, QO = 127, 64, 1024
VERSION = 1
NET_MAGIC = b"SNNUE\r\n\x1a"
FEAT_MAGIC = b"SNFEAT\r\n"
FEAT_HEADER = 72


def read_features(path):
    """The header's fields and the records (score, result in thousandths, features)."""
    with open(path, "rb") as f:
        h = f.read(FEAT_HEADER)
    if len(h) != FEAT_HEADER or h[:8] != FEAT_MAGIC:
        sys.exit(f"{path}: not a feature file (sennight datagen --features)")
    fingerprint, = struct.unpack_from("<Q", h, 8)
    name = h[16:48].split(b"\0")[0].decode()
    nplayers, ntypes, ncells, nfeatures, slots, count = struct.unpack_from("<6I", h, 48)
    dtype = np.dtype([("score", "<i2"), ("result", "<u2"), ("f", "<u2", (nplayers, slots))])
    recs = np.fromfile(path, dtype=dtype, offset=FEAT_HEADER)
    if len(recs) != count:
        sys.exit(f"{path}: {len(recs)} records, the header says {count}")
    head = dict(fingerprint=fingerprint, name=name, nplayers=nplayers, ntypes=ntypes, ncells=ncells,
                nfeatures=nfeatures)
    return head, recs


class Net(nn.Module):
    """Feature transformer to HIDDEN per perspective, clipped ReLU, L1, L2, one output; activations in
    [0, 1] as the engine's [0, QA]. Beside it a linear piece-cell term per perspective, the mover's less
    the mean of the others', which nothing clips: the layers alone saturate (a queen up and three
    pieces up scored the same), and a search on such a net never stops capturing."""

    def __init__(self, nfeatures, nplayers):
        super().__init__()
        self.nfeatures, self.nplayers = nfeatures, nplayers
        # The padding row is the feature index of an empty slot: always zero.
        self.ft = nn.EmbeddingBag(nfeatures + 1, HIDDEN, mode="sum", padding_idx=nfeatures)
        self.ft_bias = nn.Parameter(torch.full((HIDDEN,), 0.25))
        self.psqt = nn.EmbeddingBag(nfeatures + 1, 1, mode="sum", padding_idx=nfeatures)
        self.l1 = nn.Linear(nplayers * HIDDEN, L1)
        self.l2 = nn.Linear(L1, L2)
        self.out = nn.Linear(L2, 1)
        with torch.no_grad():
            self.ft.weight.normal_(0, 0.05)
            self.ft.weight[nfeatures].zero_()
            self.psqt.weight.zero_()

    def forward(self, feats):
        accs = [self.ft(feats[:, k, :]) + self.ft_bias for k in range(self.nplayers)]
        x = torch.clamp(torch.cat(accs, dim=1), 0, 1)
        x = torch.clamp(self.l1(x), 0, 1)
        x = torch.clamp(self.l2(x), 0, 1)
        psqt = [self.psqt(feats[:, k, :]).squeeze(1) for k in range(self.nplayers)]
        return self.out(x).squeeze(1) + psqt[0] - sum(psqt[1:]) / (self.nplayers - 1)

    def clip_weights(self):
        """Keeps every weight inside what its integer type holds after quantisation."""
        with torch.no_grad():
            self.l1.weight.clamp_(-127 / QB, 127 / QB)
            self.l2.weight.clamp_(-127 / QB, 127 / QB)
            self.out.weight.clamp_(-32767 / QO, 32767 / QO)
            self.ft.weight.clamp_(-32767 / QA, 32767 / QA)


def quantise(x, scale, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.round(x.detach().cpu().numpy().astype(np.float64) * scale), info.min, info.max).astype(dtype)


def net_layout(net, nfeatures):
    """The net file's body, in order: each tensor, its quantisation scale and integer type."""
    return [
        (net.ft_bias, QA, np.int16),
        (net.ft.weight[:nfeatures], QA, np.int16),
        (net.psqt.weight[:nfeatures, 0], QA * QO, np.int32),
        (net.l1.bias, QA * QB, np.int32),
        (net.l1.weight, QB, np.int8),
        (net.l2.bias, QA * QB, np.int32),
        (net.l2.weight, QB, np.int8),
        (net.out.bias, QA * QO, np.int32),
        (net.out.weight, QO, np.int16),
    ]


def read_net(path, net, head):
    """Starts net from a net file of the same shape, of any variant (the features of another variant on
    the same board and pieces mean much the same): the weights, unquantised."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    if len(data) < 84 or data[:8] != NET_MAGIC or zlib.crc32(data[:-4]) != struct.unpack("<I", data[-4:])[0]:
        sys.exit(f"{path}: not a net file, or a damaged one")
    shape = struct.unpack_from("<6H", data, 56)
    want = (head["nplayers"], head["ntypes"], head["ncells"], HIDDEN, L1, L2)
    if shape != want:
        sys.exit(f"{path}: players, piece types, cells and layers {shape}, the features need {want}")
    at = 80
    with torch.no_grad():
        for tensor, scale, dtype in net_layout(net, head["nfeatures"]):
            n = tensor.numel()
            values = np.frombuffer(data, dtype=np.dtype(dtype).newbyteorder("<"), count=n, offset=at)
            tensor.copy_(torch.from_numpy(values.astype(np.float32) / scale).reshape(tensor.shape))
            at += n * np.dtype(dtype).itemsize
    if at != len(data) - 4:
        sys.exit(f"{path}: {len(data)} bytes, the header implies {at + 4}")


def write_net(path, net, head, scale):
    name = head["name"].encode()[:31]
    h = bytearray(80)
    h[0:8] = NET_MAGIC
    struct.pack_into("<IQ", h, 8, VERSION, head["fingerprint"])
    h[20:20 + len(name)] = name
    struct.pack_into("<I6H", h, 52, scale, head["nplayers"], head["ntypes"], head["ncells"], HIDDEN, L1, L2)
    body = [quantise(tensor, q, dtype) for tensor, q, dtype in net_layout(net, head["nfeatures"])]
    data = bytes(h) + b"".join(a.astype(a.dtype.newbyteorder("<")).tobytes() for a in body)
    data += struct.pack("<I", zlib.crc32(data))
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return len(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("features", nargs="+", help="feature files of one variant")
    ap.add_argument("--out", required=True, help="the net file to write")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.0,
                    help="weight of the game result in the target; the rest is the search score")
    ap.add_argument("--k", type=float, default=400, help="centipawns of the sigmoid's scale")
    ap.add_argument("--scale", type=int, default=400, help="centipawns per unit of the net's output")
    ap.add_argument("--max-score", type=int, default=3000, help="positions scored beyond this are left out")
    ap.add_argument("--validation", type=float, default=0.05,
                    help="share of positions held out: the last ones, so whole games (a game's positions share "
                         "its result, which a random split would leak)")
    ap.add_argument("--init", help="a net file to start from (another variant's on the same board and pieces)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads (one is fastest on a loaded machine)")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)

    heads, parts = zip(*(read_features(p) for p in a.features))
    head = heads[0]
    if any(h["fingerprint"] != head["fingerprint"] for h in heads):
        sys.exit("the feature files are of different variants")
    slots = max(r["f"].shape[2] for r in parts)
    feats = np.concatenate([np.pad(r["f"], ((0, 0), (0, 0), (0, slots - r["f"].shape[2])),
                                   constant_values=head["nfeatures"]) for r in parts])
    score = np.concatenate([r["score"] for r in parts]).astype(np.float32)
    result = np.concatenate([r["result"] for r in parts]).astype(np.float32) / 1000
    keep = np.abs(score) <= a.max_score
    feats, score, result = feats[keep], score[keep], result[keep]
    target = a.lam * result + (1 - a.lam) / (1 + np.exp(-score / a.k))
    nval = int(len(target) * a.validation)
    train, val = np.arange(len(target) - nval), np.arange(len(target) - nval, len(target))
    target_t = torch.from_numpy(target.astype(np.float32))
    result_t = torch.from_numpy(result.astype(np.float32))
    print(f"{head['name']}: {len(train)} training and {nval} validation positions "
          f"({(~keep).sum()} beyond {a.max_score} cp left out), {head['nfeatures']} features", flush=True)

    net = Net(head["nfeatures"], head["nplayers"])
    if a.init:
        read_net(a.init, net, head)
    # The piece-cell term starts at zero and has a long way to go (a piece is worth a few units).
    rest = [p for name, p in net.named_parameters() if not name.startswith("psqt")]
    opt = torch.optim.Adam([{"params": rest}, {"params": net.psqt.parameters(), "lr": a.lr * 10}], lr=a.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=a.epochs)
    k = a.k / a.scale

    # The features stay 16-bit (2 bytes per index, a quarter of int64's), widened a batch at a time.
    def batch_of(idx):
        return torch.from_numpy(feats[idx.numpy()].astype(np.int64))

    def loss_of(idx, want=target_t):
        pred = torch.sigmoid(net(batch_of(idx)) / k)
        return torch.mean((pred - want[idx]) ** 2)

    def validation_loss(want):
        return sum(loss_of(torch.from_numpy(val[i:i + 8192]), want).item() * len(val[i:i + 8192])
                   for i in range(0, len(val), 8192)) / max(len(val), 1)

    start = time.time()
    best = (float("inf"), 0, None)
    for epoch in range(a.epochs):
        net.train()
        perm = torch.from_numpy(rng.permutation(train))
        total = 0.0
        for i in range(0, len(perm), a.batch):
            idx = perm[i:i + a.batch]
            opt.zero_grad()
            loss = loss_of(idx)
            loss.backward()
            opt.step()
            net.clip_weights()
            total += loss.item() * len(idx)
        sched.step()
        net.eval()
        with torch.no_grad():
            vloss, vresult = validation_loss(target_t), validation_loss(result_t)
        # Against the results alone, the held-out games say how well the net predicts outcomes,
        # comparable between values of lambda.
        print(f"epoch {epoch + 1}/{a.epochs}: train loss {total / len(train):.6f}, validation loss {vloss:.6f} "
              f"(results alone {vresult:.6f}), {time.time() - start:.0f} s", flush=True)
        # The epoch that generalises best is the one written (early stopping).
        if vloss < best[0] or not nval:
            best = (vloss, epoch + 1, copy.deepcopy(net.state_dict()))
    net.load_state_dict(best[2])
    size = write_net(a.out, net, head, a.scale)
    with torch.no_grad():
        sample = net(batch_of(torch.arange(5))) * a.scale
    print(f"{a.out}: {size} bytes, the net of epoch {best[1]}; training took {time.time() - start:.0f} s on "
          f"{len(train)} positions")
    print("first positions (float net, cp):", " ".join(f"{x:.0f}" for x in sample.tolist()))


if __name__ == "__main__":
    main()
