//===--- ApiEvents.cpp - Events -------------------------------------------===//
//
// API_MODEL.md §4. CUDAEvent is at::cuda::CUDAEvent in 1.13 and
// c10::cuda::CUDAEvent in 2.x; both spellings are listed. A wait on an event
// that was never recorded is a silent no-op in every one of these APIs.
//
//===----------------------------------------------------------------------===//

#include "lib/ApiModel.h"
#include "llvm/ADT/StringMap.h"

namespace streamsafe {

ApiEffect classifyEventsApi(llvm::StringRef Name) {
  static const llvm::StringMap<ApiEffect> Table = {
      {"at::cuda::CUDAEvent::block", ApiEffect::EventBlock},
      {"c10::cuda::CUDAEvent::block", ApiEffect::EventBlock},
      {"c10::Event::block", ApiEffect::EventBlock},
      {"at::cuda::CUDAEvent::synchronize", ApiEffect::EventSynchronize},
      {"c10::cuda::CUDAEvent::synchronize", ApiEffect::EventSynchronize},
      {"c10::Event::synchronize", ApiEffect::EventSynchronize},
      {"c10::Stream::wait", ApiEffect::StreamWaitEvent},
      {"cudaEventRecord", ApiEffect::RawEventRecord},
      {"cudaEventRecordWithFlags", ApiEffect::RawEventRecord},
      {"cudaStreamWaitEvent", ApiEffect::RawStreamWaitEvent},
      {"cudaEventSynchronize", ApiEffect::RawEventSynchronize},
  };
  if (ApiEffect E = lookupEffect(Table, Name); E != ApiEffect::None)
    return E;
  // record() records on the current stream; record(s) and recordOnce(s) on s.
  // The overload is told apart by the argument count at the call.
  if (Name == "at::cuda::CUDAEvent::record" ||
      Name == "c10::cuda::CUDAEvent::record" || Name == "c10::Event::record" ||
      Name == "at::cuda::CUDAEvent::recordOnce" ||
      Name == "c10::cuda::CUDAEvent::recordOnce" ||
      Name == "c10::Event::recordOnce")
    return ApiEffect::EventRecordOn;
  return ApiEffect::None;
}

} // namespace streamsafe
