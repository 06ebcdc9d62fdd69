//===--- DefaultStreamFindings.h - Default-stream findings ------*- C++ -*-===//
//
// The work findDefaultStreamWork finds, in the finding types every check
// shares (lib/ir/Findings.h): sites and variables of a small Function of
// their own, so that lib/report words them as it words the engine's.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMFINDINGS_H
#define STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMFINDINGS_H

#include "lib/frontend/DefaultStreamLaunch.h"
#include "lib/ir/Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace streamsafe {

/// One function's default-stream work as findings.
struct DefaultStreamFindings {
  /// Holds only the sites (Loc: a raw SourceLocation) and the variables
  /// the findings name.
  Function IR;
  /// One per piece of work, in the same order.
  std::vector<Finding> Findings;

  clang::SourceLocation loc(SiteId Id) const {
    return clang::SourceLocation::getFromRawEncoding(
        static_cast<clang::SourceLocation::UIntTy>(IR.Sites[Id].Loc));
  }
};

DefaultStreamFindings
defaultStreamFindings(llvm::ArrayRef<DefaultStreamWork> Work);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_FRONTEND_DEFAULTSTREAMFINDINGS_H
