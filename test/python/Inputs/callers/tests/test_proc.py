# Test code calls defs out of the context the program gives them: it is
# not a caller (lib/python/CallerContexts.h).
import asyncio

from pkg.proc import Processor


def test_accept_tested(ids):
    asyncio.run(Processor().accept_tested(ids))
