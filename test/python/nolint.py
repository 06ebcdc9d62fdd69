# RUN: %check_streamsafe_py %s

# Suppression comments: NOLINT on the warning's line, NOLINTNEXTLINE on the
# line before, bare or with check globs; a glob of another check does not
# suppress.
import torch


def suppressed(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    with torch.cuda.stream(s):
        z = y * 2  # NOLINT(streamsafe-unsynchronized-access, streamsafe-missing-record-stream)
        # NOLINTNEXTLINE
        w = y * 3
        # NOLINTNEXTLINE(streamsafe-*)
        v = y * 4
    torch.cuda.current_stream().wait_stream(s)
    return z + w + v
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'z' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-4]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-9]]:13: note: 'z' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-4]]:5: note: the last reference to 'z' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'
    # CHECK-NOTES: :[[@LINE-5]]:16: warning: tensor 'w' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-8]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-11]]:13: note: 'w' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-8]]:5: note: the last reference to 'w' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'
    # CHECK-NOTES: :[[@LINE-9]]:20: warning: tensor 'v' is used on the caller's current stream but was allocated on pool stream 's'; when its last reference dies the caching allocator may reuse its memory while the caller's current stream is still using it [streamsafe-missing-record-stream]
    # CHECK-NOTES: :[[@LINE-12]]:18: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-13]]:13: note: 'v' is allocated on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-12]]:5: note: the last reference to 'v' dies here, with no record_stream on the caller's current stream and no synchronization with pool stream 's'


def other_check_named(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    with torch.cuda.stream(s):
        z = y * 2  # NOLINT(streamsafe-host-read-before-sync)
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return z


def nolintnextline_is_not_nolint(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    with torch.cuda.stream(s):
        z = y * 2  # NOLINTNEXTLINE
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:9: note: 'y' is written on the caller's current stream here
    y.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return z


# NOLINTBEGIN/NOLINTEND blocks, as in clang-tidy: a warning between the two
# comments is suppressed when the block's globs cover its check (all checks
# when bare); blocks nest; a string that looks like a comment is no marker.
def block_suppresses(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTBEGIN(streamsafe-unsynchronized-access, streamsafe-missing-record-stream)
    with torch.cuda.stream(s):
        z = y * 2
    # NOLINTEND(streamsafe-unsynchronized-access, streamsafe-missing-record-stream)
    return z


def bare_block_suppresses_all(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTBEGIN
    with torch.cuda.stream(s):
        z = y * 2
    # NOLINTEND
    return z


def nested_blocks(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTBEGIN(streamsafe-missing-record-stream)
    with torch.cuda.stream(s):
        # NOLINTBEGIN(streamsafe-unsynchronized-access)
        z = y * 2
        # NOLINTEND(streamsafe-unsynchronized-access)
    # NOLINTEND(streamsafe-missing-record-stream)
    return z


def block_of_another_check(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTBEGIN(streamsafe-host-read-before-sync)
    with torch.cuda.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:13: warning: tensor 'y' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-9]]:9: note: 'y' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+3]]:5: note: the last reference to 'y' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    # NOLINTEND(streamsafe-host-read-before-sync)
    text = "# NOLINTBEGIN"
    return z, text


def warning_after_the_block(x: torch.Tensor):
    s = torch.cuda.Stream()
    y = x + 1
    # NOLINTBEGIN
    # NOLINTEND
    with torch.cuda.stream(s):
        z = y * 2
        # CHECK-NOTES: :[[@LINE-1]]:13: warning: tensor 'y' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-7]]:9: note: 'y' is written on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:13: warning: tensor 'y' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-10]]:9: note: 'y' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'y' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    return z
