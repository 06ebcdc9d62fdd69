# RUN: %check_streamsafe_py %s

# A class may split a guard across two methods: begin() saves the current
# stream in an attribute and sets another, end() sets the saved one back.
# The stream begin() leaves set is the section's: it is reported where a
# caller opens the section and does not close it, not inside the methods.
# The C++ twin: test/checkers/unrestored-current-stream-sections.cpp.
import torch


class Section:
    def __init__(self):
        self.side = torch.cuda.Stream()

    def begin(self):
        self.saved = torch.cuda.current_stream()
        torch.cuda.set_stream(self.side)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of 'early_return'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE+17]]:9: note: 'early_return' can return here with the stream still set

    def end(self):
        torch.cuda.set_stream(self.saved)


def balanced():
    s = Section()
    s.begin()
    y = torch.ones(4, device="cuda")
    s.end()


def early_return(skip):
    s = Section()
    s.begin()
    if skip:
        return
    y = torch.ones(4, device="cuda")
    s.end()


# No method sets `saved` back: begin() leaves its stream set for good.
class Leaky:
    def __init__(self):
        self.side = torch.cuda.Stream()

    def begin(self):
        self.saved = torch.cuda.current_stream()
        torch.cuda.set_stream(self.side)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: the current stream set here is not restored on every path out of 'begin'; the caller's later work silently runs on it (use a `with torch.cuda.stream(...)` block to set the stream for a scope) [streamsafe-unrestored-current-stream]
        # CHECK-NOTES: :[[@LINE-2]]:41: note: 'begin' can return here with the stream still set
