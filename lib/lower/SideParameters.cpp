//===--- SideParameters.cpp - When a stream parameter is a side stream ----===//

#include "lib/lower/SideParameters.h"

namespace streamsafe::lower {

namespace {

bool opposite(StreamRole A, StreamRole B) {
  return (A == StreamRole::Parameter && B == StreamRole::Current) ||
         (A == StreamRole::Current && B == StreamRole::Parameter);
}

/// The use in \p Uses that shows the parameter differs from the current
/// stream, or null.
const StreamUse *firstSideUse(llvm::ArrayRef<StreamUse> Uses) {
  for (const StreamUse &U : Uses) {
    switch (U.K) {
    case StreamUse::Enter:
      if (U.Stream == StreamRole::Parameter)
        return &U;
      break;
    case StreamUse::WaitStream:
      if (opposite(U.Stream, U.Awaited))
        return &U;
      break;
    case StreamUse::WaitEvent:
      // An event recorded on one of the two and waited on by the other,
      // before or after this wait in the text (a loop may record it later).
      if (U.Event && U.Stream != StreamRole::Other)
        for (const StreamUse &R : Uses)
          if (R.K == StreamUse::RecordEvent && R.Event == U.Event &&
              opposite(R.Stream, U.Stream))
            return &U;
      break;
    case StreamUse::RecordEvent:
      break;
    }
  }
  return nullptr;
}

} // namespace

const StreamUse *sideStreamUse(llvm::ArrayRef<StreamUse> Uses,
                               const ParameterFacts &P,
                               llvm::function_ref<bool()> GivenCurrent) {
  if (P.Defaulted || P.Rebound)
    return nullptr;
  const StreamUse *Use = firstSideUse(Uses);
  if (!Use || GivenCurrent())
    return nullptr;
  return Use;
}

} // namespace streamsafe::lower
