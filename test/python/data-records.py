# RUN: %check_streamsafe_py %s

# Tensors kept in dicts with constant keys, dataclasses and named tuples
# (lib/python/Dicts.cpp, lib/python/Records.cpp): each entry or field is a
# tensor of its own, bound where the dict or record is made or stored
# into, and read where it is named. What the analysis cannot follow (a key
# that is not a constant, update(), the dict handed to other code) lets go
# of the entries: nothing about them is reported after that.
import collections
import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import torch


# Wrong: a dict's entry is filled on the side stream and read on the
# caller's stream with no join.
def dict_entry_race(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = {"grad": torch.empty_like(x), "param": x}
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs["grad"].copy_(bufs["param"])
    return bufs["grad"].sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'bufs["grad"]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-3]]:42: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-4]]:9: note: 'bufs["grad"]' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream was set to pool stream 's' here


# Right: the same, joined first.
def dict_entry_joined(x: torch.Tensor):
    s = torch.cuda.Stream()
    bufs = {"grad": torch.empty_like(x), "param": x}
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs["grad"].copy_(bufs["param"])
    torch.cuda.current_stream().wait_stream(s)
    return bufs["grad"].sum()


# Wrong: entries stored one by one into an empty dict; get() reads one.
def dict_stored_race(x: torch.Tensor):
    s = torch.cuda.Stream()
    staged = {}
    staged["out"] = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        staged["out"].copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'staged["out"]' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:21: note: 'staged["out"]' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'staged["out"]' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    return staged.get("out").sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'staged["out"]' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-7]]:31: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-8]]:9: note: 'staged["out"]' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream was set to pool stream 's' here


# Unknown: the entry was replaced under a key the analysis cannot read,
# by update(), or by code the dict was handed to. Silent.
def dict_entries_let_go(x: torch.Tensor, key: str, refill):
    s = torch.cuda.Stream()
    a = {"out": torch.empty_like(x)}
    b = {"out": torch.empty_like(x)}
    c = {"out": torch.empty_like(x)}
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        a["out"].copy_(x)
        b["out"].copy_(x)
        c["out"].copy_(x)
    a[key] = x.clone()
    b.update(out=x.clone())
    refill(c)
    return a["out"].sum() + b["out"].sum() + c["out"].sum()


# Unknown: keys that are not plain strings make no entries. Silent.
def dict_computed_keys(x: torch.Tensor, name: str):
    s = torch.cuda.Stream()
    bufs = {name: torch.empty_like(x)}
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        bufs[name].copy_(x)
    return bufs[name].sum()


@dataclass
class Staging:
    src: torch.Tensor
    dst: torch.Tensor
    step: int = 0


class Pair(NamedTuple):
    key: torch.Tensor
    value: torch.Tensor


Slots = collections.namedtuple("Slots", "inp out")


# Wrong: a dataclass's field written on the side stream, read after with
# no join.
def dataclass_field_race(x: torch.Tensor):
    s = torch.cuda.Stream()
    st = Staging(x, dst=torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        st.dst.copy_(st.src)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'st.dst' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:25: note: 'st.dst' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'st.dst' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    return st.dst.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'st.dst' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-7]]:29: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-8]]:9: note: 'st.dst' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream was set to pool stream 's' here


# Right: the event recorded after the write orders the read.
def dataclass_field_event(x: torch.Tensor):
    s = torch.cuda.Stream()
    st = Staging(x, torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        st.dst.copy_(st.src)
        done = torch.cuda.Event()
        done.record()
    torch.cuda.current_stream().wait_event(done)
    return st.dst.sum()


# Wrong: a field assigned after construction (dataclasses are mutable).
def dataclass_field_assigned(x: torch.Tensor):
    s = torch.cuda.Stream()
    st = Staging(x, x)
    st.dst = torch.empty_like(x)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        st.dst.copy_(x)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'st.dst' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:14: note: 'st.dst' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'st.dst' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    return st.dst.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'st.dst' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-7]]:24: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-8]]:9: note: 'st.dst' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream was set to pool stream 's' here


# Wrong: a NamedTuple's field, read on the side stream before the caller's
# stream finished writing it (the side stream never waited).
def named_tuple_unordered(k: torch.Tensor):
    s = torch.cuda.Stream()
    kv = Pair(k * 2, torch.empty_like(k))
    with torch.cuda.stream(s):
        kv.value.copy_(kv.key)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'kv.value' is written on pool stream 's' while its allocation on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-5]]:22: note: 'kv.value' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE-4]]:24: warning: tensor 'kv.key' is read on pool stream 's' while its write on the caller's current stream may still be pending; nothing makes pool stream 's' wait for it [streamsafe-unsynchronized-access]
        # CHECK-NOTES: :[[@LINE-6]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-8]]:15: note: 'kv.key' is written on the caller's current stream here
    kv.value.record_stream(s)
    kv.key.record_stream(s)
    torch.cuda.current_stream().wait_stream(s)
    return kv.value


# Right: the side stream waits for the caller's stream first.
def named_tuple_ordered(k: torch.Tensor):
    s = torch.cuda.Stream()
    kv = Pair(k * 2, torch.empty_like(k))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        kv.value.copy_(kv.key)
    torch.cuda.current_stream().wait_stream(s)
    return kv.value


# Wrong: a collections.namedtuple's fields take their class from the
# arguments.
def namedtuple_factory_race(x: torch.Tensor):
    s = torch.cuda.Stream()
    io = Slots(x, torch.empty_like(x))
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        io.out.copy_(io.inp)
        # CHECK-NOTES: :[[@LINE-1]]:9: warning: tensor 'io.out' is used on pool stream 's' but was allocated on the caller's current stream; when its last reference dies the caching allocator may reuse its memory while pool stream 's' is still using it [streamsafe-missing-record-stream]
        # CHECK-NOTES: :[[@LINE-3]]:10: note: the current stream is set to pool stream 's' here
        # CHECK-NOTES: :[[@LINE-6]]:19: note: 'io.out' is allocated on the caller's current stream here
        # CHECK-NOTES: :[[@LINE+1]]:5: note: the last reference to 'io.out' dies here, with no record_stream on pool stream 's' and no synchronization with the caller's current stream
    return io.out.sum()
    # CHECK-NOTES: :[[@LINE-1]]:12: warning: tensor 'io.out' is read on the caller's current stream while its write on pool stream 's' may still be pending; nothing makes the caller's current stream wait for it [streamsafe-unsynchronized-access]
    # CHECK-NOTES: :[[@LINE-7]]:29: note: the current stream is restored to the caller's current stream here, when the guard goes out of scope
    # CHECK-NOTES: :[[@LINE-8]]:9: note: 'io.out' is written on pool stream 's' here
    # CHECK-NOTES: :[[@LINE-10]]:10: note: the current stream was set to pool stream 's' here


# A dataclass whose __init__ is not the generated one, or a record bound
# twice, is not followed. Silent.
@dataclasses.dataclass(init=False)
class Custom:
    out: torch.Tensor


def not_records(x: torch.Tensor, make):
    s = torch.cuda.Stream()
    c = Custom()
    c.out = torch.empty_like(x)
    r = make(x)
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        c.out.copy_(x)
        r.out.copy_(x)
    return c.out.sum() + r.out.sum()
