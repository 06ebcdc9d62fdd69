//===--- StreamTable.cpp - Streams as symbols -----------------------------===//

#include "lib/engine/StreamTable.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace streamsafe {

StreamTable::StreamTable() {
  Syms.resize(3);
  Syms[Default].Kind = StreamKind::Default;
  Syms[EntryCurrent].Kind = StreamKind::EntryCurrent;
}

StreamId StreamTable::get(StreamKind Kind, uint64_t Key) {
  if (Kind == StreamKind::Unknown)
    return Unknown;
  if (Kind == StreamKind::Default)
    return Default;
  if (Kind == StreamKind::EntryCurrent)
    return EntryCurrent;
  auto It = ByKey.find(Key);
  if (It != ByKey.end())
    return It->second;
  if (Syms.size() >= MaxStreams)
    return Unknown;
  Syms.push_back({Kind, NoVar});
  StreamId Id = static_cast<StreamId>(Syms.size() - 1);
  ByKey[Key] = Id;
  return Id;
}

StreamId StreamTable::deviceCurrent(int8_t Device) {
  uint64_t Key = keyOf(KeySpace::Device, uint8_t(Device));
  auto It = ByKey.find(Key);
  if (It != ByKey.end())
    return It->second;
  if (Syms.size() >= MaxStreams)
    return Unknown;
  Syms.push_back({StreamKind::EntryCurrent, NoVar, Device});
  StreamId Id = static_cast<StreamId>(Syms.size() - 1);
  ByKey[Key] = Id;
  return Id;
}

void StreamTable::nameBy(StreamId Id, VarId Var) {
  if (Id > EntryCurrent && Syms[Id].Named == NoVar)
    Syms[Id].Named = Var;
}

uint64_t StreamTable::mayBe(StreamId Id) const {
  uint64_t M = 0;
  for (StreamId S = 0; S < Syms.size() && S < MaxStreams; ++S)
    if (S == Id || !knownDistinct(S, Id))
      M |= bit(S);
  return M;
}

uint64_t StreamTable::entryCurrents() const {
  uint64_t M = 0;
  for (StreamId S = 0; S < Syms.size() && S < MaxStreams; ++S)
    if (Syms[S].Kind == StreamKind::EntryCurrent)
      M |= bit(S);
  return M;
}

void StreamTable::orderedApart(VarId A, VarId B, SiteId At) {
  if (A == B)
    return;
  auto [Lo, Hi] = std::minmax(A, B);
  if (llvm::none_of(Apart, [&, Lo = Lo, Hi = Hi](const ApartPair &P) {
        return P.A == Lo && P.B == Hi;
      }))
    Apart.push_back({Lo, Hi, At});
}

const StreamTable::ApartPair *StreamTable::apart(StreamId A, StreamId B) const {
  if (A == B || A >= Syms.size() || B >= Syms.size() ||
      !isSideStream(Syms[A].Kind) || !isSideStream(Syms[B].Kind))
    return nullptr;
  auto [Lo, Hi] = std::minmax(Syms[A].Named, Syms[B].Named);
  for (const ApartPair &P : Apart)
    if (P.A == Lo && P.B == Hi)
      return &P;
  return nullptr;
}

SiteId StreamTable::apartAt(StreamId A, StreamId B) const {
  const ApartPair *P = apart(A, B);
  return P ? P->At : NoSite;
}

bool StreamTable::knownDistinct(StreamId A, StreamId B) const {
  if (A == B || A == Unknown || B == Unknown)
    return false;
  // Each device has streams of its own: the current streams of two
  // different devices differ.
  if (Syms[A].Device >= 0 && Syms[B].Device >= 0 &&
      Syms[A].Device != Syms[B].Device)
    return true;
  // A stream fetched from the pool (or created) in this function differs from
  // every other stream we can name (the pool recycles streams, but code must
  // not rely on that), and so does the stream an executor's worker thread bound
  // for itself. A member (attribute, global) that only ever holds fresh
  // streams differs from the caller's current stream, the default stream and
  // every other such member, but may be what a parameter or an unknown call
  // hands over. A parameter the function uses as a side stream, or a local
  // it so uses that unread code gave it, differs from the caller's current
  // stream only. Anything else may alias: a parameter
  // may be the current stream, the caller's current stream may be the
  // default stream.
  // A process group's internal stream is no stream the code can name
  // otherwise; two groups' may be one (two names for one group).
  bool CollA = Syms[A].Kind == StreamKind::Collective;
  bool CollB = Syms[B].Kind == StreamKind::Collective;
  if (CollA || CollB)
    return !(CollA && CollB);
  auto Fresh = [&](StreamId S) {
    StreamKind K = Syms[S].Kind;
    return K == StreamKind::Pool || K == StreamKind::Created ||
           K == StreamKind::Executor;
  };
  if (Fresh(A) || Fresh(B))
    return true;
  // Every caller the project shows runs the function under a side stream.
  if (Syms[EntryCurrent].ProvenAt != NoSite &&
      ((A == EntryCurrent && B == Default) ||
       (A == Default && B == EntryCurrent)))
    return true;
  auto Held = [&](StreamId S) { return isHeldFresh(Syms[S].Kind); };
  auto Entry = [&](StreamId S) {
    return Syms[S].Kind == StreamKind::EntryCurrent;
  };
  auto Side = [&](StreamId S) { return isSideStream(Syms[S].Kind); };
  // Two side streams the function orders one against the other.
  if (apart(A, B))
    return true;
  auto Pair = [&](StreamId X, StreamId Y) {
    return (Held(X) && (Held(Y) || Entry(Y) || Y == Default)) ||
           (Side(X) && Entry(Y));
  };
  return Pair(A, B) || Pair(B, A);
}

} // namespace streamsafe
