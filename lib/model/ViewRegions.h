//===--- ViewRegions.h - Which part of its base a view covers ---*- C++ -*-===//
//
// The region rules of views and pieces, for both languages: a front end
// evaluates constant arguments from its syntax, the rules say which rows
// of the base (a whole storage) the view or piece covers. Only the first
// dimension is followed; anything else is Region::some().
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_VIEWREGIONS_H
#define STREAMSAFE_LIB_MODEL_VIEWREGIONS_H

#include "lib/ir/Region.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace streamsafe {

/// A call's argument at \p Position (C++; Python: or named \p Keyword) as an
/// integer constant: \p Default when it is not written, none when it is not
/// a constant.
using ConstantArgument = llvm::function_ref<std::optional<int64_t>(
    unsigned Position, llvm::StringRef Keyword, int64_t Default)>;

/// What the view method \p Name (select, narrow, slice, C++'s operator[])
/// covers of a whole base.
Region viewRegion(llvm::StringRef Name, ConstantArgument Arg);

/// What piece \p Index of the piece list \p Name (chunk, split, unbind and
/// their unsafe_ forms) covers of a whole base; \p Arg reads the call's
/// arguments after the tensor.
Region pieceRegion(llvm::StringRef Name, int64_t Index, ConstantArgument Arg);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_MODEL_VIEWREGIONS_H
