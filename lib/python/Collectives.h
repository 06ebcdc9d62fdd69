//===--- Collectives.h - torch.distributed calls, as written ---*- C++ -*-===//
//
// A collective of torch.distributed runs, when asynchronous, on its process
// group's internal stream, ordered after the current stream at the call,
// until its work handle's wait() makes the stream current there wait
// (docs/api-model.md, "Collectives"). Which calls are asynchronous is read
// from the call as written: isend/irecv always, the others with
// `async_op=True` written out. Builder::collectiveCall (Collectives.cpp)
// lowers them.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_PYTHON_COLLECTIVES_H
#define STREAMSAFE_LIB_PYTHON_COLLECTIVES_H

#include "lib/lower/Collectives.h"
#include "lib/model/ApiEffect.h"
#include "lib/python/Syntax.h"
#include "llvm/ADT/StringRef.h"

namespace streamsafe::py {

/// The row of the torch.distributed collective \p Qualified, or null.
const ApiEntry *collectiveRow(llvm::StringRef Qualified);

/// How a collective call runs as written (lib/lower/Collectives.h): isend,
/// irecv and async_op=True asynchronous, no async_op or async_op=False
/// synchronous, async_op not written out as a literal unknown.
using lower::CollectiveMode;
CollectiveMode collectiveMode(TSNode Call, const ApiEntry &Row,
                              const SourceFile &F);

/// Argument \p Position of \p Call, else its keyword \p Name (null: none).
TSNode callArgument(TSNode Call, int Position, const char *Name,
                    const SourceFile &F);

} // namespace streamsafe::py

#endif // STREAMSAFE_LIB_PYTHON_COLLECTIVES_H
