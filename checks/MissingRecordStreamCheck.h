//===--- MissingRecordStreamCheck.h - streamsafe-missing-record-stream ----===//

#ifndef STREAMSAFE_CHECKS_MISSINGRECORDSTREAMCHECK_H
#define STREAMSAFE_CHECKS_MISSINGRECORDSTREAMCHECK_H

#include "checks/StreamAnalysisBase.h"

namespace clang::tidy::streamsafe {

/// Finds a tensor used on a stream other than its allocation stream whose
/// last reference dies with no record_stream and no synchronisation back.
///
/// For the user-facing documentation see:
/// docs/checks/missing-record-stream.md
class MissingRecordStreamCheck : public StreamAnalysisBase {
public:
  using StreamAnalysisBase::StreamAnalysisBase;

protected:
  void report(const ::streamsafe::FunctionResult &R,
              const ::streamsafe::Finding &F, const FunctionDecl &FD,
              ASTContext &Ctx) override;
};

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_MISSINGRECORDSTREAMCHECK_H
