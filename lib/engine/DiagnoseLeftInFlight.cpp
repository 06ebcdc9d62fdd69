//===--- DiagnoseLeftInFlight.cpp - Writes the caller cannot wait for -----===//
//
// A function that writes a tensor its caller holds (a parameter, an element
// of its object's dict or list) on a stream of its own, and returns with
// the write in flight, leaves the caller to use the tensor on its current
// stream before the write is done, unless the caller can wait for that
// stream. It cannot when the stream is one the function made (a pool
// stream), or an object's that no code of its class ever waits for (the
// front end's Variable::NeverJoined). An event the function records on the
// stream hands the ordering on (to whoever waits on it): not judged.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/Diagnoser.h"

namespace streamsafe {

bool Diagnoser::callerCannotWait(StreamId Stream) const {
  const StreamTable &Streams = T.streams();
  if (!Streams.knownDistinct(Stream, StreamTable::EntryCurrent))
    return false;
  // Some event of the function is recorded there: its users may wait.
  if (T.anyRecordStreams() & StreamTable::bit(Stream))
    return false;
  StreamDesc D = Streams.describe(Stream);
  if (D.Kind == StreamKind::Pool || D.Kind == StreamKind::Created)
    return true;
  return isHeldFresh(D.Kind) && D.Named != NoVar &&
         T.function().var(D.Named).NeverJoined;
}

// A race reported at the write, or with the write as its earlier access
// (a later use in the function that did not wait for it), already tells
// its story.
static bool reportedAt(const std::vector<Finding> &Out, SiteId Write) {
  return llvm::any_of(Out, [&](const Finding &F) {
    const auto *X = std::get_if<finding::UnsynchronizedAccess>(&F.Details);
    return X && (X->Access.Site == Write || X->Prior.Site == Write);
  });
}

void Diagnoser::leftForCaller(const StreamState &S, SiteId Exit) {
  // A stream still current at the exit is the caller's to deal with (a
  // binder that leaves it set): its work is ordered before the caller's.
  S.Tensors.forEachWhere(
      [](const PendingSummary &Sum) { return Sum.Pending; },
      [&](StorageId Id, const TensorState &Held) {
        if (!Held.Held || (Held.Undefined && !Held.Left) || Held.Host)
          return;
        for (const Access &W : Held.Writes) {
          // (A write of a helper run in place: the helper's own analysis
          // judges what it leaves for its callers.)
          if (W.Mode == AccessMode::EntryReady || W.Via != NoSite ||
              W.visibleTo(StreamTable::EntryCurrent) || W.Stream == S.Current ||
              !callerCannotWait(W.Stream) || reportedAt(Out, W.Site) ||
              !LeftWrites.insert(W.Site).second)
            continue;
          finding::UnsynchronizedAccess Fi;
          VarId Owner = T.storage(Held.Left ? Held.FreedFrom : Id).Named;
          Fi.Tensor = Fi.Storage = Owner;
          Access Use;
          Use.Site = Exit;
          Use.Stream = StreamTable::EntryCurrent;
          Fi.Access = info(Use);
          Fi.Prior = info(W);
          Fi.LeftForCaller = true;
          Out.emplace_back(std::move(Fi));
          // The path out it is left on (a flag that chose the stream).
          Out.back().Path.assign(S.Assumed.begin(), S.Assumed.end());
        }
      });
}

} // namespace streamsafe
