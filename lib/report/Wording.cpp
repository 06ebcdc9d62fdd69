//===--- Wording.cpp - Findings in words, for every front end -------------===//
//
// The texts are written as clang diagnostic formats (%0, %1, ...) and
// substituted here, so a front end prints them as they are.
//
//===----------------------------------------------------------------------===//

#include "lib/report/Wording.h"
#include "llvm/Support/ErrorHandling.h"
#include <initializer_list>

namespace streamsafe::report {

namespace {

// Replaces %0..%9 in \p Format by \p Args.
std::string sub(const char *Format, std::initializer_list<std::string> Args) {
  std::vector<std::string> A(Args);
  std::string Out;
  for (const char *P = Format; *P; ++P) {
    if (P[0] == '%' && P[1] >= '0' && P[1] <= '9' &&
        unsigned(P[1] - '0') < A.size()) {
      Out += A[P[1] - '0'];
      ++P;
      continue;
    }
    Out += *P;
  }
  return Out;
}

const char *verb(AccessMode M) {
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

const char *noun(AccessMode M) {
  switch (M) {
  case AccessMode::Read:
    return "read";
  case AccessMode::Allocate:
    return "allocation";
  default:
    return "write";
  }
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

// Builds the lines of one finding.
class Writer {
public:
  Writer(const Finding &F, const Vocabulary &V)
      : F(F), V(V), IR(*V.IR), Stream(describeStream(IR, F.Access.Stream)),
        PriorStream(describeStream(IR, F.Prior.Stream)),
        Tensor(tensorName(IR, F.Tensor)) {}

  std::vector<Line> run() {
    switch (F.Kind) {
    case FindingKind::UnsynchronizedAccess:
      unsynchronized();
      break;
    case FindingKind::MissingRecordStream:
      missingRecordStream();
      break;
    case FindingKind::ThreadCurrentStream:
      threadCurrentStream();
      break;
    case FindingKind::UnrestoredCurrentStream:
      warn(F.Access.Site,
           sub("the current stream set here is not restored on every path "
               "out of '%0'; the caller's later work silently runs on it "
               "(use %1 to set the stream for a scope)",
               {V.FunctionName, V.ScopedStreamSetter}));
      note(F.Related, sub("'%0' can return here with the stream still set",
                          {V.FunctionName}));
      break;
    case FindingKind::UnrecordedEventWait:
      unrecordedEventWait();
      break;
    case FindingKind::HostReadBeforeSync:
      hostReadBeforeSync();
      break;
    case FindingKind::GraphCapture:
      graphCapture();
      break;
    }
    if (!CallNoted)
      noteCallSite();
    return std::move(Lines);
  }

private:
  void warn(SiteId At, std::string Text) {
    Lines.push_back({At, std::move(Text), false});
  }
  void note(SiteId At, std::string Text) {
    Lines.push_back({At, std::move(Text), true});
  }
  std::string callee(SiteId At, const std::string &Fallback) const {
    std::string Name = V.CalleeAt ? V.CalleeAt(At) : "";
    return Name.empty() ? Fallback : Name;
  }

  // For a finding inside a helper run in place: the note at the call.
  void noteCallSite() {
    if (F.CallSite == NoSite)
      return;
    note(F.CallSite, sub("in '%0', called here from '%1'",
                         {callee(F.CallSite, "the helper"), IR.Name}));
  }

  // Where the stream of an access came from.
  void noteStreamSetAt(const AccessInfo &A, const char *Verb) {
    if (!A.OnCurrentStream || A.StreamSetAt == NoSite)
      return;
    std::string S = describeStream(IR, A.Stream);
    switch (IR.Sites[A.StreamSetAt].Kind) {
    case SiteKind::GuardEnter:
    case SiteKind::SetCurrent:
      note(A.StreamSetAt,
           sub("the current stream %0 set to %1 here", {Verb, S}));
      return;
    case SiteKind::GuardExit:
      note(A.StreamSetAt, sub("the current stream %0 restored to %1 here, "
                              "when the guard goes out of scope",
                              {Verb, S}));
      return;
    case SiteKind::ThreadStart:
      note(A.StreamSetAt, sub("the current stream is thread-local: the "
                              "thread started here runs on %0",
                              {S}));
      return;
    default:
      return;
    }
  }

  void unsynchronized() {
    // A race between the caller's code and a helper's is reported at the
    // call, where the missing wait belongs, with a note at the helper's
    // access. A race within one helper stays at the helper's line.
    bool AtCall = F.CallSite != NoSite &&
                  IR.Sites[F.Access.Site].Scope != IR.Sites[F.Prior.Site].Scope;
    SiteId At = AtCall ? F.CallSite : F.Access.Site;
    CallNoted = AtCall;
    auto NoteHelperAccess = [&] {
      if (AtCall)
        note(F.Access.Site, sub("'%0' is %1 on %2 here, in '%3'",
                                {Tensor, verb(F.Access.Mode), Stream,
                                 callee(F.CallSite, "the helper")}));
    };
    if (F.Prior.Mode == AccessMode::EntryReady) {
      warn(At, sub("tensor '%0' is %1 on %2, but it is only known to be ready "
                   "on %3; nothing makes %2 wait for it",
                   {Tensor, verb(F.Access.Mode), Stream, PriorStream}));
      NoteHelperAccess();
      noteStreamSetAt(F.Access, "is");
      note(F.Prior.Site, sub("'%0' is assumed ready on %1 at function entry",
                             {Tensor, PriorStream}));
      return;
    }
    std::string Storage = tensorName(IR, F.Storage);
    std::string Name = Tensor == Storage
                           ? "'" + Tensor + "'"
                           : "'" + Tensor + "' (a view of '" + Storage + "')";
    warn(At, sub("tensor %0 is %1 on %2 while its %3 on %4 may still be "
                 "pending; nothing makes %2 wait for it",
                 {Name, verb(F.Access.Mode), Stream, noun(F.Prior.Mode),
                  PriorStream}));
    NoteHelperAccess();
    noteStreamSetAt(F.Access, "is");
    note(F.Prior.Site, sub("'%0' is %1 on %2 here",
                           {Storage, verb(F.Prior.Mode), PriorStream}));
    if (F.Prior.StreamSetAt != F.Access.StreamSetAt)
      noteStreamSetAt(F.Prior, "was");
  }

  void missingRecordStream() {
    warn(F.Access.Site,
         sub("tensor '%0' is used on %1 but was allocated on %2; when its "
             "last reference dies the caching allocator may reuse its "
             "memory while %1 is still using it",
             {Tensor, Stream, PriorStream}));
    noteStreamSetAt(F.Access, "is");
    note(F.Prior.Site,
         sub("'%0' is allocated on %1 here", {Tensor, PriorStream}));
    if (F.FreedAt != NoSite)
      note(F.FreedAt, sub("the last reference to '%0' dies here, with no "
                          "record_stream on %1 and no synchronization with "
                          "%2",
                          {Tensor, Stream, PriorStream}));
  }

  void threadCurrentStream() {
    if (F.Query)
      warn(F.Access.Site,
           sub("%1() in this thread returns the default stream, not %0 that "
               "was current where the thread was spawned; the current "
               "stream is thread-local",
               {PriorStream, callee(F.Access.Site, V.CurrentStreamGetter)}));
    else
      warn(F.Access.Site,
           sub("this work runs on the default stream, not on %0 that was "
               "current where the thread was spawned; the current stream is "
               "thread-local",
               {PriorStream}));
    note(F.Related, "the thread starts here on the default stream; pass the "
                    "stream in and set a stream guard inside the thread");
    if (F.Prior.StreamSetAt != NoSite)
      note(F.Prior.StreamSetAt,
           sub("the spawning thread's current stream is set to %0 here",
               {PriorStream}));
  }

  void unrecordedEventWait() {
    if (F.Maybe)
      warn(F.Access.Site,
           sub("wait on event '%0', which is not recorded on every path to "
               "this point; on those paths the wait does nothing",
               {Tensor}));
    else
      warn(F.Access.Site,
           sub("wait on event '%0', which is never recorded before this "
               "point; a wait on an unrecorded event does nothing",
               {Tensor}));
    if (F.Related != NoSite)
      note(F.Related, sub("'%0' is declared here", {Tensor}));
    if (F.Maybe && F.Prior.Site != NoSite)
      note(F.Prior.Site,
           sub("'%0' is recorded here on some paths only", {Tensor}));
  }

  void hostReadBeforeSync() {
    bool Read = F.Access.Mode == AccessMode::Read;
    warn(F.Access.Site,
         sub(Read ? "the host reads tensor '%0' while a non_blocking copy "
                    "into it on %1 may still be running; synchronize the "
                    "stream or an event first"
                  : "the host writes tensor '%0' while a non_blocking copy "
                    "from it on %1 may still be reading it; synchronize the "
                    "stream or an event first",
             {Tensor, PriorStream}));
    note(F.Prior.Site,
         sub("the non_blocking copy is enqueued on %0 here", {PriorStream}));
  }

  void noteCaptureBegin() {
    if (F.CaptureBegin == NoSite)
      return;
    note(F.CaptureBegin, sub("the capture begins here, on %0", {PriorStream}));
  }

  void graphCapture() {
    SiteId At = F.Access.Site;
    std::string Call = callee(At, "this call");
    const std::string &Capturing = PriorStream;
    switch (F.Capture) {
    case CaptureProblem::Unjoined:
      warn(At, sub("the CUDA graph capture ends with work on %0 not joined "
                   "back: the end of the capture fails with "
                   "cudaErrorStreamCaptureUnjoined and no graph is made; "
                   "record an event on %0 after its last work and make %1 "
                   "wait on it before the capture ends",
                   {Stream, Capturing}));
      if (F.Prior.Site != NoSite)
        note(F.Prior.Site, sub("%0 joins the capture here, by waiting on an "
                               "event recorded on a capturing stream",
                               {Stream}));
      note(F.Related, sub("the last work on %0, which %1 does not wait for",
                          {Stream, Capturing}));
      return;
    case CaptureProblem::HostSync:
      if (F.Access.Stream.Kind == StreamKind::Unknown)
        warn(At, sub("'%0' waits for the whole device while %1 captures "
                     "into a CUDA graph: the runtime refuses it with "
                     "cudaErrorStreamCaptureUnsupported and invalidates the "
                     "capture; synchronise after the capture ends",
                     {Call, Capturing}));
      else
        warn(At, sub("'%0' makes the host wait for %1, which is capturing "
                     "into a CUDA graph: its work is only being recorded, "
                     "and the runtime refuses the wait with "
                     "cudaErrorStreamCaptureUnsupported (PyTorch raises it) "
                     "and invalidates the capture; read results on the host "
                     "after the capture ends, from a replay",
                     {Call, Stream}));
      noteCaptureBegin();
      return;
    case CaptureProblem::ForbiddenSync:
      warn(At, sub("'%0' makes the host wait for %1 while %2 captures into a "
                   "CUDA graph in %3, which forbids waiting for any stream: "
                   "the runtime refuses it with "
                   "cudaErrorStreamCaptureUnsupported and invalidates the "
                   "capture; wait before the capture begins or after it ends",
                   {Call, Stream, Capturing, modeName(F.Mode)}));
      noteCaptureBegin();
      return;
    case CaptureProblem::CapturedEvent:
      warn(At, sub("'%0' on event '%1', which is recorded inside the CUDA "
                   "graph capture: the record is a node of the graph, not "
                   "work that has run, and the runtime refuses the call with "
                   "cudaErrorCapturedEvent; make a stream wait on the event "
                   "instead, or query it after the capture ends",
                   {Call, Tensor}));
      note(F.Related,
           sub("'%0' is recorded here, inside the capture", {Tensor}));
      noteCaptureBegin();
      return;
    case CaptureProblem::Restricted:
      if (F.Access.Stream.Kind != StreamKind::Unknown)
        warn(At, sub("'%0' queries %1 while it captures into a CUDA graph: "
                     "the runtime refuses it with "
                     "cudaErrorStreamCaptureUnsupported and invalidates the "
                     "capture; query after the capture ends",
                     {Call, Stream}));
      else
        warn(At, sub("'%0' while %1 captures into a CUDA graph in %2, which "
                     "forbids it: the runtime refuses it with "
                     "cudaErrorStreamCaptureUnsupported and invalidates the "
                     "capture; allocate before the capture, use the "
                     "stream-ordered cudaMallocAsync/cudaFreeAsync on the "
                     "capturing stream, or capture in "
                     "cudaStreamCaptureModeRelaxed, which allows it",
                     {Call, Capturing, modeName(F.Mode)}));
      noteCaptureBegin();
      return;
    case CaptureProblem::Uncaptured:
      warn(At, sub("work on %0, which is not part of the CUDA graph capture "
                   "on %1: it is not recorded in the graph, so it runs once, "
                   "now, and a replay does not repeat it (in the global "
                   "mode, a caching-allocator block it needs is refused with "
                   "cudaErrorStreamCaptureUnsupported); fork %0 into the "
                   "capture (make it wait on an event recorded on %1 after "
                   "the capture begins) and join it back before the capture "
                   "ends, or issue the work on %1",
                   {Stream, Capturing}));
      noteStreamSetAt(F.Access, "is");
      noteCaptureBegin();
      return;
    case CaptureProblem::LegacyStream:
      warn(At, sub("work on the legacy default stream while %0 captures into "
                   "a CUDA graph: the legacy stream does not wait for a "
                   "non-blocking capturing stream, so the work is not "
                   "recorded in the graph; it runs once, now, and a replay "
                   "does not repeat it (a blocking capturing stream would "
                   "make the runtime refuse it with "
                   "cudaErrorStreamCaptureImplicit); issue the work on %0",
                   {Capturing}));
      noteStreamSetAt(F.Access, "is");
      noteCaptureBegin();
      return;
    case CaptureProblem::DefaultStreamCapture:
      warn(At, sub("CUDA graph capture begun on the legacy default stream: "
                   "CUDAGraph::capture_begin refuses it ('CUDA graphs must "
                   "be captured on a non-default stream') and "
                   "cudaStreamBeginCapture fails with "
                   "cudaErrorStreamCaptureUnsupported; capture on a side "
                   "stream (%0)",
                   {V.SideStreamCapture}));
      noteStreamSetAt(F.Access, "is");
      return;
    }
  }

  const Finding &F;
  const Vocabulary &V;
  const Function &IR;
  std::string Stream, PriorStream, Tensor;
  std::vector<Line> Lines;
  /// The call of the helper is already the warning's place.
  bool CallNoted = false;
};

} // namespace

std::string describeStream(const Function &IR, StreamDesc D) {
  std::string Name = D.Named == NoVar ? "" : "'" + IR.var(D.Named).Name + "'";
  switch (D.Kind) {
  case StreamKind::Unknown:
    return "an unknown stream";
  case StreamKind::Default:
    return "the default stream";
  case StreamKind::EntryCurrent:
    if (D.Device >= 0)
      return "the current stream of device " + std::to_string(D.Device);
    return "the caller's current stream";
  case StreamKind::Pool:
    return Name.empty() ? "a pool stream" : "pool stream " + Name;
  case StreamKind::Created:
    return Name.empty() ? "a new stream" : "new stream " + Name;
  case StreamKind::Executor:
    return Name.empty() ? "an executor's stream"
                        : "the stream of executor " + Name;
  case StreamKind::Parameter:
  case StreamKind::Other:
    return Name.empty() ? "another stream" : "stream " + Name;
  }
  llvm_unreachable("every stream kind is described");
}

std::string tensorName(const Function &IR, VarId V) {
  return V == NoVar ? "<temporary>" : IR.var(V).Name;
}

std::vector<Line> word(const Finding &F, const Vocabulary &V) {
  return Writer(F, V).run();
}

} // namespace streamsafe::report
