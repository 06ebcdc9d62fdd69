# RUN: %check_streamsafe_py %s
#
# `torch.cuda.stream(torch.cuda.Stream() if device.type == "cuda" else
# None)`: the stream of each path, None switching nothing (detectron2's
# _write_metrics before its fix). A device's `type` and `index` never
# change, so a test of them keeps the two paths apart.
import torch


def write(loss: torch.Tensor):
    device = loss.device
    with torch.cuda.stream(torch.cuda.Stream() if device.type == "cuda" else None):
        return loss.detach().cpu().item()
        # CHECK-NOTES: :[[@LINE-1]]:16: warning: tensor 'loss' is read on a pool stream, but it is only known to be ready on the caller's current stream; nothing makes a pool stream wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to a pool stream here
        # CHECK-NOTES: :[[@LINE-6]]:11: note: 'loss' is assumed ready on the caller's current stream at function entry
        # CHECK-NOTES: :[[@LINE-5]]:51: note: on the path reported, 'device.type == "cuda"' is true


# Silent: the chosen stream waited for the caller's.
def write_waited(loss: torch.Tensor):
    device = loss.device
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side if device.type == "cuda" else None):
        return loss.detach().cpu().item()


# Silent: on either path the current stream stays the caller's.
def write_current(loss: torch.Tensor):
    device = loss.device
    with torch.cuda.stream(torch.cuda.current_stream() if device.type == "cuda" else None):
        return loss.detach().cpu().item()
