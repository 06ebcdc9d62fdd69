# RUN: %check_streamsafe_py %s

# A forwarding setter leaves the stream it is given set for its caller
# (lib/lower/LeavesStreamSet.h), unless it keeps the current stream: then
# it means to set it back, and forgetting to is its own bug. The C++ twin:
# the LeakySwitcher of test/checkers/unrestored-current-stream-raii.cpp.
import torch


class Switcher:
    def __init__(self, stream: torch.cuda.Stream):
        self.saved = torch.cuda.current_stream()
        torch.cuda.set_stream(stream)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of '__init__'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE-2]]:38: note: '__init__' can return here with the stream still set

    def close(self):
        pass


# Silent: it forwards the caller's choice (its callers are judged).
def use(stream: torch.cuda.Stream):
    torch.cuda.set_stream(stream)
