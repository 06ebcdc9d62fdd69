//===--- StreamSafeChecks.h - The list of streamsafe-* checks --*- C++ -*-===//

#ifndef STREAMSAFE_CHECKS_STREAMSAFECHECKS_H
#define STREAMSAFE_CHECKS_STREAMSAFECHECKS_H

namespace clang::tidy {
class ClangTidyCheckFactories;
namespace streamsafe {

/// Registers every streamsafe-* check with \p Factories. The checks that
/// consume the stream dataflow engine share one AnalysisSession per
/// translation unit.
void registerStreamSafeChecks(ClangTidyCheckFactories &Factories);

} // namespace streamsafe
} // namespace clang::tidy

#endif // STREAMSAFE_CHECKS_STREAMSAFECHECKS_H
