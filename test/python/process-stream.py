# RUN: %check_streamsafe_py %s

# A stream set for the rest of the program on purpose is no scope's to
# restore: at the module's top level (start-up), in a constructor that
# keeps the stream in `self`, or in a def that keeps it in a module global.
# Neither the def nor its callers (which run a constructor in place) are
# reported. Any other set_stream still is.
import torch

# Right: start-up sets the stream every later op runs on.
torch.cuda.set_stream(torch.cuda.Stream())

STREAM = None


# Right: a constructor keeps the stream it sets in `self` (an engine that
# hands it to TensorRT, or keeps it for graph capture).
class Engine:
    def __init__(self):
        self.stream = torch.cuda.Stream()
        torch.cuda.set_stream(self.stream)

    def run(self, x):
        return x * 2


# Right: the same through a local that the constructor keeps.
class Runner:
    def __init__(self):
        s = torch.cuda.Stream()
        self.stream = s
        torch.cuda.set_stream(s)


# Right: the callers that make these objects run the constructors in place.
def main():
    e = Engine()
    e.run(1)
    r = Runner()
    return r


# Right: a def that keeps the stream it sets in a module global.
def init_stream():
    global STREAM
    STREAM = torch.cuda.Stream()
    torch.cuda.set_stream(STREAM)


# Wrong: a constructor that sets a stream it does not keep.
class Leaky:
    def __init__(self):
        torch.cuda.set_stream(torch.cuda.Stream())
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of '__init__'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE-2]]:51: note: '__init__' can return here with the stream still set


# Wrong: a method other than the constructor that sets the kept stream:
# its caller's later work runs on it.
class Switcher:
    def __init__(self):
        self.stream = torch.cuda.Stream()

    def forward(self, x: torch.Tensor):
        torch.cuda.set_stream(self.stream)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of 'forward'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE+1]]:9: note: 'forward' can return here with the stream still set
        return x


# Wrong: a def that sets a stream and keeps it in a local only.
def start_up():
    s = torch.cuda.Stream()
    torch.cuda.set_stream(s)
    # CHECK-NOTES: :[[@LINE-1]]:5: warning: the current stream set here is not restored on every path out of 'start_up'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
    # CHECK-NOTES: :[[@LINE-2]]:29: note: 'start_up' can return here with the stream still set
