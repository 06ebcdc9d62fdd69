//===--- UnknownCode.cpp - What code the analysis does not see does -------===//

#include "lib/lower/UnknownCode.h"

namespace streamsafe::lower {

UnknownEffects unknownCallEffects(UnknownCallee C) {
  UnknownEffects E;
  switch (C) {
  case UnknownCallee::Program:
    E.ReadsTensors = E.KeepsTensors = E.MayUseStreams = true;
    E.MayWaitForThreads = true;
    break;
  case UnknownCallee::DeviceOp:
    E.ReadsTensors = E.KeepsTensors = E.MayUseStreams = true;
    E.MayWaitForThreads = E.ReadsInStreamOrder = true;
    break;
  case UnknownCallee::Keeps:
    E.KeepsTensors = true;
    break;
  case UnknownCallee::Inspects:
    break;
  }
  return E;
}

bool namesDeviceOp(llvm::StringRef Name) {
  return Name.size() > 5 && Name.ends_with("_cuda");
}

} // namespace streamsafe::lower
