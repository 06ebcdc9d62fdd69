//===--- HeldStreams.cpp - Stream variables that only hold fresh streams --===//

#include "lib/lower/HeldStreams.h"

namespace streamsafe::lower {

std::optional<unsigned> freshProof(llvm::ArrayRef<HeldStreamWrite> Writes) {
  std::optional<unsigned> First, FirstAtConstruction;
  for (unsigned I = 0; I < Writes.size(); ++I) {
    const HeldStreamWrite &W = Writes[I];
    if (W.Given == StreamGiven::Other)
      return std::nullopt;
    if (W.Given != StreamGiven::Fresh)
      continue;
    if (!First)
      First = I;
    if (W.AtConstruction && !FirstAtConstruction)
      FirstAtConstruction = I;
  }
  return FirstAtConstruction ? FirstAtConstruction : First;
}

} // namespace streamsafe::lower
