//===--- UnsynchronizedAccessCheck.cpp - streamsafe-unsynchronized-access -===//

#include "checks/UnsynchronizedAccessCheck.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

static StringRef verb(AccessMode M) {
  switch (M) {
  case AccessMode::Read:
    return "read";
  case AccessMode::Write:
    return "written";
  case AccessMode::Allocate:
    return "allocated";
  case AccessMode::EntryReady:
    return "ready";
  }
  return "used";
}

static StringRef noun(AccessMode M) {
  switch (M) {
  case AccessMode::Read:
    return "read";
  case AccessMode::Allocate:
    return "allocation";
  default:
    return "write";
  }
}

void UnsynchronizedAccessCheck::report(const FunctionResult &R,
                                       const Finding &F, ASTContext &) {
  if (F.Kind != FindingKind::UnsynchronizedAccess)
    return;
  const Site &At = R.Sites[F.Access.Site];
  const Site &Prior = R.Sites[F.Prior.Site];
  if (F.Prior.Mode == AccessMode::EntryReady) {
    diag(At.Loc, "tensor '%0' is %1 on %2, but it is only known to be ready "
                 "on %3; nothing makes %2 wait for it")
        << F.Tensor << verb(F.Access.Mode) << F.Access.Stream << F.Prior.Stream;
    noteStreamSetAt(R, F.Access, "is");
    diag(Prior.Loc, "'%0' is assumed ready on %1 at function entry",
         DiagnosticIDs::Note)
        << F.Tensor << F.Prior.Stream;
    return;
  }
  std::string Name = F.Tensor == F.Storage
                         ? "'" + F.Tensor + "'"
                         : "'" + F.Tensor + "' (a view of '" + F.Storage + "')";
  diag(At.Loc, "tensor %0 is %1 on %2 while its %3 on %4 may still be "
               "pending; nothing makes %2 wait for it")
      << Name << verb(F.Access.Mode) << F.Access.Stream << noun(F.Prior.Mode)
      << F.Prior.Stream;
  noteStreamSetAt(R, F.Access, "is");
  diag(Prior.Loc, "'%0' is %1 on %2 here", DiagnosticIDs::Note)
      << F.Storage << verb(F.Prior.Mode) << F.Prior.Stream;
  if (F.Prior.StreamSetAt != F.Access.StreamSetAt)
    noteStreamSetAt(R, F.Prior, "was");
}

} // namespace clang::tidy::streamsafe
