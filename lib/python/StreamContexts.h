//===--- StreamContexts.h - Calls that enter a stream for a with-block
//-*-C++-*-===//
//
// `with torch.cuda.stream(s):` makes s current for the block. So does a
// call of a name that stands for that function: an attribute every
// assignment of the file gives it (`self._stream_context =
// torch.cuda.stream`, Imports.h), or a parameter the def only ever calls
// as a with-item with one argument (`with stream_context(source_stream):`,
// a stream context handed in by the caller: what else would a context
// manager the def hands a stream do?).
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

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_STREAMCONTEXTS_H
