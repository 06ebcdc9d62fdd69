//===--- KeptTensors.cpp - When a stored tensor is kept for the users -----===//

#include "lib/lower/KeptTensors.h"

namespace streamsafe::lower {

bool keptForUsers(const KeptEvidence &E) {
  return !E.ClassRecords && E.UsedOutsideSections && !E.ReturnedByAMethod &&
         !E.WaitBeforeStore && !E.ReplacedAfter;
}

} // namespace streamsafe::lower
