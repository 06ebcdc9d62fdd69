# RUN: %check_streamsafe_py %s

# The accelerator-neutral spellings are the CUDA ones on a CUDA machine:
# torch.Stream, torch.Event, torch.accelerator.current_stream/set_stream,
# and the module torch.get_device_module() returns (lib/model/Accelerators.h).
import torch


def neutral_stream(x: torch.Tensor):
    s = torch.Stream()
    y = x + 1
    with torch.cuda.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    return z


def neutral_stream_waits(x: torch.Tensor):
    s = torch.Stream()
    y = x + 1
    s.wait_stream(torch.accelerator.current_stream())
    with torch.cuda.stream(s):
        z = y * 2
    y.record_stream(s)
    return z


def device_module(x: torch.Tensor):
    dm = torch.get_device_module()
    s = dm.Stream()
    y = x + 1
    with dm.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    return z


def device_module_call_waits(x: torch.Tensor):
    s = torch.get_device_module("cuda").Stream()
    y = x + 1
    s.wait_stream(torch.get_device_module("cuda").current_stream())
    with torch.get_device_module("cuda").stream(s):
        z = y * 2
    y.record_stream(s)
    return z


def neutral_event_orders(x: torch.Tensor):
    s = torch.Stream()
    y = x + 1
    e = torch.Event()
    e.record()
    s.wait_event(e)
    with torch.cuda.stream(s):
        z = y * 2
    y.record_stream(s)
    return z


def accelerator_set_stream_unrestored(x: torch.Tensor):
    s = torch.Stream()
    s.wait_stream(torch.accelerator.current_stream())
    torch.accelerator.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'accelerator_set_stream_unrestored'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE+3]]:5: note: 'accelerator_set_stream_unrestored' can return here with the stream still set
    y = x + 1
    y.record_stream(s)
    return y


def unknown_module_call_is_not_the_device_module(x: torch.Tensor, pick):
    # Any other call returns something the analysis does not know.
    s = pick().Stream()
    y = x + 1
    with pick().stream(s):
        z = y * 2
    y.record_stream(s)
    return z


# getattr(torch, device) is the device's module, whatever names the device
# (torchao's offload: getattr(torch, self.device).Stream()).
def getattr_device_module(x: torch.Tensor, device: str):
    dm = getattr(torch, device)
    s = dm.Stream()
    y = x + 1
    with dm.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    return z


def getattr_device_module_waits(x: torch.Tensor, device: str):
    s = getattr(torch, device).Stream()
    y = x + 1
    s.wait_stream(getattr(torch, device).current_stream())
    with getattr(torch, device).stream(s):
        z = y * 2
    y.record_stream(s)
    return z
