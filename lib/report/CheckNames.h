//===--- CheckNames.h - The one table of checks -----------------*- C++ -*-===//
//
// Each kind of finding is one check, named here once: the clang-tidy checks
// are registered from this table, streamsafe-py tags its diagnostics and
// knows its --checks names from it, and streamsafe-ci reads the names back
// from the tools (--list-checks).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_REPORT_CHECKNAMES_H
#define STREAMSAFE_LIB_REPORT_CHECKNAMES_H

#include "lib/ir/Findings.h"
#include "llvm/ADT/ArrayRef.h"

namespace streamsafe::report {

/// A check: its name, the kind of finding it reports, and whether the
/// engine finds it (then both front ends run it) or C++ syntax does.
struct CheckInfo {
  const char *Name;
  FindingKind Kind;
  bool Engine;
};

/// Every check, one per finding kind, in FindingKind order.
llvm::ArrayRef<CheckInfo> checks();

/// "streamsafe-unsynchronized-access" for FindingKind::UnsynchronizedAccess.
const char *checkName(FindingKind K);

} // namespace streamsafe::report

#endif // STREAMSAFE_LIB_REPORT_CHECKNAMES_H
