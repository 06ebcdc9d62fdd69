//===--- EventWrappers.h - Hand-written event classes -----------*- C++ -*-===//
//
// Frameworks wrap cudaEvent_t or at::cuda::CUDAEvent in a class of their own
// (Record(stream), Wait(stream), Synchronize()). A class whose methods each
// do one thing to an event it holds in a field is an event, recognised from
// its code: each object is an event of its own, and its methods record,
// wait or synchronize. The EventClasses option stays for classes defined in
// other translation units.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_EVENTWRAPPERS_H
#define STREAMSAFE_LIB_FRONTEND_EVENTWRAPPERS_H

#include "lib/frontend/ApiTable.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace clang {
class CXXRecordDecl;
class FunctionDecl;
} // namespace clang

namespace streamsafe {

/// What each method of an event wrapper does, keyed by canonical
/// declaration: ConfiguredEventRecord / ConfiguredEventWait with the
/// position of the stream parameter (-1: the current stream),
/// ConfiguredEventSync, or ConfiguredEventOther.
using WrapperMethods = llvm::DenseMap<const clang::FunctionDecl *, ApiEntry>;

/// The methods of \p RD when it is an event wrapper: it holds an event in a
/// field, some method records it and some method waits on or synchronizes
/// it, and no method does anything to it the model cannot say (two
/// different things, or on a stream that is neither a parameter nor the
/// current stream). Otherwise nothing: its methods are ordinary code.
std::optional<WrapperMethods>
eventWrapperMethods(const clang::CXXRecordDecl &RD, ApiLookup &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_EVENTWRAPPERS_H
