//===--- DiagnoseCapture.cpp - The rules of CUDA graph capture ------------===//
//
// Asked about each fact while a capture is in progress on every path (and
// about each capture_begin): which rule of stream capture the fact breaks.
// What the runtime does in each case is on docs/checks/graph-capture.md;
// the GPU suite (integration/cases/graph_*) shows it on a device.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Diagnoser.h"

namespace streamsafe {

Finding Diagnoser::captureFinding(CaptureProblem P, const Fact &F,
                                  const StreamState &S) const {
  Finding Fi;
  Fi.Kind = FindingKind::GraphCapture;
  Fi.Capture = P;
  Fi.Access.Site = F.Site;
  Fi.CaptureBegin = S.Capture.Begin;
  Fi.Mode = S.Capture.Mode;
  Fi.Prior.Stream = T.streams().describe(S.Capture.Origin);
  return Fi;
}

void Diagnoser::capture(const Fact &F, const StreamState &S) {
  if (const auto *X = F.as<fact::CaptureBegin>())
    return captureBegin(F, *X, S);
  const CaptureState &C = S.Capture;
  if (!C.active())
    return;
  if (F.as<fact::CaptureEnd>())
    return unjoinedForks(F, S);
  if (T.isDeviceWork(F, S))
    return captureWork(F, S);
  if (const auto *X = F.as<fact::StreamSync>())
    return captureSync(F, *X, S);
  if (F.as<fact::DeviceSync>())
    return Out.push_back(captureFinding(CaptureProblem::HostSync, F, S));
  if (const auto *X = F.as<fact::EventSync>())
    return capturedEvent(F, X->Event, S);
  if (const auto *X = F.as<fact::Restricted>())
    return restricted(F, *X, S);
}

void Diagnoser::captureBegin(const Fact &F, const fact::CaptureBegin &X,
                             const StreamState &S) {
  if (T.streamOf(X.Stream, S) != StreamTable::Default)
    return;
  Finding Fi = captureFinding(CaptureProblem::DefaultStreamCapture, F, S);
  Fi.CaptureBegin = F.Site;
  Fi.Mode = X.Mode;
  Fi.Prior.Stream = Fi.Access.Stream =
      T.streams().describe(StreamTable::Default);
  if (X.Stream.K == StreamRef::Current) {
    Fi.Access.OnCurrentStream = true;
    Fi.Access.StreamSetAt = S.CurrentSetAt;
  }
  Out.push_back(Fi);
}

// Every stream forked into the capture must be joined back into the
// capturing stream before the capture ends; the tails left are the work
// it is not ordered after (on some path).
void Diagnoser::unjoinedForks(const Fact &F, const StreamState &S) {
  const CaptureState &C = S.Capture;
  for (const CaptureTail &Tail : C.Tails) {
    // Reported where the runtime fails: at the end of the capture.
    Finding Fi = captureFinding(CaptureProblem::Unjoined, F, S);
    Fi.Access.Stream = T.streams().describe(Tail.Stream);
    auto Fork = C.Forks.find(Tail.Stream);
    Fi.Prior.Site = Fork == C.Forks.end() ? NoSite : Fork->second;
    Fi.Related = Tail.Site;
    Out.push_back(Fi);
  }
}

void Diagnoser::captureWork(const Fact &F, const StreamState &S) {
  const CaptureState &C = S.Capture;
  Access A = T.accessOf(F, S);
  const StreamTable &Streams = T.streams();
  CaptureProblem P;
  if (A.Stream == StreamTable::Default) {
    // A synchronous cudaMemcpy too: the legacy stream does not wait for a
    // non-blocking capturing stream, so the copy runs now, uncaptured.
    P = CaptureProblem::LegacyStream;
  } else if (!C.mayBeMember(A.Stream) &&
             Streams.knownDistinct(A.Stream, C.Origin) &&
             (Streams.kind(A.Stream) == StreamKind::Pool ||
              Streams.kind(A.Stream) == StreamKind::Executor)) {
    // Only a stream known to differ from every stream of the capture (a
    // pool stream that never waited on an event of the capture) is
    // certainly outside it.
    P = CaptureProblem::Uncaptured;
  } else {
    return;
  }
  Finding Fi = captureFinding(P, F, S);
  Fi.Access = info(A);
  Out.push_back(Fi);
}

void Diagnoser::captureSync(const Fact &F, const fact::StreamSync &X,
                            const StreamState &S) {
  if (X.IfHostInvolved) {
    auto IsHost = [&](const TensorRef &R) {
      std::optional<StorageId> Id = T.storageOf(R, S);
      const TensorState *TS = Id ? S.Tensors.lookup(*Id) : nullptr;
      return TS && TS->Host;
    };
    if (!IsHost(X.A) && !IsHost(X.B))
      return;
  }
  StreamId Y = T.streamOf(X.Stream, S);
  const CaptureState &C = S.Capture;
  // The host cannot wait for work that is only being recorded. The global
  // and thread-local modes refuse a wait for any other stream too (measured
  // for a pool stream and the legacy stream), but not the wait of a
  // synchronous cudaMemcpy (also measured): its copy is reported instead.
  CaptureProblem P = CaptureProblem::HostSync;
  if (!C.member(Y)) {
    if (X.AfterCopy ||
        (C.Mode != CaptureMode::Global && C.Mode != CaptureMode::ThreadLocal))
      return;
    P = CaptureProblem::ForbiddenSync;
  }
  Finding Fi = captureFinding(P, F, S);
  Fi.Access.Stream = T.streams().describe(Y);
  Out.push_back(Fi);
}

void Diagnoser::capturedEvent(const Fact &F, VarId Event,
                              const StreamState &S) {
  auto It =
      Event != NoVar ? S.Capture.Records.find(Event) : S.Capture.Records.end();
  if (It == S.Capture.Records.end() || It->second.AnyStream)
    return;
  Finding Fi = captureFinding(CaptureProblem::CapturedEvent, F, S);
  Fi.Tensor = Event;
  Fi.Related = It->second.At;
  Out.push_back(Fi);
}

void Diagnoser::restricted(const Fact &F, const fact::Restricted &X,
                           const StreamState &S) {
  switch (X.Call) {
  case RestrictedCall::EventQuery:
    return capturedEvent(F, X.Event, S);
  case RestrictedCall::StreamQuery: {
    StreamId Y = T.streamOf(X.Stream, S);
    if (!S.Capture.member(Y))
      return;
    Finding Fi = captureFinding(CaptureProblem::Restricted, F, S);
    Fi.Access.Stream = T.streams().describe(Y);
    return Out.push_back(Fi);
  }
  case RestrictedCall::Allocation:
    // Relaxed mode allows it; an unknown mode may be relaxed.
    if (S.Capture.Mode == CaptureMode::Global ||
        S.Capture.Mode == CaptureMode::ThreadLocal)
      Out.push_back(captureFinding(CaptureProblem::Restricted, F, S));
    return;
  }
}

} // namespace streamsafe
