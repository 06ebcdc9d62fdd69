//===--- Collectives.cpp - Where a collective runs, and its facts ---------===//

#include "lib/lower/Collectives.h"

namespace streamsafe::lower {

LoweredCollective lowerCollective(const CollectiveCall &C) {
  LoweredCollective L;
  // An asynchronous call whose handle is followed, and a functional one,
  // run on the group's stream; one handed on is ordered on the current
  // stream.
  bool WantsGroup =
      (C.Mode == CollectiveMode::Async && C.Use != WorkUse::HandedOn) ||
      C.Mode == CollectiveMode::Functional;
  bool OnGroup = WantsGroup && C.Group.K != StreamRef::Unknown;
  if (C.Mode == CollectiveMode::Unknown || (WantsGroup && !OnGroup))
    L.On = StreamRef::unknown();
  else if (OnGroup)
    L.On = C.Group;
  // The functional result waits wherever it is first used: not followed.
  L.Handle = OnGroup && C.Mode == CollectiveMode::Async;
  if (OnGroup) {
    L.Steps.push_back(
        {C.AtCall, SiteKind::EventDecl, fact::BindEvent{C.Ready, true}});
    L.Steps.push_back({C.AtCall, SiteKind::EventRecord,
                       fact::EventRecord{C.Ready, StreamRef::current()}});
    L.Steps.push_back(
        {C.AtCall, SiteKind::EventWait, fact::EventWait{C.Ready, L.On, false}});
  }
  auto Touch = [&](const SitedTensor &T, bool Write) {
    L.Steps.push_back({T.At, SiteKind::Access,
                       fact::Access{Write, T.Tensor, L.On, /*Async=*/false,
                                    /*Copy=*/false}});
    if (OnGroup)
      L.Steps.push_back(
          {T.At, SiteKind::Other, fact::RecordStream{T.Tensor, L.On}});
  };
  for (const SitedTensor &T : C.Reads)
    Touch(T, /*Write=*/false);
  if (C.Mode != CollectiveMode::Functional)
    for (const SitedTensor &T : C.Writes)
      Touch(T, /*Write=*/true);
  return L;
}

} // namespace streamsafe::lower
