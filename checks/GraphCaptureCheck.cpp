//===--- GraphCaptureCheck.cpp - streamsafe-graph-capture -----------------===//
//
// Every message says what the CUDA runtime (or PyTorch's CUDAGraph) does
// when the code runs, as measured on the GPU suite (integration/cases/
// graph_*), and how to fix it.
//
//===----------------------------------------------------------------------===//

#include "checks/GraphCaptureCheck.h"
#include "clang/AST/ExprCXX.h"

using namespace ::streamsafe;

namespace clang::tidy::streamsafe {

namespace {

// The name of the function called at \p Site ("item", "cudaMalloc").
std::string calleeAt(const FunctionResult &R, SiteId Site) {
  const auto *Call = dyn_cast_or_null<CallExpr>(R.stmt(Site));
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  return FD ? FD->getNameAsString() : std::string("this call");
}

const char *modeName(CaptureMode M) {
  switch (M) {
  case CaptureMode::Global:
    return "cudaStreamCaptureModeGlobal";
  case CaptureMode::ThreadLocal:
    return "cudaStreamCaptureModeThreadLocal";
  case CaptureMode::Relaxed:
    return "cudaStreamCaptureModeRelaxed";
  case CaptureMode::Unknown:
    break;
  }
  return "an unknown mode";
}

} // namespace

void GraphCaptureCheck::noteCaptureBegin(const FunctionResult &R,
                                         const Finding &F) {
  if (F.CaptureBegin == NoSite)
    return;
  diag(R.loc(F.CaptureBegin), "the capture begins here, on %0",
       DiagnosticIDs::Note)
      << describeStream(R, F.Prior.Stream);
}

void GraphCaptureCheck::report(const FunctionResult &R, const Finding &F,
                               const FunctionDecl &, ASTContext &) {
  if (F.Kind != FindingKind::GraphCapture)
    return;
  SourceLocation Loc = R.loc(F.Access.Site);
  std::string Stream = describeStream(R, F.Access.Stream);
  std::string Capturing = describeStream(R, F.Prior.Stream);
  switch (F.Capture) {
  case CaptureProblem::Unjoined:
    diag(Loc, "the CUDA graph capture ends with work on %0 not joined back: "
              "the end of the capture fails with "
              "cudaErrorStreamCaptureUnjoined and no graph is made; record "
              "an event on %0 after its last work and make %1 wait on it "
              "before the capture ends")
        << Stream << Capturing;
    if (F.Prior.Site != NoSite)
      diag(R.loc(F.Prior.Site),
           "%0 joins the capture here, by waiting on an event recorded on "
           "a capturing stream",
           DiagnosticIDs::Note)
          << Stream;
    diag(R.loc(F.Related), "the last work on %0, which %1 does not wait for",
         DiagnosticIDs::Note)
        << Stream << Capturing;
    break;
  case CaptureProblem::HostSync:
    if (F.Access.Stream.Kind == StreamKind::Unknown)
      diag(Loc, "'%0' waits for the whole device while %1 captures into a "
                "CUDA graph: the runtime refuses it with "
                "cudaErrorStreamCaptureUnsupported and invalidates the "
                "capture; synchronise after the capture ends")
          << calleeAt(R, F.Access.Site) << Capturing;
    else
      diag(Loc, "'%0' makes the host wait for %1, which is capturing into a "
                "CUDA graph: its work is only being recorded, and the "
                "runtime refuses the wait with "
                "cudaErrorStreamCaptureUnsupported (PyTorch raises it) and "
                "invalidates the capture; read results on the host after "
                "the capture ends, from a replay")
          << calleeAt(R, F.Access.Site) << Stream;
    noteCaptureBegin(R, F);
    break;
  case CaptureProblem::ForbiddenSync:
    diag(Loc, "'%0' makes the host wait for %1 while %2 captures into a "
              "CUDA graph in %3, which forbids waiting for any stream: the "
              "runtime refuses it with cudaErrorStreamCaptureUnsupported "
              "and invalidates the capture; wait before the capture begins "
              "or after it ends")
        << calleeAt(R, F.Access.Site) << Stream << Capturing
        << modeName(F.Mode);
    noteCaptureBegin(R, F);
    break;
  case CaptureProblem::CapturedEvent:
    diag(Loc, "'%0' on event '%1', which is recorded inside the CUDA graph "
              "capture: the record is a node of the graph, not work that "
              "has run, and the runtime refuses the call with "
              "cudaErrorCapturedEvent; make a stream wait on the event "
              "instead, or query it after the capture ends")
        << calleeAt(R, F.Access.Site) << tensorName(R, F.Tensor);
    diag(R.loc(F.Related), "'%0' is recorded here, inside the capture",
         DiagnosticIDs::Note)
        << tensorName(R, F.Tensor);
    noteCaptureBegin(R, F);
    break;
  case CaptureProblem::Restricted:
    if (F.Access.Stream.Kind != StreamKind::Unknown)
      diag(Loc, "'%0' queries %1 while it captures into a CUDA graph: the "
                "runtime refuses it with cudaErrorStreamCaptureUnsupported "
                "and invalidates the capture; query after the capture ends")
          << calleeAt(R, F.Access.Site) << Stream;
    else
      diag(Loc, "'%0' while %1 captures into a CUDA graph in %2, which "
                "forbids it: the runtime refuses it with "
                "cudaErrorStreamCaptureUnsupported and invalidates the "
                "capture; allocate before the capture, use the "
                "stream-ordered cudaMallocAsync/cudaFreeAsync on the "
                "capturing stream, or capture in "
                "cudaStreamCaptureModeRelaxed, which allows it")
          << calleeAt(R, F.Access.Site) << Capturing << modeName(F.Mode);
    noteCaptureBegin(R, F);
    break;
  case CaptureProblem::Uncaptured:
    diag(Loc, "work on %0, which is not part of the CUDA graph capture on "
              "%1: it is not recorded in the graph, so it runs once, now, "
              "and a replay does not repeat it (in the global mode, a "
              "caching-allocator block it needs is refused with "
              "cudaErrorStreamCaptureUnsupported); fork %0 into the capture "
              "(make it wait on an event recorded on %1 after the capture "
              "begins) and join it back before the capture ends, or issue "
              "the work on %1")
        << Stream << Capturing;
    noteStreamSetAt(R, F.Access, "is");
    noteCaptureBegin(R, F);
    break;
  case CaptureProblem::LegacyStream:
    diag(Loc, "work on the legacy default stream while %0 captures into a "
              "CUDA graph: the legacy stream does not wait for a "
              "non-blocking capturing stream, so the work is not recorded "
              "in the graph; it runs once, now, and a replay does not "
              "repeat it (a blocking capturing stream would make the "
              "runtime refuse it with cudaErrorStreamCaptureImplicit); "
              "issue the work on %0")
        << Capturing;
    noteStreamSetAt(R, F.Access, "is");
    noteCaptureBegin(R, F);
    break;
  case CaptureProblem::DefaultStreamCapture:
    diag(Loc, "CUDA graph capture begun on the legacy default stream: "
              "CUDAGraph::capture_begin refuses it ('CUDA graphs must be "
              "captured on a non-default stream') and "
              "cudaStreamBeginCapture fails with "
              "cudaErrorStreamCaptureUnsupported; capture on a side stream "
              "(getStreamFromPool() under a CUDAStreamGuard)");
    noteStreamSetAt(R, F.Access, "is");
    break;
  }
  noteCallSite(R, F);
}

} // namespace clang::tidy::streamsafe
