# A script outside the package (test/python/imports-modules.test): its
# folder has no __init__.py, so `import pkg.ops` is found only under the
# root --project-root names.
import torch

from pkg.ops import fill_on


def bench(x: torch.Tensor):
    s = torch.cuda.Stream()
    out = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    fill_on(s, out, x)
    out.record_stream(s)
    return out.sum()
    # CHECK-NOTES-ROOT: :[[@LINE-1]]:12: warning: tensor 'out' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES-ROOT: ops.py:10:23: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES-ROOT: ops.py:10:9: note: 'out' is written on pool stream 's' here
    # CHECK-NOTES-ROOT: :[[@LINE-6]]:5: note: in 'fill_on', called here
    # CHECK-NOTES-ROOT: ops.py:9:10: note: the current stream was set to pool stream 's' here
