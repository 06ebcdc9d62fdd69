//===--- ForwardingSetters.h - Setters of a stream they are given -*- C++
//-*-===//
//
// The C++ reader of the forwarding-setter evidence of
// lib/lower/LeavesStreamSet.h: `void use(CUDAStream s) {
// setCurrentCUDAStream(s); }`, or a function that calls such setters of
// the unit with its own parameters only.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_FORWARDINGSETTERS_H
#define STREAMSAFE_LIB_FRONTEND_FORWARDINGSETTERS_H

namespace clang {
class FunctionDecl;
} // namespace clang

namespace streamsafe {

class ApiLookup;

/// Whether \p FD makes some stream current, and every stream it makes
/// current is one of its parameters: given to the setter, or to a
/// forwarding setter of the unit that is given only parameters.
/// \p ReadsCurrent: its own code reads the current stream (a constructor's
/// initializers included).
bool forwardsStreamParameters(const clang::FunctionDecl &FD, ApiLookup &Table,
                              bool &ReadsCurrent);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_FORWARDINGSETTERS_H
