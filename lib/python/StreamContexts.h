//===--- StreamContexts.h - Calls that enter a stream for a with-block
//-*-C++-*-===//
//
// `with torch.cuda.stream(s):` makes s current for the block. So does a
// call of a name that stands for that function: an attribute every
// assignment of the file gives it (`self._stream_context =
// torch.cuda.stream`, Imports.h), or a parameter the def only ever calls
// as a with-item with one argument (`with stream_context(source_stream):`,
// a stream context handed in by the caller: what else would a context
// manager the def hands a stream do?). A stream context is also a value:
// `ctx = torch.cuda.stream(s) if overlap else nullcontext()`, entered by a
// later `with ctx:`.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_STREAMCONTEXTS_H
#define STREAMSAFE_LIB_PYTHON_STREAMCONTEXTS_H

#include "lib/python/Imports.h"
#include "lib/python/Syntax.h"

namespace streamsafe::py {

/// Whether the call \p Call enters a stream for a with-block, as
/// `torch.cuda.stream(s)` does.
bool streamContextCall(TSNode Call, const SourceFile &F, const Imports &I);

/// Whether the call \p Call makes a context that switches no stream:
/// `contextlib.nullcontext()`, `torch.cuda.stream(None)` (its
/// StreamContext does nothing for None).
bool switchesNothing(TSNode Call, const Imports &I);

/// Whether \p N is a stream context as a value, to be entered later: one
/// of the two above, or `a if c else b` of them with a stream in one arm.
bool streamContextValue(TSNode N, const SourceFile &F, const Imports &I);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_STREAMCONTEXTS_H
