//===--- EdgeConditions.cpp - What taking a branch edge tells -------------===//

#include "lib/engine/EdgeConditions.h"
#include "lib/engine/Transfer.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>

namespace streamsafe {

/// The condition of the edge from \p P to \p To, if one edge leads there.
EdgeCondition edgeCondition(const Block &P, unsigned To) {
  EdgeCondition Found;
  unsigned Edges = 0;
  for (unsigned I = 0; I < P.Succs.size(); ++I)
    if (P.Succs[I] == To) {
      ++Edges;
      if (I < P.SuccConds.size())
        Found = P.SuccConds[I];
    }
  return Edges == 1 ? Found : EdgeCondition();
}

/// Whether a test the state decides (Assumption::Test, not Remembered)
/// may hold in \p S: a variable that holds a stream or a recorded event is
/// not None, and two streams known to differ are not one.
bool stateAllows(const StreamState &S, const Assumption &C, Transfer &T) {
  const StreamTable &Streams = T.streams();
  auto StreamOf = [&](VarId V) { return T.streamOf(StreamRef::var(V), S); };
  switch (C.On) {
  case Assumption::Test::Remembered:
    return true;
  case Assumption::Test::StreamIsNone: {
    bool None =
        std::binary_search(S.NoneStreams.begin(), S.NoneStreams.end(), C.Var);
    return C.Value ? None || StreamOf(C.Var) == StreamTable::Unknown : !None;
  }
  case Assumption::Test::EventIsNone: {
    auto It = S.Events.find(C.Var);
    return !C.Value || It == S.Events.end() || !It->second.MustRecorded;
  }
  case Assumption::Test::SameStream: {
    StreamId A = StreamOf(C.Var), B = StreamOf(C.Other);
    if (A == StreamTable::Unknown || B == StreamTable::Unknown)
      return true;
    return C.Value ? !Streams.knownDistinct(A, B) : A != B;
  }
  }
  return true;
}

/// Adds what edge condition \p C says to \p S; false when \p S contradicts
/// it (the edge is never taken from there).
bool assume(StreamState &S, Assumption C, Transfer &T,
            const EdgeCondition &Edge, unsigned &BoundHits) {
  if (C.On != Assumption::Test::Remembered)
    return stateAllows(S, C, T);
  if (C.Var == NoVar)
    return true;
  // A test the state decides here (a stream is never None) tells nothing
  // the path depends on: not remembered, so no note names it and it keeps
  // no states apart.
  bool Decided = C.At != NoSite && llvm::any_of(Edge, [&](Assumption B) {
                   if (B.On == Assumption::Test::Remembered || B.At != C.At)
                     return false;
                   B.Value = !B.Value;
                   return !stateAllows(S, B, T);
                 });
  auto It = llvm::lower_bound(
      S.Assumed, C,
      [](const Assumption &A, const Assumption &B) { return A.Var < B.Var; });
  if (It != S.Assumed.end() && It->Var == C.Var)
    return It->Value == C.Value;
  if (!Decided &&
      (S.Assumed.size() < MaxAssumptions ||
       (C.PerIteration && S.Assumed.size() < MaxAssumptions + MaxPerIteration)))
    S.Assumed.insert(It, C);
  else if (!Decided)
    ++BoundHits;
  return true;
}

} // namespace streamsafe
