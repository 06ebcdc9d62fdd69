//===--- Accelerators.cpp - Accelerator-neutral spellings -----------------===//

#include "lib/model/Accelerators.h"

namespace streamsafe {

std::string cudaSpelling(llvm::StringRef Dotted) {
  // The neutral classes: on a CUDA machine a torch.Stream is a CUDA stream
  // (torch/_C/__init__.pyi: torch.cuda.Stream derives from it).
  static const std::pair<const char *, const char *> Exact[] = {
      {"torch.Stream", "torch.cuda.Stream"},
      {"torch.Event", "torch.cuda.Event"},
  };
  for (const auto &[From, To] : Exact)
    if (Dotted == From)
      return To;
  // Functions of torch.accelerator that torch.cuda has under the same name
  // and meaning (torch/accelerator/__init__.py); the rest stay unknown.
  llvm::StringRef Rest = Dotted;
  if (Rest.consume_front("torch.accelerator.") &&
      (Rest == "current_stream" || Rest == "set_stream" ||
       Rest == "synchronize"))
    return std::string(CudaModule) + "." + Rest.str();
  return Dotted.str();
}

std::optional<bool> cudaPredicate(llvm::StringRef Dotted) {
  llvm::StringRef Name = Dotted;
  if (!Name.consume_front(CudaModule) || !Name.consume_front("."))
    return std::nullopt;
  if (Name == "is_available")
    return true;
  // deepspeed/accelerator/cuda_accelerator.py: a CUDA device runs work
  // asynchronously and its streams need explicit ordering.
  if (Name == "is_synchronized_device" || Name == "resolves_data_dependency" ||
      Name == "handles_memory_backpressure" || Name == "use_host_timers")
    return false;
  return std::nullopt;
}

} // namespace streamsafe
