//===--- ThreadCurrentStreamCheck.cpp - streamsafe-thread-current-stream
//---===//

#include "checks/ThreadCurrentStreamCheck.h"
#include "clang/AST/Expr.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

void ThreadCurrentStreamCheck::report(const FunctionResult &R, const Finding &F,
                                      const FunctionDecl &, ASTContext &) {
  if (F.Kind != FindingKind::ThreadCurrentStream)
    return;
  if (F.Query) {
    // The getter as called: getCurrentCUDAStream, a configured one, or the
    // stable ABI's aoti_torch_get_current_cuda_stream.
    const auto *Call = dyn_cast_or_null<CallExpr>(R.stmt(F.Access.Site));
    const FunctionDecl *Getter = Call ? Call->getDirectCallee() : nullptr;
    diag(R.loc(F.Access.Site),
         "%1() in this thread returns the default stream, not %0 that was "
         "current where the thread was spawned; the current stream is "
         "thread-local")
        << describeStream(R, F.Prior.Stream)
        << (Getter && Getter->getIdentifier() ? Getter->getName()
                                              : "getCurrentCUDAStream");
  } else
    diag(R.loc(F.Access.Site),
         "this work runs on the default stream, not on %0 that was current "
         "where the thread was spawned; the current stream is thread-local")
        << describeStream(R, F.Prior.Stream);
  diag(R.loc(F.Related),
       "the thread starts here on the default stream; pass the stream in and "
       "set a stream guard inside the thread",
       DiagnosticIDs::Note);
  if (F.Prior.StreamSetAt != NoSite)
    diag(R.loc(F.Prior.StreamSetAt),
         "the spawning thread's current stream is set to %0 here",
         DiagnosticIDs::Note)
        << describeStream(R, F.Prior.Stream);
  noteCallSite(R, F);
}

} // namespace clang::tidy::streamsafe
