# RUN: %check_streamsafe_py %s

# Loops of a few iterations the code fixes (docs/python.md, "Loops that
# alternate streams"): `for i in range(len(ids) + 1)` of a display of two
# runs three times, each lowered on its own with the counter known, so
# `streams[i]` and `streams[i - 1]` are the streams they pick and `if i <
# len(ids)` is decided; no loop runs after them.
import torch


def fused_attn_fwd(q):
    pass


# Wrong (TransformerEngine's all-gather context-parallel attention, reduced;
# fixed in 86ade9ea): step i runs on streams[i], the side stream for i = 1;
# an extension returns the step's max logit among its star-unpacked results.
# The running maximum reads step i - 1's in the next iteration on the
# current stream, and nothing makes it wait for the side stream before the
# last step's is read.
def max_logits(q, cp_stream, rank, return_max_logit):
    cp_stream.wait_stream(torch.cuda.current_stream())
    streams = [torch.cuda.current_stream(), cp_stream]
    chunk_ids = [rank, 3 - rank]
    out_per_step = [None, None]
    max_logit_per_step = [None, None]
    max_logit = None
    for i in range(len(chunk_ids) + 1):
        if i < len(chunk_ids):
            with torch.cuda.stream(streams[i]):
                q_part = q.select(0, chunk_ids[i]).contiguous()
                (out_per_step[i], aux, *max_logit_) = fused_attn_fwd(q_part)
                if return_max_logit:
                    max_logit_per_step[i] = max_logit_[0]
        if return_max_logit and i == 0:
            max_logit = torch.clone(max_logit_per_step[0])
        if i > 0:
            if return_max_logit:
                max_logit = torch.maximum(max_logit, max_logit_per_step[i - 1])
                # CHECK-NOTES: :[[@LINE-1]]:54: warning: tensor 'max_logit_per_step' is read on the caller's current stream while its write on stream parameter 'cp_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
                # CHECK-NOTES: :[[@LINE-7]]:58: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
                # CHECK-NOTES: :[[@LINE-8]]:21: note: 'max_logit_per_step' is written on stream parameter 'cp_stream' here
                # CHECK-NOTES: :[[@LINE-13]]:18: note: the current stream was set to stream parameter 'cp_stream' here
                # CHECK-NOTES: :[[@LINE-22]]:5: note: 'cp_stream' is used as a side stream here, so it is taken to differ from the caller's current stream
                # CHECK-NOTES: :[[@LINE-12]]:20: note: on the path reported, 'return_max_logit' is true
    torch.cuda.current_stream().wait_stream(cp_stream)
    return max_logit, out_per_step


# Right (the fix): the current stream waits for step i - 1's stream first.
def max_logits_fixed(q, cp_stream, rank, return_max_logit):
    cp_stream.wait_stream(torch.cuda.current_stream())
    streams = [torch.cuda.current_stream(), cp_stream]
    chunk_ids = [rank, 3 - rank]
    out_per_step = [None, None]
    max_logit_per_step = [None, None]
    max_logit = None
    for i in range(len(chunk_ids) + 1):
        if i < len(chunk_ids):
            with torch.cuda.stream(streams[i]):
                q_part = q.select(0, chunk_ids[i]).contiguous()
                (out_per_step[i], aux, *max_logit_) = fused_attn_fwd(q_part)
                if return_max_logit:
                    max_logit_per_step[i] = max_logit_[0]
        if return_max_logit and i == 0:
            max_logit = torch.clone(max_logit_per_step[0])
        if i > 0:
            if return_max_logit:
                torch.cuda.current_stream().wait_stream(streams[i - 1])
                max_logit = torch.maximum(max_logit, max_logit_per_step[i - 1])
    torch.cuda.current_stream().wait_stream(cp_stream)
    return max_logit, out_per_step


# Right: each step's output is copied into its own column (or row, by the
# format) of the result on the stream that made it. The format is tested in
# every iteration, among more flags than a path remembers: the latest tests
# are kept apart (the flags tested first are forgotten first), so the
# copies of the two iterations take the same branch.
def copy_steps(q, out_f16, cp_stream, fp8, use_fused, return_max, o_format):
    cp_stream.wait_stream(torch.cuda.current_stream())
    streams = [torch.cuda.current_stream(), cp_stream]
    out_per_step = [None, None]
    for i in range(3):
        if i < 2:
            with torch.cuda.stream(streams[i]):
                if use_fused:
                    out_per_step[i] = q.select(0, i).contiguous()
                else:
                    out_per_step[i] = q.select(0, i).clone()
                if fp8:
                    out_per_step[i].mul_(2)
                if return_max:
                    out_per_step[i].add_(1)
        if i > 0:
            with torch.cuda.stream(streams[i - 1]):
                if o_format == "bshd":
                    out_f16[:, i - 1].copy_(out_per_step[i - 1])
                elif o_format == "sbhd":
                    out_f16[i - 1].copy_(out_per_step[i - 1])
    torch.cuda.current_stream().wait_stream(cp_stream)
    if use_fused or fp8 or return_max:
        out_f16.mul_(0.5)
    return out_f16


NUM_CHUNKS = 2


# Wrong: the stop is a module constant bound once to a literal; the last
# step's transpose reads the side stream's part with no wait.
def parts_by_constant(q, cp_stream):
    cp_stream.wait_stream(torch.cuda.current_stream())
    streams = [torch.cuda.current_stream(), cp_stream]
    parts = [None, None]
    for i in range(NUM_CHUNKS + 1):
        if i < NUM_CHUNKS:
            with torch.cuda.stream(streams[i]):
                parts[i] = q.select(0, i).contiguous()
        if i > 0:
            parts[i - 1] = parts[i - 1].transpose(0, 1).contiguous()
            # CHECK-NOTES: :[[@LINE-1]]:28: warning: tensor 'parts' is read on the caller's current stream while its write on stream parameter 'cp_stream' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE-4]]:55: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
            # CHECK-NOTES: :[[@LINE-5]]:28: note: 'parts' is written on stream parameter 'cp_stream' here
            # CHECK-NOTES: :[[@LINE-7]]:18: note: the current stream was set to stream parameter 'cp_stream' here
            # CHECK-NOTES: :[[@LINE-13]]:5: note: 'cp_stream' is used as a side stream here, so it is taken to differ from the caller's current stream
    torch.cuda.current_stream().wait_stream(cp_stream)
    return parts


# Not fixed: a list that grows, so its length is not known; the loop is
# lowered as any other (nothing is reported of streams it cannot tell).
def grown(q, cp_stream, rank):
    cp_stream.wait_stream(torch.cuda.current_stream())
    streams = [torch.cuda.current_stream(), cp_stream]
    chunk_ids = [rank]
    chunk_ids.append(rank + 1)
    parts = [None, None]
    for i in range(len(chunk_ids) + 1):
        if i < len(chunk_ids):
            with torch.cuda.stream(streams[i]):
                parts[i] = q.select(0, i).contiguous()
        if i > 0:
            parts[i - 1] = parts[i - 1].transpose(0, 1).contiguous()
    torch.cuda.current_stream().wait_stream(cp_stream)
    return parts
