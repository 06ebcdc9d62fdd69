# Twin of a bug found in the wild: NeMo nemo/collections/asr/parts/submodules/
# ctc_greedy_decoding.py, GreedyCTCInfer's batched forward (NVIDIA/NeMo at
# 8cfedd72). The log-probs are copied into a pinned buffer with
# copy_(non_blocking=True) on the current stream and each row is then decoded
# on the host (argmax, tolist). Only decoder_lengths.cpu() waits for the copy,
# and only when the lengths are a CUDA tensor; with lengths None (a supported
# path) the host reads rows the DMA has not written yet. Here the current
# stream is still busy (the encoder's last kernels, a sleep) when the copy is
# enqueued.
import torch

import harness

V = 8  # vocabulary (the last label is the blank)


def greedy_decode_logprobs(x, out_len):
    # NeMo's _greedy_decode_logprobs on a CPU row: argmax over the vocabulary.
    prediction = x[:out_len].max(dim=-1)[1]  # EXPECT: streamsafe-host-read-before-sync
    return prediction.tolist()


class GreedyCTCInfer:
    def forward(self, decoder_output, decoder_lengths):
        prediction_cpu_tensor = torch.empty(
            decoder_output.shape, dtype=decoder_output.dtype, device="cpu",
            pin_memory=True)
        prediction_cpu_tensor.copy_(decoder_output, non_blocking=True)
        if decoder_lengths is not None and decoder_lengths.is_cuda:
            decoder_lengths = decoder_lengths.cpu()
        hypotheses = []
        for ind in range(prediction_cpu_tensor.shape[0]):
            out_len = (decoder_lengths[ind] if decoder_lengths is not None
                       else prediction_cpu_tensor.shape[1])
            hypotheses.append(greedy_decode_logprobs(prediction_cpu_tensor[ind], out_len))
        return hypotheses


INFER = GreedyCTCInfer()
T = 1 << 12  # frames per utterance


def body(v):
    label = int(v) % (V - 1)
    # The encoder's output, still being computed on the current stream.
    torch.cuda._sleep(harness.spin())
    logits = torch.zeros(2, T, V, device="cuda")
    logits[:, :, label] = 1.0
    hyps = INFER.forward(logits, None)  # lengths None: nothing waits
    return any(h != [label] * T for h in hyps)


harness.run("nemo_ctc_pinned_read", "bug", body)
