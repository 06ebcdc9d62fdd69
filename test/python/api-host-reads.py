# RUN: %check_streamsafe_py %s

# Host reads: to("cpu", non_blocking=True), cpu(), copy_(non_blocking=True)
# into pinned memory, then item(), tolist(), numpy().
import torch


def numpy_before_sync(d: torch.Tensor):
    h = d.to("cpu", non_blocking=True)
    return h.numpy()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:9: note: the non_blocking copy is enqueued on the caller's current stream here


def tolist_before_sync(d: torch.Tensor):
    h = d.to(device=torch.device("cpu"), non_blocking=True)
    return h.tolist()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:9: note: the non_blocking copy is enqueued on the caller's current stream here


def item_of_a_view_before_sync(d: torch.Tensor):
    h = torch.empty(16, pin_memory=True)
    h.copy_(d, non_blocking=True)
    return h[0].item()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: the host reads tensor 'h' while a non_blocking copy into it on the caller's current stream may still be running; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:5: note: the non_blocking copy is enqueued on the caller's current stream here


def stream_synchronized(d: torch.Tensor):
    h = d.to("cpu", non_blocking=True)
    torch.cuda.current_stream().synchronize()
    return h.numpy()


def device_synchronized(d: torch.Tensor):
    h = d.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    return h.tolist()


def event_synchronized(d: torch.Tensor):
    h = d.to("cpu", non_blocking=True)
    done = torch.cuda.Event()
    done.record()
    done.synchronize()
    return h.numpy()


def blocking_copies(d: torch.Tensor):
    h = d.cpu()
    g = d.to("cpu")
    return h.item() + g.item()


def copy_to_the_device_is_not_a_host_read(d: torch.Tensor):
    g = d.to("cuda:1", non_blocking=True)
    return g.sum()


def host_writes_a_staging_buffer_in_use(d: torch.Tensor):
    staging = torch.empty(16, pin_memory=True)
    d.copy_(staging, non_blocking=True)
    staging.fill_(0.0)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the host writes tensor 'staging' while a non_blocking copy from it on the caller's current stream may still be reading it; synchronize the stream or an event first [streamsafe-host-read-before-sync]
    # CHECK-NOTES: :[[@LINE-3]]:13: note: the non_blocking copy is enqueued on the caller's current stream here
    return d


def pinned_by_pin_memory(d: torch.Tensor, host: torch.Tensor):
    p = host.pin_memory()
    d.copy_(p, non_blocking=True)
    torch.cuda.current_stream().synchronize()
    p.zero_()
    return d
