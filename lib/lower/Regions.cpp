//===--- Regions.cpp - Which part of its storage a tensor covers ----------===//
//
// The signatures (both languages): select(dim, index), narrow(dim, start,
// length), slice(dim = 0, start = 0, end = max, step = 1) (a step touches a
// subset of [start, end)), t[i]; chunk(chunks, dim = 0),
// split(split_size_or_sections, dim = 0), unbind(dim = 0).
//
//===----------------------------------------------------------------------===//

#include "lib/lower/Regions.h"
#include <limits>

namespace streamsafe {

Region viewRegion(llvm::StringRef Name, ConstantArgument Arg) {
  if (Name == "select" || Name == "operator[]") {
    bool Select = Name == "select";
    std::optional<int64_t> Dim = Select ? Arg(0, "dim", -1) : 0;
    std::optional<int64_t> I = Arg(Select ? 1 : 0, "index", -1);
    if (Dim && *Dim == 0 && I && *I >= 0)
      return Region::rows(*I, *I + 1);
  } else if (Name == "narrow") {
    std::optional<int64_t> Dim = Arg(0, "dim", -1), Start = Arg(1, "start", -1),
                           Length = Arg(2, "length", -1);
    if (Dim && *Dim == 0 && Start && *Start >= 0 && Length && *Length >= 0)
      return Region::rows(*Start, *Start + *Length);
  } else if (Name == "slice") {
    std::optional<int64_t> Dim = Arg(0, "dim", 0), Start = Arg(1, "start", 0),
                           End = Arg(2, "end",
                                     std::numeric_limits<int64_t>::max());
    if (Dim && *Dim == 0 && Start && *Start >= 0 && End && *End >= *Start)
      return Region::rows(*Start, *End);
  }
  return Region::some();
}

Region pieceRegion(llvm::StringRef Name, int64_t Index, ConstantArgument Arg) {
  if (Index < 0)
    return Region::some();
  bool Unbind = Name == "unbind";
  std::optional<int64_t> Dim = Arg(Unbind ? 0 : 1, "dim", 0);
  if (!Dim || *Dim != 0)
    return Region::some();
  if (Unbind)
    return Region::rows(Index, Index + 1);
  bool Chunk = Name == "chunk" || Name == "unsafe_chunk";
  bool Split = Name == "split" || Name == "unsafe_split";
  // The size has no default: not written, it is not known.
  std::optional<int64_t> N =
      Arg(0, Chunk ? "chunks" : "split_size_or_sections", -1);
  if (!N || *N <= 0)
    return Region::some();
  if (Chunk)
    return Index < *N ? Region::piece(Index, *N) : Region::some();
  if (Split)
    return Region::rows(Index * *N, (Index + 1) * *N);
  return Region::some();
}

bool methodResultAliasesObject(ApiEffect Effect) {
  return Effect == ApiEffect::TensorView ||
         Effect == ApiEffect::TensorViewList ||
         Effect == ApiEffect::TensorInPlace ||
         Effect == ApiEffect::TensorCopyFrom;
}

Region methodResultRegion(ApiEffect Effect, Region Base,
                          llvm::function_ref<Region()> ViewOfWhole) {
  switch (Effect) {
  case ApiEffect::TensorInPlace:
  case ApiEffect::TensorCopyFrom:
    return Base;
  case ApiEffect::TensorView:
    return Base.K == Region::Whole ? ViewOfWhole() : Base;
  case ApiEffect::TensorViewList:
  case ApiEffect::TensorMetadata:
  case ApiEffect::TensorRawPointer:
  case ApiEffect::TensorRecordStream:
  case ApiEffect::TensorHostRead:
    return Region::some(); // not a tensor of this storage
  default:
    return Region::whole();
  }
}

} // namespace streamsafe
