//===--- TransferCapture.cpp - CUDA graph capture -------------------------===//
//
// What a capture does to the state (CaptureState.h): where it begins and
// ends, which streams fork into it and are joined back. Work, event
// records and waits change the capture as a side effect of what they do to
// tensors and events; followCapture() sees them before their own transfer
// function runs. docs/api-model.md, section 9.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Transfer.h"

namespace streamsafe {

void Transfer::apply(const Fact &F, const fact::CaptureBegin &X,
                     StreamState &S) {
  StreamId Origin = streamOf(X.Stream, S);
  endCapturedTensors(S); // a capture begun again before it ended
  // The runtime refuses a capture on the legacy stream (the Diagnoser says
  // so): nothing is captured after it.
  if (Origin == StreamTable::Default) {
    S.Capture = CaptureState();
    return;
  }
  S.Capture.begin(F.Site, Origin, X.Mode, X.Graph);
  if (S.Capture.active())
    beginCapturedTensors(S);
}

void Transfer::apply(const Fact &, const fact::CaptureEnd &X, StreamState &S) {
  VarId G = X.Graph != NoVar ? X.Graph : S.Capture.Graph;
  if (S.Uncaptured && G != NoVar)
    S.Graphs[G] = capturedWork(
        S.Tensors, G, [&](StorageId Id) { return Storages[Id].Named; });
  else if (G != NoVar)
    S.Graphs.erase(G); // recorded what the analysis did not follow
  endCapturedTensors(S);
  S.Capture = CaptureState();
}

void Transfer::apply(const Fact &F, const fact::GraphReplay &X,
                     StreamState &S) {
  auto It = S.Graphs.find(X.Graph);
  if (It == S.Graphs.end())
    return; // a graph captured elsewhere: its work is not known
  Access Replay = accessOf(F, S);
  for (const CapturedAccess &C : It->second) {
    const TensorState *Found = S.Tensors.lookup(C.Storage);
    if (!Found)
      continue; // freed since: the replay reuses the graph's own memory
    Access A = Replay;
    A.Mode = C.Mode;
    A.CapturedAt = C.Site;
    A.Graph = C.Graph;
    enqueue(C.Storage, *Found, A, S);
  }
}

void Transfer::apply(const Fact &, const fact::GraphInstantiate &X,
                     StreamState &S) {
  auto It = S.Graphs.find(X.Graph);
  if (It == S.Graphs.end()) {
    S.Graphs.erase(X.Exec);
    return;
  }
  GraphWork W = It->second;
  S.Graphs[X.Exec] = std::move(W);
}

bool Transfer::runsNow(const Fact &F, const StreamState &S) {
  if (!S.Uncaptured)
    return false;
  // A stream certainly outside the capture runs its work now.
  auto Outside = [&](StreamId Y) {
    return Y != StreamTable::Unknown && !S.Capture.mayBeMember(Y);
  };
  if (const auto *X = F.as<fact::Spawn>())
    return !X->InPlace; // another thread is not captured
  // Host code and host waits happen now.
  if (F.as<fact::HostAccess>() || F.as<fact::StreamSync>() ||
      F.as<fact::DeviceSync>() || F.as<fact::EventSync>())
    return true;
  if (const auto *X = F.as<fact::EventRecord>())
    return Outside(streamOf(X->Stream, S));
  if (const auto *X = F.as<fact::EventWait>())
    return Outside(streamOf(X->Stream, S));
  if (F.as<fact::Access>() || F.as<fact::Allocate>())
    return !isDeviceWork(F, S) || Outside(accessOf(F, S).Stream);
  return false;
}

void Transfer::apply(const Fact &, const fact::Restricted &, StreamState &) {
  // Changes nothing the analysis follows; the Diagnoser checks it during a
  // capture.
}

void Transfer::apply(const Fact &F, const fact::CaptureModeExchange &X,
                     StreamState &S) {
  S.CaptureModes.exchange(X.Slot, X.Mode, F.Site);
}

bool Transfer::isDeviceWork(const Fact &F, const StreamState &S) {
  if (const auto *X = F.as<fact::Allocate>())
    return !X->Host;
  const auto *X = F.as<fact::Access>();
  if (!X)
    return false;
  // An op on a host tensor runs in host code; only a non_blocking copy of
  // it is enqueued on a stream.
  std::optional<StorageId> Id = storageOf(X->Tensor, S);
  const TensorState *T = Id ? S.Tensors.lookup(*Id) : nullptr;
  return !T || !T->Host || (X->Copy && X->Async);
}

void Transfer::followCapture(const Fact &F, StreamState &S) {
  CaptureState &C = S.Capture;
  if (isDeviceWork(F, S))
    return C.work(accessOf(F, S).Stream, F.Site);
  if (const auto *X = F.as<fact::EventRecord>())
    return X->Event == NoVar
               ? void() // handed on as it is made
               : C.record(X->Event, streamOf(X->Stream, S), F.Site);
  if (const auto *X = F.as<fact::EventWait>()) {
    bool Followed = X->Event != NoVar && S.Events.count(X->Event);
    return C.wait(X->Event, Followed, streamOf(X->Stream, S), F.Site);
  }
  // Code the analysis does not see may record or wait on the event.
  if (F.as<fact::EscapeEvent>())
    C.forgetJoins();
}

} // namespace streamsafe
