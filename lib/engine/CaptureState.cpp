//===--- CaptureState.cpp - Stream capture in the lattice -----------------===//
//
// Precision first: where the analysis cannot tell whether a stream joined
// or forked (an event it does not follow, a stream it cannot name), it
// assumes the join happened, so that an unjoined fork or an uncaptured
// stream is only reported when the code certainly has one on some path.
//
//===----------------------------------------------------------------------===//

#include "lib/engine/CaptureState.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace streamsafe {

void CaptureState::begin(SiteId At, StreamId O, CaptureMode M, VarId G) {
  *this = CaptureState();
  Begin = At;
  Graph = G;
  Origin = O;
  Mode = M;
  // An unknown capturing stream is in no set: nothing forks from it, and
  // nothing is reported as outside it.
  if (O != StreamTable::Unknown)
    Members = MayMembers = StreamTable::bit(O);
  else
    MayMembers = ~uint64_t(0);
}

void CaptureState::work(StreamId S, SiteId At) {
  if (S == Origin || !member(S))
    return;
  // Work on one stream runs in order: the newest stands for the older.
  llvm::erase_if(Tails, [&](const CaptureTail &T) { return T.Stream == S; });
  Tails.push_back({S, At, 0});
  sortTails();
}

void CaptureState::record(VarId Event, StreamId S, SiteId At) {
  if (Event == NoVar)
    return;
  if (S != StreamTable::Unknown && !mayBeMember(S)) {
    Records.erase(Event); // recorded outside the capture now
    return;
  }
  CaptureRecord R;
  R.At = At;
  // On a stream in the capture on some paths only, or one not named: a
  // wait on it may fork and may join anything.
  R.AnyStream = S == StreamTable::Unknown || !member(S);
  if (!R.AnyStream) {
    for (const CaptureTail &T : Tails)
      if (T.Stream == S || (T.VisibleTo & StreamTable::bit(S)))
        R.Covers.push_back(T.Site);
    llvm::sort(R.Covers);
  }
  Records[Event] = std::move(R);
}

void CaptureState::wait(VarId Event, bool Followed, StreamId W, SiteId At) {
  const bool Known = W != StreamTable::Unknown;
  auto It = Followed && Event != NoVar ? Records.find(Event) : Records.end();
  if (Followed && Event != NoVar && It == Records.end())
    return; // recorded before or outside the capture: no fork, no join
  if (It == Records.end() || It->second.AnyStream) {
    // An event not followed: W may now be in the capture, and may be
    // ordered after anything.
    if (Known)
      MayMembers |= StreamTable::bit(W);
    if (!Known || W == Origin)
      Tails.clear();
    else
      for (CaptureTail &T : Tails)
        T.VisibleTo |= StreamTable::bit(W);
    return;
  }
  const CaptureRecord &R = It->second;
  auto Covered = [&](const CaptureTail &T) {
    return std::binary_search(R.Covers.begin(), R.Covers.end(), T.Site);
  };
  if (!Known || W == Origin) {
    // The capturing stream (or perhaps it) is now ordered after them.
    llvm::erase_if(Tails, Covered);
    return;
  }
  if (!member(W)) {
    Members |= StreamTable::bit(W);
    MayMembers |= StreamTable::bit(W);
    Forks.emplace(W, At);
  }
  for (CaptureTail &T : Tails)
    if (Covered(T))
      T.VisibleTo |= StreamTable::bit(W);
}

void CaptureState::sortTails() {
  llvm::sort(Tails, [](const CaptureTail &L, const CaptureTail &R) {
    return std::make_pair(L.Stream, L.Site) < std::make_pair(R.Stream, R.Site);
  });
}

void CaptureState::forgetJoins() {
  MayMembers = ~uint64_t(0);
  Tails.clear();
  for (auto &[Event, R] : Records)
    R.AnyStream = true;
}

void CaptureState::join(const CaptureState &O) {
  if (*this == O)
    return;
  bool Same = active() && O.active() && Begin == O.Begin &&
              Origin == O.Origin && Mode == O.Mode && Graph == O.Graph;
  if (!Same) {
    // Capturing on one path and not on the other (or two different
    // captures): the analysis does not guess which.
    bool Any = Begin != NoSite || Unsure || O.Begin != NoSite || O.Unsure;
    *this = CaptureState();
    Unsure = Any;
    return;
  }
  Members &= O.Members;
  MayMembers |= O.MayMembers;
  for (const auto &[S, At] : O.Forks) {
    auto [It, New] = Forks.emplace(S, At);
    if (!New)
      It->second = std::min(It->second, At);
  }
  for (const CaptureTail &T : O.Tails) {
    auto It = llvm::find_if(Tails, [&](const CaptureTail &Mine) {
      return Mine.Stream == T.Stream && Mine.Site == T.Site;
    });
    if (It == Tails.end())
      Tails.push_back(T);
    else
      It->VisibleTo &= T.VisibleTo;
  }
  sortTails();
  // A record on either path counts: a wait on it joins what either covered.
  for (const auto &[Event, R] : O.Records) {
    auto [It, New] = Records.emplace(Event, R);
    if (New || It->second == R)
      continue;
    CaptureRecord &Mine = It->second;
    Mine.At = std::max(Mine.At, R.At);
    Mine.AnyStream |= R.AnyStream;
    for (SiteId C : R.Covers)
      if (!llvm::is_contained(Mine.Covers, C))
        Mine.Covers.push_back(C);
    llvm::sort(Mine.Covers);
  }
}

void ThreadCaptureMode::exchange(VarId Slot, CaptureMode Value, SiteId At) {
  CaptureMode Old = Mode;
  if (auto It = Kept.find(Slot); Slot != NoVar && It != Kept.end())
    Value = It->second;
  Mode = Value;
  SetAt = At;
  if (Slot != NoVar)
    Kept[Slot] = Old;
}

void ThreadCaptureMode::join(const ThreadCaptureMode &O) {
  if (Mode != O.Mode)
    Mode = CaptureMode::Unknown;
  SetAt = std::max(SetAt, O.SetAt);
  // A slot one path did not exchange keeps its own value there, which the
  // analysis may not know: unknown.
  for (auto &[Slot, M] : Kept) {
    auto It = O.Kept.find(Slot);
    if (It == O.Kept.end() || It->second != M)
      M = CaptureMode::Unknown;
  }
  for (const auto &[Slot, M] : O.Kept)
    Kept.emplace(Slot, CaptureMode::Unknown);
}

bool CaptureState::operator==(const CaptureState &O) const {
  return Begin == O.Begin && Unsure == O.Unsure && Origin == O.Origin &&
         Mode == O.Mode && Graph == O.Graph && Members == O.Members &&
         MayMembers == O.MayMembers && Forks == O.Forks && Tails == O.Tails &&
         Records == O.Records;
}

} // namespace streamsafe
