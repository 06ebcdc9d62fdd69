//===--- ApiStreams.cpp - Streams and guards ------------------------------===//
//
// API_MODEL.md §2 and §3. at::cuda:: names are a using-directive of
// c10::cuda::, so only the c10 spelling appears here.
//
//===----------------------------------------------------------------------===//

#include "lib/ApiModel.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe {

ApiEffect classifyStreamsApi(llvm::StringRef Name) {
  static const llvm::StringMap<ApiEffect> Table = {
      {"c10::cuda::getStreamFromPool", ApiEffect::StreamFromPool},
      {"c10::cuda::getDefaultCUDAStream", ApiEffect::DefaultStream},
      {"c10::cuda::getCurrentCUDAStream", ApiEffect::CurrentStream},
      {"c10::cuda::getStreamFromExternal", ApiEffect::ExternalStream},
      {"c10::cuda::setCurrentCUDAStream", ApiEffect::SetCurrentStream},
      {"c10::cuda::CUDAStream::unwrap", ApiEffect::StreamIdentity},
      {"c10::cuda::CUDAStream::stream", ApiEffect::StreamIdentity},
      {"c10::cuda::CUDAStream::operator CUstream_st *",
       ApiEffect::StreamIdentity},
      {"c10::cuda::CUDAStream::operator Stream", ApiEffect::StreamIdentity},
      {"c10::cuda::CUDAStreamGuard::reset_stream", ApiEffect::GuardResetStream},
      {"c10::cuda::OptionalCUDAStreamGuard::reset_stream",
       ApiEffect::GuardResetStream},
      {"c10::cuda::OptionalCUDAStreamGuard::reset", ApiEffect::GuardReset},
      {"c10::StreamGuard::reset_stream", ApiEffect::GuardResetStream},
      {"c10::OptionalStreamGuard::reset_stream", ApiEffect::GuardResetStream},
      {"c10::OptionalStreamGuard::reset", ApiEffect::GuardReset},
  };
  return lookupEffect(Table, Name);
}

} // namespace streamsafe
