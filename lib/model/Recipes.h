//===--- Recipes.h - From a tensor call's effect to its facts ---*- C++ -*-===//
//
// Both front ends lower a call of a tensor method or of an at::/torch.
// function here: they resolve its operands (which tensors, which stream,
// non_blocking, where the result lives) from their syntax, and the recipe
// of its effect says which facts it makes, in which order, and at which of
// the front end's syntax nodes each is sited. So a call means the same in
// C++ and in Python, and a change to what a call means is made once.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_RECIPES_H
#define STREAMSAFE_LIB_MODEL_RECIPES_H

#include "lib/ir/IR.h"
#include "lib/model/ApiEffect.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace streamsafe {

/// Where a call's result lives.
enum class Placement : uint8_t {
  Device,     ///< on a device: allocated on its current stream
  Host,       ///< in pageable host memory
  PinnedHost, ///< in pinned host memory
  Source      ///< where the source tensor lives (empty_like, to(dtype))
};

/// A tensor operand and where it is written: At indexes the front end's
/// own list of syntax nodes (recipes never see syntax).
struct SitedTensor {
  TensorRef Tensor;
  unsigned At = 0;
};

/// What a front end resolved of a call to a tensor method (Self set) or to
/// an at::/torch. function (Self unset).
struct TensorCall {
  ApiEffect Effect = ApiEffect::None;
  /// Where the call is written.
  unsigned AtCall = 0;
  std::optional<SitedTensor> Self;
  /// The tensors among the arguments, in order (for a method: not the
  /// receiver; copy_'s source is Args[0]).
  llvm::SmallVector<SitedTensor, 4> Args;
  /// record_stream(s)'s stream.
  StreamRef Stream = StreamRef::unknown();
  /// non_blocking=true (copy_, to).
  bool Async = false;
  /// A raw pointer kept in a variable: the host reads through it later,
  /// which the analysis does not follow.
  bool PointerKept = false;
  /// The object keying the tensor the call returns; none when it returns
  /// no tensor (item(), a reference to self).
  std::optional<ObjectId> Result;
  Placement Place = Placement::Device;
  /// For Placement::Device: a constant device index, if the call names one.
  int8_t Device = StreamRef::NoDevice;
  /// empty*(): allocates without writing.
  bool AllocateOnly = false;
  /// tensor(data) of host data (a list, a number): a blocking copy from the
  /// host.
  bool FromHostData = false;
};

/// One fact a recipe makes, sited at the front end's node At.
struct RecipeStep {
  unsigned At = 0;
  SiteKind Kind = SiteKind::Other;
  Fact::Op What;
};
using Recipe = llvm::SmallVector<RecipeStep, 6>;

/// The facts of \p C, in order; empty for an effect that makes none (views,
/// metadata) or that is not a tensor call's.
Recipe recipeOf(const TensorCall &C);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_RECIPES_H
