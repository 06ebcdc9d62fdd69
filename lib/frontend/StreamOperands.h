//===--- StreamOperands.h - What a stream operand is, as written -*- C++
//-*-===//
//
// The one resolver of stream expressions that the dataflow lowering
// (Lowering::streamRef) and default-stream-launch's classifier both read:
// an expression is looked through to the stream it denotes, then judged by
// the model's effect of the call that makes it or by the value of the
// literal it is. The two only map the answer to their own terms (a
// StreamRef, a StreamOrigin).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_STREAMOPERANDS_H
#define STREAMSAFE_LIB_FRONTEND_STREAMOPERANDS_H

#include "lib/model/ApiEffect.h"

namespace clang {
class Expr;
} // namespace clang

namespace streamsafe {

class ApiLookup;

/// The stream an expression denotes once casts, copies and the identity
/// accessors (stream(), unwrap()) are looked through.
const clang::Expr *streamOperand(const clang::Expr *E, ApiLookup &Table);

/// What a stream operand is by its spelling alone.
enum class StreamLiteral {
  NotLiteral, ///< an expression of another kind: a call, a variable, ...
  Null,       ///< 0, nullptr, NULL: the legacy default stream
  Legacy,     ///< 1, the value of the cudaStreamLegacy macro
  PerThread,  ///< 2, the value of the cudaStreamPerThread macro
  Other,      ///< another integer: a handle of its own
};

/// \p E (looked through by streamOperand) as a literal.
StreamLiteral streamLiteral(const clang::Expr *E);

/// The effect of the call \p E makes (None: \p E is no call of the
/// model's stream API).
ApiEffect streamCallEffect(const clang::Expr *E, ApiLookup &Table);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_STREAMOPERANDS_H
