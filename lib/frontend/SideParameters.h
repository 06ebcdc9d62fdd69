//===--- SideParameters.h - Stream parameters used as side streams -*- C++
//-*-===//
//
// Reads a C++ function's body into the shared rule of
// lib/lower/SideParameters.h: a stream parameter the function enters (a
// CUDAStreamGuard, setCurrentCUDAStream) or orders against the current
// stream with an event is a side stream, unless it has a default argument,
// the function assigns it, or a call in the translation unit passes it the
// current stream (ObjectStreams::givenCurrentStream). The
// SideStreamParameters option turns this off.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_SIDEPARAMETERS_H
#define STREAMSAFE_LIB_FRONTEND_SIDEPARAMETERS_H

#include "lib/frontend/ApiTable.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class FunctionDecl;
class ParmVarDecl;
class Stmt;
} // namespace clang

namespace streamsafe {

/// The statement of \p FD's own body (lambdas aside) that proves the
/// stream parameter \p P a side stream: the guard or call that enters it,
/// or the event wait that orders it against the current stream; null when
/// there is none or the proof does not hold (\p GivenCurrent: whether a
/// caller passes it the current stream, asked last).
const clang::Stmt *sideStreamUse(const clang::FunctionDecl &FD,
                                 const clang::ParmVarDecl &P, ApiTable &Table,
                                 llvm::function_ref<bool()> GivenCurrent);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_SIDEPARAMETERS_H
