//===--- Collectives.cpp - Where a collective runs, and its facts ---------===//

#include "lib/lower/Collectives.h"

namespace streamsafe::lower {

LoweredCollective lowerCollective(const CollectiveCall &C) {
  LoweredCollective L;
  bool OnGroup = false;
  switch (C.Mode) {
  case CollectiveMode::Sync:
    break;
  case CollectiveMode::Unknown:
    L.On = StreamRef::unknown();
    break;
  case CollectiveMode::Async:
    if (C.Use == WorkUse::HandedOn)
      break;
    if (C.Group.K == StreamRef::Unknown) {
      L.On = StreamRef::unknown();
      break;
    }
    OnGroup = L.Handle = true;
    L.On = C.Group;
    break;
  case CollectiveMode::Functional:
    // Its input is read on the group's stream and held by the work; the
    // result waits wherever it is first used, which is not followed.
    if (C.Group.K == StreamRef::Unknown) {
      L.On = StreamRef::unknown();
      break;
    }
    OnGroup = true;
    L.On = C.Group;
    break;
  }
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
