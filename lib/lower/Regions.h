//===--- Regions.h - Which part of its storage a tensor covers -*- C++ -*-===//
//
// The region rules of views, pieces and tensor methods' results, for both
// languages: a front end evaluates constant arguments from its syntax, the
// rules say which rows of the base (a whole storage) the view or piece
// covers. Only the first dimension is followed; anything else is
// Region::some().
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_LOWER_REGIONS_H
#define STREAMSAFE_LIB_LOWER_REGIONS_H

#include "lib/ir/Region.h"
#include "lib/model/ApiEffect.h"
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

/// Whether a tensor method with effect \p Effect returns its object's
/// storage (all of it or a view) rather than a new tensor: views, lists of
/// views, in-place methods and copy_().
bool methodResultAliasesObject(ApiEffect Effect);

/// What the result of a tensor method with effect \p Effect covers of its
/// object's storage, given what the object covers (\p Base) and, for a
/// view of a whole base, what the view covers (\p ViewOfWhole, asked only
/// then). An in-place method and copy_() return their object; a view of a
/// part stays inside that part; a list of views is no one tensor; any other
/// method makes a new tensor, all of its own storage.
Region methodResultRegion(ApiEffect Effect, Region Base,
                          llvm::function_ref<Region()> ViewOfWhole);

} // namespace streamsafe

#endif // STREAMSAFE_LIB_LOWER_REGIONS_H
