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

using namespace finding::capture;

void Diagnoser::reportCapture(const StreamState &S, finding::CaptureProblem P) {
  finding::GraphCapture Fi;
  Fi.Capture.Begin = S.Capture.Begin;
  Fi.Capture.Stream = T.streams().describe(S.Capture.Origin);
  Fi.Capture.Mode = S.Capture.Mode;
  Fi.Problem = std::move(P);
  Out.emplace_back(std::move(Fi));
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
    return reportCapture(S, HostSync{F.Site, std::nullopt});
  if (const auto *X = F.as<fact::EventSync>())
    return capturedEvent(F, X->Event, S, true);
  if (const auto *X = F.as<fact::EventWait>())
    return outsideEventWait(F, *X, S);
  if (const auto *X = F.as<fact::Restricted>())
    return restricted(F, *X, S);
}

void Diagnoser::captureBegin(const Fact &F, const fact::CaptureBegin &X,
                             const StreamState &S) {
  if (T.streamOf(X.Stream, S) != StreamTable::Default)
    return;
  // Reported here, with no capture in progress: this capture is the one.
  finding::GraphCapture Fi;
  Fi.Capture.Begin = F.Site;
  Fi.Capture.Stream = T.streams().describe(StreamTable::Default);
  Fi.Capture.Mode = X.Mode;
  DefaultStreamCapture P;
  P.Begin.Site = F.Site;
  P.Begin.Stream = Fi.Capture.Stream;
  if (X.Stream.K == StreamRef::Current) {
    P.Begin.OnCurrentStream = true;
    P.Begin.StreamSetAt = S.CurrentSetAt;
  }
  Fi.Problem = P;
  Out.emplace_back(std::move(Fi));
}

// Every stream forked into the capture must be joined back into the
// capturing stream before the capture ends; the tails left are the work
// it is not ordered after (on some path).
void Diagnoser::unjoinedForks(const Fact &F, const StreamState &S) {
  const CaptureState &C = S.Capture;
  for (const CaptureTail &Tail : C.Tails) {
    // Reported where the runtime fails: at the end of the capture.
    Unjoined P;
    P.End = F.Site;
    P.Forked = T.streams().describe(Tail.Stream);
    auto Fork = C.Forks.find(Tail.Stream);
    P.ForkedAt = Fork == C.Forks.end() ? NoSite : Fork->second;
    P.LastWork = Tail.Site;
    reportCapture(S, P);
  }
}

void Diagnoser::captureWork(const Fact &F, const StreamState &S) {
  const CaptureState &C = S.Capture;
  Access A = T.accessOf(F, S);
  const StreamTable &Streams = T.streams();
  if (A.Stream == StreamTable::Default) {
    // A synchronous cudaMemcpy too: the legacy stream does not wait for a
    // non-blocking capturing stream, so the copy runs now, uncaptured.
    return reportCapture(S, LegacyStream{info(A)});
  }
  if (!C.mayBeMember(A.Stream) && Streams.knownDistinct(A.Stream, C.Origin) &&
      (Streams.kind(A.Stream) == StreamKind::Pool ||
       Streams.kind(A.Stream) == StreamKind::Executor)) {
    // Only a stream known to differ from every stream of the capture (a
    // pool stream that never waited on an event of the capture) is
    // certainly outside it.
    reportCapture(S, Uncaptured{info(A)});
  }
}

void Diagnoser::captureSync(const Fact &F, const fact::StreamSync &X,
                            const StreamState &S) {
  if (X.MayNotHappen || !T.waits(X, S))
    return;
  StreamId Y = T.streamOf(X.Stream, S);
  const CaptureState &C = S.Capture;
  // The host cannot wait for work that is only being recorded. The global
  // and thread-local modes refuse a wait for any other stream too (measured
  // for a pool stream and the legacy stream), but not the wait of a
  // synchronous cudaMemcpy (also measured): its copy is reported instead.
  StreamDesc Waited = T.streams().describe(Y);
  if (C.member(Y))
    return reportCapture(S, HostSync{F.Site, Waited});
  if (X.AfterCopy || !refusesUnsafeCalls(S))
    return;
  reportCapture(S, ForbiddenSync{F.Site, Waited});
}

bool Diagnoser::refusesUnsafeCalls(const StreamState &S) const {
  return strictMode(S.Capture.Mode) && strictMode(S.CaptureModes.Mode);
}

void Diagnoser::capturedEvent(const Fact &F, VarId Event, const StreamState &S,
                              bool HostWait) {
  auto It =
      Event != NoVar ? S.Capture.Records.find(Event) : S.Capture.Records.end();
  if (It != S.Capture.Records.end() && !It->second.AnyStream)
    return reportCapture(S, CapturedEvent{F.Site, Event, It->second.At});
  // Any other event: refused only where the modes refuse every query
  // (measured for an event recorded before the capture).
  if (It == S.Capture.Records.end() && refusesUnsafeCalls(S))
    reportCapture(S, ForbiddenQuery{F.Site, std::nullopt, Event, HostWait});
}

// A stream of the capture may only wait on an event recorded in it: the
// graph cannot depend on work outside it (cudaErrorStreamCaptureIsolation,
// in every mode, measured), unless the wait is external.
void Diagnoser::outsideEventWait(const Fact &F, const fact::EventWait &X,
                                 const StreamState &S) {
  const CaptureState &C = S.Capture;
  if (X.External || X.RecordedLaterInLoop || X.Event == NoVar)
    return;
  StreamId W = T.streamOf(X.Stream, S);
  auto Ev = S.Events.find(X.Event);
  // Recorded on every path, and on no path in the capture on a stream that
  // may be in it.
  if (!C.member(W) || Ev == S.Events.end() || !Ev->second.MustRecorded ||
      Ev->second.LastRecord == NoSite || C.Records.count(X.Event))
    return;
  OutsideEventWait P{F.Site, X.Event, Ev->second.LastRecord,
                     T.streams().describe(W), std::nullopt};
  if (T.function().var(X.Event).Synthetic &&
      Ev->second.RecordedOn != StreamTable::Unknown)
    P.WaitedStream = T.streams().describe(Ev->second.RecordedOn);
  reportCapture(S, std::move(P));
}

void Diagnoser::restricted(const Fact &F, const fact::Restricted &X,
                           const StreamState &S) {
  switch (X.Call) {
  case RestrictedCall::EventQuery:
    return capturedEvent(F, X.Event, S, false);
  case RestrictedCall::StreamQuery: {
    StreamId Y = T.streamOf(X.Stream, S);
    // A capturing stream cannot be queried in any mode; any stream at all
    // where the modes refuse every query.
    if (S.Capture.member(Y))
      return reportCapture(S, Restricted{F.Site, T.streams().describe(Y)});
    if (refusesUnsafeCalls(S))
      reportCapture(
          S, ForbiddenQuery{F.Site, T.streams().describe(Y), NoVar, false});
    return;
  }
  case RestrictedCall::Allocation:
    // The relaxed mode (of the capture or the thread) allows it; an unknown
    // mode may be relaxed.
    if (refusesUnsafeCalls(S))
      reportCapture(S, Restricted{F.Site, std::nullopt});
    return;
  }
}

} // namespace streamsafe
