# Helpers that other modules of the project import
# (test/python/imports-modules.test).
import torch

from . import streams


def fill_on(stream, buf, src):
    with torch.cuda.stream(stream):
        buf.copy_(src)


def scale(t):
    t.mul_(2)


def fill_and_join(stream, buf, src):
    streams.fork(stream)
    fill_on(stream, buf, src)
    streams.join(stream)


def fill_quietly(stream, buf, src):
    with torch.cuda.stream(stream):
        buf.copy_(src)  # NOLINT(streamsafe-missing-record-stream)
