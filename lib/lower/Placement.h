//===--- Placement.h - Where a new tensor's memory lives -----*- C++ -*-===//
//
// The placement rule of factories, _like factories and to(), for both
// languages: a front end reads what the call's arguments say of the device
// and of pinned memory into a PlacementStatement, the rule says where the
// result lives. No device stated: the CPU for a factory (ATen's default
// device), the source's placement for a _like factory or a to(). A device
// the reader cannot evaluate (x.device(), a parameter) is a device (the
// conservative answer). A pin flag the reader cannot evaluate asks for
// pinned memory on some path: pinned, the case that can race with the
// host.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_PLACEMENT_H
#define STREAMSAFE_LIB_LOWER_PLACEMENT_H

#include "lib/model/Recipes.h"
#include <cstdint>

namespace streamsafe {

/// What a call's arguments say of where its result lives.
struct PlacementStatement {
  enum class Device : uint8_t {
    Unstated,   ///< no device written
    Host,       ///< "cpu", at::kCPU, torch.device("cpu")
    Cuda,       ///< "cuda", "cuda:1", at::kCUDA, a CUDA device
    Unreadable, ///< a device the reader cannot evaluate
  };
  enum class Pin : uint8_t {
    Unstated,   ///< no pin_memory / pinned_memory written
    False,      ///< pin_memory=False, pinned_memory(false)
    Unreadable, ///< a flag the reader cannot evaluate
    True,       ///< pin_memory=True, pinned_memory(true)
  };
  Device D = Device::Unstated;
  Pin P = Pin::Unstated;

  /// Two statements about one result (C++: the options and a device
  /// argument of one factory): the stronger of each wins, a device or an
  /// unreadable one over the host, true over an unreadable flag over false.
  void add(const PlacementStatement &Other);
};

/// Where the result of a factory (\p Like: a _like factory or a to(), whose
/// default is its source's placement) lives. A device wins over pinned
/// memory (ATen pins host memory only).
Placement placementOf(const PlacementStatement &S, bool Like);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_LOWER_PLACEMENT_H
