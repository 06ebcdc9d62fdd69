# RUN: %check_streamsafe_py %s

# A race that a def's analysis finds through a helper it runs in place is
# found again by every caller of that def. It is shown once, by the function
# nearest to where it happens, whichever of them the file defines first:
# `step()` calls `_step()`, which hands a tensor it just wrote on the current
# stream to a broadcast on the NCCL stream (InternEvo's hybrid ZeRO
# optimizer); the report is `_step`'s, at its call of the broadcast, not
# `step`'s at its call of `_step`.
import torch
import torch.distributed as dist


class Optimizer:
    def __init__(self, fp32):
        self._fp32 = fp32
        self._bcast = torch.cuda.Stream()

    def step(self):
        return self._step()

    def _step(self):
        fp16 = torch.empty_like(self._fp32)
        fp16.copy_(self._fp32)
        with torch.cuda.stream(self._bcast):
            self.broadcast_params(fp16)
            # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'fp16' is read on the NCCL stream of the default process group while its write on the caller's current stream may still be pending; nothing makes the NCCL stream of the default process group wait for it [streamsafe-unsynchronized-access]
            # CHECK-NOTES: :[[@LINE+4]]:33: note: 'fp16' is read on the NCCL stream of the default process group here, in 'broadcast_params'
            # CHECK-NOTES: :[[@LINE-5]]:9: note: 'fp16' is written on the caller's current stream here

    def broadcast_params(self, fp16: torch.Tensor):
        handle = dist.broadcast(fp16, src=0, async_op=True)
        handle.wait()
