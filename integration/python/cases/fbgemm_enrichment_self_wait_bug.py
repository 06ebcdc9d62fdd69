# Twin of a bug found in the wild: FBGEMM fbgemm_gpu/tbe/ssd/training.py,
# SSDTableBatchedEmbeddingBags.enrichment_query_id (pytorch/FBGEMM at
# 71d6f8b2). Its "wait for input tensors to be ready" is a wait_stream made
# inside `with torch.cuda.stream(enrichment_query_stream)`, where
# current_stream() is enrichment_query_stream itself: the stream waits on
# itself, which orders nothing. The enrichment stream then reads the ids (in
# FBGEMM, the output of an all-to-all on the caller's stream) before they are
# written. Here the caller's stream is busy (a sleep) before it writes them, so
# the dedup and the pinned copies see the ids and weights of the previous call.
import torch

import harness


def linearize_cache_indices(hash_size_cumsum, indices, offsets):
    # Stands in for torch.ops.fbgemm.linearize_cache_indices (one table).
    return indices + hash_size_cumsum[0]


class Embedding:
    def __init__(self):
        low_priority, _ = torch.cuda.Stream.priority_range()
        self.enrichment_query_stream = torch.cuda.Stream(priority=low_priority)
        self.hash_size_cumsum = torch.zeros(2, dtype=torch.int64, device="cuda")

    def to_pinned_cpu(self, t):
        t_cpu = torch.empty(t.shape, pin_memory=True, dtype=t.dtype)
        t_cpu.copy_(t, non_blocking=True)
        return t_cpu

    def enrichment_query_id(self, indices, offsets, weights):
        with torch.no_grad():
            # Run all GPU operations on enrichment_query_stream
            with torch.cuda.stream(self.enrichment_query_stream):
                self.enrichment_query_stream.wait_stream(
                    torch.cuda.current_stream()
                )  # wait for input tensors to be ready: a self-wait, orders nothing

                # Step 1: Linearize original indices first
                # The zeros __init__ wrote on the caller's stream are read
                # here too, with nothing ordering them (latent; not what
                # the run measures).
                linear_cache_indices = linearize_cache_indices(
                    self.hash_size_cumsum, indices, offsets)  # EXPECT: streamsafe-unsynchronized-access
                # contiguous() reads the weights on this stream before the
                # caller's stream has written them.
                weights_flat = weights.contiguous().view(torch.int64).flatten()  # EXPECT: streamsafe-unsynchronized-access

                # Step 2: Dedup on linearized indices
                sorted_linear_indices, idx = torch.sort(linear_cache_indices)
                # The gather reads weights_flat (a view of weights) on this
                # stream; its result is new, made here.
                sorted_weights = weights_flat[idx]  # EXPECT: streamsafe-unsynchronized-access
                mask = torch.ones_like(sorted_linear_indices, dtype=torch.bool)
                mask[1:] = sorted_linear_indices[1:] != sorted_linear_indices[:-1]
                dedup_linear_indices = sorted_linear_indices[mask]
                dedup_weights = sorted_weights[mask]

                # D2H copy on the same stream (already on enrichment_query_stream)
                linear_cache_indices_cpu = self.to_pinned_cpu(dedup_linear_indices)
                dedup_weights_cpu = self.to_pinned_cpu(dedup_weights)
                # FBGEMM hands both to ssd_db.set_embedding_cache_enrich_query_id_cuda.
                return linear_cache_indices_cpu, dedup_weights_cpu


EMB = []


def body(v):
    if not EMB:
        EMB.append(Embedding())
    n = harness.N
    # The caller's stream: the all-to-all that delivers the ids, still running.
    torch.cuda._sleep(harness.spin())
    indices = torch.empty(n, dtype=torch.int64, device="cuda")
    torch.arange(n, out=indices).add_(int(v) * n)  # n distinct ids, new each call
    offsets = torch.arange(n + 1, dtype=torch.int64, device="cuda")
    weights = torch.full((n,), v, dtype=torch.float64, device="cuda")
    ids_cpu, weights_cpu = EMB[0].enrichment_query_id(indices, offsets, weights)
    torch.cuda.synchronize()  # FBGEMM's consumer runs after the D2H copies
    want = torch.arange(n, dtype=torch.int64).add_(int(v) * n)
    return not (ids_cpu.shape == want.shape and bool((ids_cpu == want).all())
                and bool((weights_cpu.view(torch.float64) == v).all()))


harness.run("fbgemm_enrichment_self_wait", "bug", body)
