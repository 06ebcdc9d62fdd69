//===--- IRBuilder.h - A function's fact IR from Clang CFGs -----*- C++ -*-===//
//
// Builds the IR of one function: its body and the bodies it runs, each from
// its own clang::CFG: lambdas run on threads or in place, and callees
// defined in the translation unit that use streams, whose bodies run in
// place at their call sites with their parameters bound to the arguments.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_IRBUILDER_H
#define STREAMSAFE_LIB_FRONTEND_IRBUILDER_H

#include "lib/frontend/ApiTable.h"
#include "lib/ir/IR.h"
#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace streamsafe {

class ObjectStreams;

/// Lowers \p FD (which must have a body) to the fact IR; null when Clang
/// builds no CFG for it. \p Held: what the unit proves of its members and
/// globals (null: nothing); with it and \p SideStreamParameters, a stream
/// parameter \p FD uses as a side stream is marked so (SideParameters.h).
std::unique_ptr<Function> lowerFunction(const clang::FunctionDecl &FD,
                                        clang::ASTContext &Ctx, ApiTable &Table,
                                        ObjectStreams *Held = nullptr,
                                        bool SideStreamParameters = false);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_IRBUILDER_H
