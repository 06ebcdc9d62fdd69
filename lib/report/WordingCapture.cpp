//===--- WordingCapture.cpp - The rules of graph capture, in words --------===//
//
// What the runtime does in each case is on docs/checks/graph-capture.md.
//
//===----------------------------------------------------------------------===//

#include "lib/report/Writer.h"

namespace streamsafe::report {

using namespace finding::capture;

namespace {

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

void Writer::word(const finding::GraphCapture &X) {
  std::visit([&](const auto &Problem) { rule(X.Capture, Problem); }, X.Problem);
}

void Writer::noteCaptureBegin(const finding::CaptureInfo &C) {
  if (C.Begin == NoSite)
    return;
  note(C.Begin, sub("the capture begins here, on %0", {stream(C.Stream)}));
}

void Writer::rule(const finding::CaptureInfo &C, const Unjoined &X) {
  std::string Forked = stream(X.Forked), Capturing = stream(C.Stream);
  // A collective's stream is joined by waiting for its work.
  const char *Fix = X.Forked.Kind == StreamKind::Collective
                        ? "wait for the collective's work (work.wait()) on "
                          "%1 before the capture ends"
                        : "record an event on %0 after its last work and "
                          "make %1 wait on it before the capture ends";
  std::string Format = std::string("the CUDA graph capture ends with work on "
                                   "%0 not joined back: the end of the "
                                   "capture fails with "
                                   "cudaErrorStreamCaptureUnjoined and no "
                                   "graph is made; ") +
                       Fix;
  warn(X.End, sub(Format.c_str(), {Forked, Capturing}));
  if (X.ForkedAt != NoSite)
    note(X.ForkedAt, sub("%0 joins the capture here, by waiting on an "
                         "event recorded on a capturing stream",
                         {Forked}));
  note(X.LastWork, sub("the last work on %0, which %1 does not wait for",
                       {Forked, Capturing}));
}

void Writer::rule(const finding::CaptureInfo &C, const HostSync &X) {
  std::string Call = callee(X.Call, "this call");
  if (!X.Waited)
    warn(X.Call, sub("'%0' waits for the whole device while %1 captures "
                     "into a CUDA graph: the runtime refuses it with "
                     "cudaErrorStreamCaptureUnsupported and invalidates the "
                     "capture; synchronise after the capture ends",
                     {Call, stream(C.Stream)}));
  else
    warn(X.Call, sub("'%0' makes the host wait for %1, which is capturing "
                     "into a CUDA graph: its work is only being recorded, "
                     "and the runtime refuses the wait with "
                     "cudaErrorStreamCaptureUnsupported (PyTorch raises it) "
                     "and invalidates the capture; read results on the host "
                     "after the capture ends, from a replay",
                     {Call, stream(*X.Waited)}));
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const ForbiddenSync &X) {
  warn(X.Call, sub("'%0' makes the host wait for %1 while %2 captures into a "
                   "CUDA graph in %3, which forbids waiting for any stream: "
                   "the runtime refuses it with "
                   "cudaErrorStreamCaptureUnsupported and invalidates the "
                   "capture; wait before the capture begins or after it ends",
                   {callee(X.Call, "this call"), stream(X.Waited),
                    stream(C.Stream), modeName(C.Mode)}));
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const CapturedEvent &X) {
  std::string Event = name(X.Event);
  warn(X.Call, sub("'%0' on event '%1', which is recorded inside the CUDA "
                   "graph capture: the record is a node of the graph, not "
                   "work that has run, and the runtime refuses the call with "
                   "cudaErrorCapturedEvent; make a stream wait on the event "
                   "instead, or query it after the capture ends",
                   {callee(X.Call, "this call"), Event}));
  note(X.RecordedAt, sub("'%0' is recorded here, inside the capture", {Event}));
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const Restricted &X) {
  std::string Call = callee(X.Call, "this call");
  if (X.Queried)
    warn(X.Call, sub("'%0' queries %1 while it captures into a CUDA graph: "
                     "the runtime refuses it with "
                     "cudaErrorStreamCaptureUnsupported and invalidates the "
                     "capture; query after the capture ends",
                     {Call, stream(*X.Queried)}));
  else
    warn(X.Call,
         sub("'%0' while %1 captures into a CUDA graph in %2, which "
             "forbids it: the runtime refuses it with "
             "cudaErrorStreamCaptureUnsupported and invalidates the "
             "capture; allocate before the capture, use the "
             "stream-ordered cudaMallocAsync/cudaFreeAsync on the "
             "capturing stream, or %3 (the relaxed mode allows it)",
             {Call, stream(C.Stream), modeName(C.Mode), V.RelaxedCapture}));
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const ForbiddenQuery &X) {
  std::string What =
      X.Stream ? stream(*X.Stream) : "event '" + name(X.Event) + "'";
  warn(X.Call, sub("'%0' %1 %2 while %3 captures into a CUDA graph in %4, "
                   "which forbids querying or waiting on any stream or "
                   "event: the runtime refuses it with "
                   "cudaErrorStreamCaptureUnsupported and invalidates the "
                   "capture; make the call before the capture begins or "
                   "after it ends, or %5",
                   {callee(X.Call, "this call"),
                    X.HostWait ? "makes the host wait on" : "queries", What,
                    stream(C.Stream), modeName(C.Mode), V.RelaxedCapture}));
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const OutsideEventWait &X) {
  if (X.WaitedStream) {
    // No event of the user's: the wait is the whole story.
    warn(X.Call, sub("%0 waits for %1, which is not part of the CUDA graph "
                     "capture: a graph cannot depend on work outside it, so "
                     "the runtime refuses the wait with "
                     "cudaErrorStreamCaptureIsolation and invalidates the "
                     "capture; make %0 wait before the capture begins (and "
                     "the replay's stream before each replay)",
                     {stream(X.Waiter), stream(*X.WaitedStream)}));
    noteCaptureBegin(C);
    return;
  }
  std::string Event = name(X.Event);
  warn(X.Call, sub("%0 waits on event '%1', which was recorded outside the "
                   "CUDA graph capture: a graph cannot depend on work "
                   "outside it, so the runtime refuses the wait with "
                   "cudaErrorStreamCaptureIsolation and invalidates the "
                   "capture; make the capturing stream wait before the "
                   "capture begins (and the replay's stream before each "
                   "replay)",
                   {stream(X.Waiter), Event}));
  note(X.RecordedAt,
       sub("'%0' is recorded here, outside the capture", {Event}));
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const Uncaptured &X) {
  std::string Work = stream(X.Work.Stream), Capturing = stream(C.Stream);
  warn(X.Work.Site,
       sub("work on %0, which is not part of the CUDA graph capture "
           "on %1: it is not recorded in the graph, so it runs once, "
           "now, and a replay does not repeat it (in the global "
           "mode, a caching-allocator block it needs is refused with "
           "cudaErrorStreamCaptureUnsupported); fork %0 into the "
           "capture (make it wait on an event recorded on %1 after "
           "the capture begins) and join it back before the capture "
           "ends, or issue the work on %1",
           {Work, Capturing}));
  noteStreamSetAt(X.Work, "is");
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &C, const LegacyStream &X) {
  warn(X.Work.Site,
       sub("work on the legacy default stream while %0 captures into "
           "a CUDA graph: the legacy stream does not wait for a "
           "non-blocking capturing stream, so the work is not "
           "recorded in the graph; it runs once, now, and a replay "
           "does not repeat it (a blocking capturing stream would "
           "make the runtime refuse it with "
           "cudaErrorStreamCaptureImplicit); issue the work on %0",
           {stream(C.Stream)}));
  noteStreamSetAt(X.Work, "is");
  noteCaptureBegin(C);
}

void Writer::rule(const finding::CaptureInfo &, const DefaultStreamCapture &X) {
  warn(X.Begin.Site,
       sub("CUDA graph capture begun on the legacy default stream: "
           "CUDAGraph::capture_begin refuses it ('CUDA graphs must "
           "be captured on a non-default stream') and "
           "cudaStreamBeginCapture fails with "
           "cudaErrorStreamCaptureUnsupported; capture on a side "
           "stream (%0)",
           {V.SideStreamCapture}));
  noteStreamSetAt(X.Begin, "is");
}

} // namespace streamsafe::report
