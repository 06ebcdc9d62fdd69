//===--- SideParameters.h - Stream parameters used as side streams -*- C++
//-*-===//
//
// A stream parameter may be the caller's current stream: nothing is
// reported about it. A function that itself treats the parameter as
// another stream, by entering it (a CUDAStreamGuard, setCurrentCUDAStream)
// or by ordering it against the current stream with an event (recorded on
// the current stream and waited on by the parameter, or the other way
// round), says it is not; unless a call in the translation unit passes it
// the current stream (ObjectStreams::givenCurrentStream), the parameter is
// taken to differ from the caller's current stream (StreamProof::
// SideParameter). The SideStreamParameters option turns this off.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_SIDEPARAMETERS_H
#define STREAMSAFE_LIB_FRONTEND_SIDEPARAMETERS_H

#include "lib/frontend/ApiTable.h"

namespace clang {
class FunctionDecl;
class ParmVarDecl;
class Stmt;
} // namespace clang

namespace streamsafe {

/// The statement of \p FD's own body (lambdas aside) that uses the stream
/// parameter \p P as a side stream: the guard or call that enters it, or
/// the event wait that orders it against the current stream; null when
/// there is none.
const clang::Stmt *sideStreamUse(const clang::FunctionDecl &FD,
                                 const clang::ParmVarDecl &P, ApiTable &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_SIDEPARAMETERS_H
