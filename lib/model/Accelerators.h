//===--- Accelerators.h - Accelerator-neutral spellings ---------*- C++ -*-===//
//
// PyTorch 2.x spells the stream API without naming CUDA too: `torch.Stream`,
// `torch.Event`, `torch.accelerator.current_stream()`, and a module that
// stands for the device's (`torch.get_device_module()`, which is torch.cuda
// on a CUDA machine). Projects add layers of their own (DeepSpeed's
// `get_accelerator()`), named by an option. The model knows each API once,
// by its CUDA spelling; these map the neutral ones onto it. C++'s neutral
// classes (c10::Stream, c10::Event, c10::StreamGuard) are rows of their
// own (ApiRows.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_ACCELERATORS_H
#define STREAMSAFE_LIB_MODEL_ACCELERATORS_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace streamsafe {

/// The dotted path a device module stands for.
constexpr const char *CudaModule = "torch.cuda";

/// The default of the DeviceModuleFunctions option: calls that return the
/// current accelerator's module: PyTorch's, and the accelerator layers of
/// DeepSpeed and ColossalAI, whose objects spell torch.cuda's stream API
/// (`get_accelerator().Stream()`, `.stream(s)`, `.current_stream()`).
constexpr const char *DefaultDeviceModuleFunctions =
    "torch.get_device_module;deepspeed.accelerator.get_accelerator;"
    "colossalai.accelerator.get_accelerator";

/// \p Dotted in the model's CUDA spelling: `torch.Stream` is
/// `torch.cuda.Stream`, `torch.accelerator.set_stream` is
/// `torch.cuda.set_stream`; any other path is returned as it is.
std::string cudaSpelling(llvm::StringRef Dotted);

/// What a predicate of the device module answers on a CUDA machine, for
/// \p Dotted in the model's CUDA spelling (`torch.cuda.is_available`: true;
/// the accelerator layers' `is_synchronized_device`,
/// `resolves_data_dependency`, `handles_memory_backpressure`,
/// `use_host_timers`: false, as DeepSpeed's CUDA accelerator answers);
/// nothing for any other name. Code that tests one takes one path only.
std::optional<bool> cudaPredicate(llvm::StringRef Dotted);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_ACCELERATORS_H
