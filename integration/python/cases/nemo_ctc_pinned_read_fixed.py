# The fix of nemo_ctc_pinned_read_bug: the host synchronizes the current
# stream after the non_blocking copy into the pinned buffer, before it
# decodes the rows (what decoder_lengths.cpu() does by accident on NeMo's
# common path).
import torch

import harness

V = 8  # vocabulary (the last label is the blank)


def greedy_decode_logprobs(x, out_len):
    # NeMo's _greedy_decode_logprobs on a CPU row: argmax over the vocabulary.
    prediction = x[:out_len].max(dim=-1)[1]
    return prediction.tolist()


class GreedyCTCInfer:
    def forward(self, decoder_output, decoder_lengths):
        prediction_cpu_tensor = torch.empty(
            decoder_output.shape, dtype=decoder_output.dtype, device="cpu",
            pin_memory=True)
        prediction_cpu_tensor.copy_(decoder_output, non_blocking=True)
        # The fix: the host waits for the copy before it reads the rows.
        torch.cuda.current_stream().synchronize()
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


harness.run("nemo_ctc_pinned_read", "fixed", body)
