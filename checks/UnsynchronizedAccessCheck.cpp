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
                                       const Finding &F, const FunctionDecl &,
                                       ASTContext &) {
  if (F.Kind != FindingKind::UnsynchronizedAccess)
    return;
  // A race between the caller's code and a helper's is reported at the
  // call, where the missing wait belongs, with a note at the helper's
  // access. A race within one helper stays at the helper's line.
  bool AtCall = F.CallSite != NoSite &&
                R.site(F.Access.Site).Scope != R.site(F.Prior.Site).Scope;
  SourceLocation At = R.loc(AtCall ? F.CallSite : F.Access.Site);
  SourceLocation Prior = R.loc(F.Prior.Site);
  auto NoteHelperAccess = [&] {
    if (AtCall)
      diag(R.loc(F.Access.Site), "'%0' is %1 on %2 here, in '%3'",
           DiagnosticIDs::Note)
          << tensorName(R, F.Tensor) << verb(F.Access.Mode)
          << describeStream(R, F.Access.Stream) << calleeName(R, F);
  };
  auto NoteCall = [&] {
    if (!AtCall)
      noteCallSite(R, F);
  };
  if (F.Prior.Mode == AccessMode::EntryReady) {
    diag(At, "tensor '%0' is %1 on %2, but it is only known to be ready "
             "on %3; nothing makes %2 wait for it")
        << tensorName(R, F.Tensor) << verb(F.Access.Mode)
        << describeStream(R, F.Access.Stream)
        << describeStream(R, F.Prior.Stream);
    NoteHelperAccess();
    noteStreamSetAt(R, F.Access, "is");
    diag(Prior, "'%0' is assumed ready on %1 at function entry",
         DiagnosticIDs::Note)
        << tensorName(R, F.Tensor) << describeStream(R, F.Prior.Stream);
    NoteCall();
    return;
  }
  std::string Tensor = tensorName(R, F.Tensor);
  std::string Storage = tensorName(R, F.Storage);
  std::string Name = Tensor == Storage
                         ? "'" + Tensor + "'"
                         : "'" + Tensor + "' (a view of '" + Storage + "')";
  diag(At, "tensor %0 is %1 on %2 while its %3 on %4 may still be "
           "pending; nothing makes %2 wait for it")
      << Name << verb(F.Access.Mode) << describeStream(R, F.Access.Stream)
      << noun(F.Prior.Mode) << describeStream(R, F.Prior.Stream);
  NoteHelperAccess();
  noteStreamSetAt(R, F.Access, "is");
  diag(Prior, "'%0' is %1 on %2 here", DiagnosticIDs::Note)
      << Storage << verb(F.Prior.Mode) << describeStream(R, F.Prior.Stream);
  if (F.Prior.StreamSetAt != F.Access.StreamSetAt)
    noteStreamSetAt(R, F.Prior, "was");
  NoteCall();
}

} // namespace clang::tidy::streamsafe
