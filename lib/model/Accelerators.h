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
#include <string>

namespace streamsafe {

/// The dotted path a device module stands for.
constexpr const char *CudaModule = "torch.cuda";

/// The default of the DeviceModuleFunctions option: calls that return the
/// current accelerator's module.
constexpr const char *DefaultDeviceModuleFunctions = "torch.get_device_module";

/// \p Dotted in the model's CUDA spelling: `torch.Stream` is
/// `torch.cuda.Stream`, `torch.accelerator.set_stream` is
/// `torch.cuda.set_stream`; any other path is returned as it is.
std::string cudaSpelling(llvm::StringRef Dotted);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_ACCELERATORS_H
