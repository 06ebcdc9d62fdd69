//===--- TensorMethods.h - What each method of a tensor does ----*- C++ -*-===//
//
// One table for both languages: at::Tensor's methods in C++ and
// torch.Tensor's methods and attributes in Python. A method with no row
// follows the naming conventions (Naming.h): in place when its name ends in
// '_', an op otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_TENSORMETHODS_H
#define STREAMSAFE_LIB_MODEL_TENSORMETHODS_H

#include "lib/model/ApiEffect.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>

namespace streamsafe {

/// How a language spells a tensor method: a bit set.
enum Spelling : uint8_t {
  CppMethod = 1,   ///< t.name(...) on an at::Tensor
  PyMethod = 2,    ///< t.name(...) on a torch.Tensor
  PyAttribute = 4, ///< t.name, no call (Python properties: t.T, t.data)
  BothMethods = CppMethod | PyMethod,
};

enum class Language : uint8_t { Cpp, Python };

struct TensorMethodRow {
  const char *Name;
  ApiEffect Effect;
  uint8_t Spellings = BothMethods;
  /// For a row spelled in one language only: why the other has none.
  const char *OneLanguage = nullptr;
  /// A view that copies when the strides allow none (viewMayCopy).
  bool MayCopy = false;
};

llvm::ArrayRef<TensorMethodRow> tensorMethodRows();

/// What the method \p Name does in \p L: its row, or the naming
/// conventions (TensorInPlace, TensorOp).
ApiEffect tensorMethodEffect(llvm::StringRef Name, Language L);
/// The effect of the Python attribute `t.Name` (ApiEffect::None: an
/// attribute the model does not know, such as t.shape).
ApiEffect tensorAttributeEffect(llvm::StringRef Name);

/// Whether the view method \p Name copies when its result cannot share the
/// storage (`contiguous()` of a transposed tensor, `reshape` of one): the
/// call then reads the whole base on the current stream. Its result is
/// still taken to name the base (it does when no copy is needed).
bool viewMayCopy(llvm::StringRef Name);

/// For a test of the tensor property \p Name (`t.is_cuda`, `t.is_cuda()`):
/// true when the tensor is on the host where the test holds, false where
/// it fails; none for a property that says nothing of where it lives.
std::optional<bool> hostWhenTested(llvm::StringRef Name);

/// Whether `t.Accessor().Method(arg)` gives the memory of t's storage back
/// to the caching allocator when arg is 0, whatever still names t: a
/// storage (`untyped_storage()`, `storage()`, `_typed_storage()`) resized
/// to nothing (`resize_`, `_resize_`), as FSDP and ZeRO free the full
/// parameters they gathered.
bool freesStorageAtZero(llvm::StringRef Accessor, llvm::StringRef Method);
/// Whether the tensor method \p Name names the tensor's storage
/// (`untyped_storage()`, `storage()`, `_typed_storage()`).
bool accessesStorage(llvm::StringRef Name);
/// Whether the in-place method \p Name (`t.set_(source, offset, size,
/// stride)`) makes the tensor a view of its source's storage (a tensor, or
/// a storage of one): no kernel runs, and `t`'s old storage loses a
/// reference. `aten/src/ATen/native/TensorShape.cpp` (`set_storage_`).
bool setsStorage(llvm::StringRef Name);
/// Whether the op \p Name (a tensor method, or a torch function) returns
/// a tuple of new tensors (`values, indices = x.sort()`, `torch.topk(x,
/// k)`, `x.max(dim)`, `torch.unique(x, return_inverse=True)`): each is a
/// tensor of its own, made on the current stream.
bool returnsTensorTuple(llvm::StringRef Name);
/// Whether assigning the attribute \p Name of a tensor (`t.data = other`)
/// swaps the storage under every reference to the tensor: the old one's
/// memory goes back to the allocator unless a view still holds it.
bool swapsStorage(llvm::StringRef Name);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_TENSORMETHODS_H
