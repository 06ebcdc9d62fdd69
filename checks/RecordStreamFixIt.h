//===--- RecordStreamFixIt.h - Fix of a missing record_stream --*- C++ -*-===//

#ifndef STREAMSAFE_CHECKS_RECORDSTREAMFIXIT_H
#define STREAMSAFE_CHECKS_RECORDSTREAMFIXIT_H

#include "lib/frontend/FunctionAnalysis.h"
#include "clang/Basic/Diagnostic.h"
#include <optional>

namespace clang::tidy::streamsafe {

/// "<t>.record_stream(<s>);" on a new line after the last use of the tensor
/// on the other stream, when the tensor is used on no other foreign stream,
/// both names are in scope there and nothing but a comment follows the use
/// on its line. None otherwise.
std::optional<FixItHint>
recordStreamFixIt(const ::streamsafe::FunctionResult &R,
                  const ::streamsafe::finding::MissingRecordStream &F,
                  const FunctionDecl &FD, ASTContext &Ctx);

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_RECORDSTREAMFIXIT_H
