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
  // The runtime refuses a capture on the legacy stream (the Diagnoser says
  // so): nothing is captured after it.
  if (Origin == StreamTable::Default) {
    S.Capture = CaptureState();
    return;
  }
  S.Capture.begin(F.Site, Origin, X.Mode);
}

void Transfer::apply(const Fact &, const fact::CaptureEnd &, StreamState &S) {
  S.Capture = CaptureState();
}

void Transfer::apply(const Fact &, const fact::Restricted &, StreamState &) {
  // Changes nothing the analysis follows; the Diagnoser checks it during a
  // capture.
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
    return C.record(X->Event, streamOf(X->Stream, S), F.Site);
  if (const auto *X = F.as<fact::EventWait>()) {
    bool Followed = X->Event != NoVar && S.Events.count(X->Event);
    return C.wait(X->Event, Followed, streamOf(X->Stream, S), F.Site);
  }
  // Code the analysis does not see may record or wait on the event.
  if (F.as<fact::EscapeEvent>())
    C.forgetJoins();
}

} // namespace streamsafe
