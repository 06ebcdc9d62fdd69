//===--- ApiSync.cpp - Host synchronisation and raw copies ----------------===//
//
// API_MODEL.md §2 (host-synchronisation helpers) and §6. torch::cuda::
// synchronize and device_synchronize wait for one device; the model has one
// device, so they complete everything.
//
//===----------------------------------------------------------------------===//

#include "lib/ApiModel.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe {

ApiEffect classifySyncApi(llvm::StringRef Name) {
  static const llvm::StringMap<ApiEffect> Table = {
      {"c10::cuda::CUDAStream::synchronize", ApiEffect::StreamSynchronize},
      {"c10::Stream::synchronize", ApiEffect::StreamSynchronize},
      {"c10::cuda::stream_synchronize", ApiEffect::StreamSyncFunction},
      {"cudaStreamSynchronize", ApiEffect::StreamSyncFunction},
      {"cudaDeviceSynchronize", ApiEffect::DeviceSynchronize},
      {"c10::cuda::device_synchronize", ApiEffect::DeviceSynchronize},
      {"torch::cuda::synchronize", ApiEffect::DeviceSynchronize},
      {"cudaMemcpyAsync", ApiEffect::MemcpyAsync},
      {"cudaMemcpy2DAsync", ApiEffect::MemcpyAsync},
      {"cudaMemsetAsync", ApiEffect::MemsetAsync},
      {"cudaMemcpy", ApiEffect::MemcpySync},
      {"cudaMemset", ApiEffect::MemcpySync},
      {"c10::cuda::memcpy_and_sync", ApiEffect::MemcpyAndSync},
      {"std::memcpy", ApiEffect::HostMemcpy},
      {"memcpy", ApiEffect::HostMemcpy},
  };
  return lookupEffect(Table, Name);
}

} // namespace streamsafe
